// The discovery cache through the built CLI: `ai --json`, `ai skills validate --json` and `ai skills
// show` print the same cold, warm and with the cache off; a broken cache is mentioned only with
// --verbose or --json, never as an error; deterministic commands never touch the cache.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkillTree, mdSkill, tomlSkill, writeMd, writeToml, type SkillTree } from '../helpers/skills-fixtures.js';
import { runCli } from '../helpers/run-cli.js';

let t: SkillTree;
let env: Record<string, string | undefined>;
const cacheDir = () => path.join(t.homeDir, 'cache', 'skills');

beforeAll(async () => {
  t = makeSkillTree();
  env = { OXO_FLOW_HOME: t.homeDir, HOME: t.root, OXO_FLOW_AI_PROVIDER: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, DEEPSEEK_API_KEY: undefined, CI: undefined };
  writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert'));
  writeToml(t.userSkills, 'bad-version', tomlSkill('bad-version', { version: '1.0' }));
  writeMd(t.projectSkills, 'rnaseq-reviewer', mdSkill('rnaseq-reviewer', '# Review\n\nCheck strandedness.'));
  writeMd(t.projectSkills, 'folder', mdSkill('bio-folder'));
  writeMd(t.projectSkills, 'broken', '---\nname: broken\ndescription: [unclosed\n---\nbody\n');
  writeMd(t.projectSkills, 'oversize', `${mdSkill('oversize')}${'z'.repeat(70 * 1024)}`);
  writeMd(t.projectSkills, 'qc-expert', mdSkill('qc-expert'));
  mkdirSync(path.join(t.projectDir, '.oxo-flow'), { recursive: true });
  writeFileSync(path.join(t.projectDir, '.oxo-flow', 'ai.toml'), '[ai]\nskills = ["rnaseq-reviewer", "user/qc-expert", "bio-folder", "broken", "fastqc-report"]\n');
  writeFileSync(path.join(t.projectDir, 'main.oxoflow'), '[workflow]\nname = "g"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\n');
  // Files changed in the last 3 seconds are not stored (coarse time stamps): let them settle.
  await new Promise((r) => setTimeout(r, 3100));
});
afterAll(() => t.cleanup());

const run = (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, { cwd: t.projectDir, env: { ...env, ...extra } });

describe('the discovery cache, end to end', () => {
  it('deterministic commands never create or read it', () => {
    for (const args of [['validate', 'main.oxoflow'], ['lint', 'main.oxoflow'], ['dry-run', 'main.oxoflow']]) expect(run(args).code).toBe(0);
    expect(existsSync(path.join(t.homeDir, 'cache'))).toBe(false);
  });

  it('prints the same cold, warm and with the cache off', () => {
    const commands = [['--json', 'ai', '--all'], ['--json', 'ai', 'skills', 'validate'], ['ai', 'skills', 'show', 'user/qc-expert'], ['ai', '--all'], ['--json', 'ai', 'skills', 'list', '--all']];
    const off = commands.map((args) => run(args, { OXO_FLOW_SKILL_CACHE: '0' }));
    expect(existsSync(cacheDir())).toBe(false);
    const cold: ReturnType<typeof run>[] = [];
    const warm: ReturnType<typeof run>[] = [];
    for (const args of commands) {
      rmSync(cacheDir(), { recursive: true, force: true });
      cold.push(run(args));
      expect(readdirSync(cacheDir()).length).toBeGreaterThan(0);
      warm.push(run(args));
    }
    for (let i = 0; i < commands.length; i++) {
      expect(cold[i], commands[i]!.join(' ')).toEqual(off[i]);
      expect(warm[i], commands[i]!.join(' ')).toEqual(off[i]);
    }
    // The report is about real skills: one active from each scope, the broken one reported.
    const doc = JSON.parse(warm[0]!.stdout) as { activation: { active: { alias: string; sha256: string | null }[] }; diagnostics: { code: string }[] };
    expect(doc.activation.active.map((a) => a.alias)).toEqual(['project/rnaseq-reviewer', 'user/qc-expert', 'project/bio-folder', 'builtin/fastqc-report']);
    expect(doc.activation.active.every((a) => typeof a.sha256 === 'string')).toBe(true);
    expect(doc.diagnostics.map((d) => d.code)).toContain('SK062');
  });

  it('a corrupt cache is never an error: a note with --verbose and in --json, nothing otherwise', () => {
    run(['ai']);
    for (const f of readdirSync(cacheDir())) writeFileSync(path.join(cacheDir(), f), '{"format": "oxo-flow-skill-cache", "version": 1, "entr');
    const plain = run(['ai']);
    expect(plain.code).toBe(0);
    expect(plain.stdout + plain.stderr).not.toContain('SK063');
    for (const f of readdirSync(cacheDir())) writeFileSync(path.join(cacheDir(), f), 'garbage');
    const verbose = run(['--verbose', 'ai']);
    expect(verbose.code).toBe(0);
    expect(verbose.stdout + verbose.stderr).toContain('SK063');
    for (const f of readdirSync(cacheDir())) writeFileSync(path.join(cacheDir(), f), 'garbage');
    const json = run(['--json', 'ai']);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { diagnostics: { code: string; severity: string }[] }).diagnostics.filter((d) => d.code === 'SK063').every((d) => d.severity === 'info')).toBe(true);
  });

  it('an unwritable cache is never an error either', () => {
    const home = path.join(t.root, 'home-ro');
    mkdirSync(home);
    writeFileSync(path.join(home, 'cache'), 'not a directory');
    const r = run(['--json', 'ai'], { OXO_FLOW_HOME: home });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code)).toContain('SK064');
    expect(run(['ai'], { OXO_FLOW_HOME: home }).stderr).not.toContain('SK064');
  });
});
