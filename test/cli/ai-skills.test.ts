// `oxo-flow ai skills`, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the TypeScript sources).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSkillTree, mdSkill, tomlSkill, writeMd, writeToml, type SkillTree } from '../helpers/skills-fixtures.js';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';
import { builtinSkillNames } from '../helpers/builtin-skills.js';

let t: SkillTree;
let env: Record<string, string | undefined>;
beforeEach(async () => {
  t = makeSkillTree();
  env = { OXO_FLOW_HOME: t.homeDir, HOME: t.root, OXO_FLOW_AI_PROVIDER: undefined };
});
afterEach(() => t.cleanup());

describe('ai skills list / show', () => {
  it('list shows user and project skills and counts built-ins; --json lists all', async () => {
    writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert'));
    writeToml(t.userSkills, 'broken', 'name = "broken"\n');
    const r = await runCli(['ai', 'skills', 'list'], { cwd: t.projectDir, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/broken\s+user\s+toml\s+-\s+invalid/);
    expect(r.stderr).toMatch(/└ SK003: missing required field/);
    const j = (await runCliJson(['ai', 'skills', 'list'], { cwd: t.projectDir, env })).json as Record<string, any>;
    expect(j.skills.length).toBe(2 + builtinSkillNames().length);
  });

  it('show prints exactly the injected block on stdout, for a name or a qualified alias', async () => {
    writeMd(t.projectSkills, 'rnaseq-reviewer', mdSkill('rnaseq-reviewer', '# Guidance\n\nCheck strandedness.'));
    const r = await runCli(['ai', 'skills', 'show', 'rnaseq-reviewer'], { cwd: t.projectDir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('## Skill: rnaseq-reviewer\n# Guidance\n\nCheck strandedness.\n');
    const builtin = await runCli(['ai', 'skills', 'show', 'builtin/fastq-qc'], { cwd: t.projectDir, env });
    expect(builtin.stdout.startsWith('## Skill: fastq-qc\n# FASTQ quality control\n')).toBe(true);
  });

  it('show of an unknown name fails with a suggestion', async () => {
    const r = await runCli(['ai', 'skills', 'show', 'fastq-q'], { cwd: t.projectDir, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error SK030');
    expect(r.stderr).toContain('did you mean "fastq-qc"?');
  });
});

describe('ai skills validate', () => {
  it('a clean skills directory passes; the built-in library passes', async () => {
    writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert'));
    expect((await runCli(['ai', 'skills', 'validate', t.userSkills], { env })).code).toBe(0);
    const builtin = await runCliJson(['ai', 'skills', 'validate', path.resolve(__dirname, '../../skills-builtin')], { env });
    expect(builtin.code).toBe(0);
    expect((builtin.json as any).statuses).toEqual({ ok: builtinSkillNames().length });
    expect((builtin.json as any).diagnostics).toEqual([]);
  });

  it('exit 1 with coded, located findings (usable in CI)', async () => {
    writeToml(t.userSkills, 'bad', tomlSkill('bad', { version: '1.0', colour: '"red"' }));
    writeMd(t.userSkills, 'evil', '---js\n({name: "evil"})\n---\nbody\n');
    const r = await runCli(['ai', 'skills', 'validate', t.userSkills], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.skill\.toml:2:1: error SK004: `version` must be a string/);
    expect(r.stderr).toMatch(/bad\.skill\.toml:\d+:1: warning SK006/);
    expect(r.stderr).toMatch(/SKILL\.md:1:4: error SK010/);
    expect(r.stderr).toContain('2 skills checked: 2 invalid');
  });

  it('validates one file or one skill directory', async () => {
    writeToml(t.userSkills, 'good', tomlSkill('good'));
    const bad = writeMd(t.userSkills, 'bad-md', '---\nname: other\ndescription: x\n---\nbody\n');
    expect((await runCli(['ai', 'skills', 'validate', path.join(t.userSkills, 'good.skill.toml')], { env })).code).toBe(0);
    // A name that differs from its folder loads under the declared name with a warning; --strict fails on it.
    const r = await runCliJson(['ai', 'skills', 'validate', path.dirname(bad)], { env });
    expect(r.code).toBe(0);
    expect((r.json as any).skills.map((s: any) => [s.name, s.folder_name, s.status])).toEqual([['other', 'bad-md', 'ok']]);
    expect((r.json as any).diagnostics.map((d: any) => d.code)).toEqual(['SK002']);
    const strict = await runCliJson(['ai', 'skills', 'validate', '--strict', path.dirname(bad)], { env });
    expect(strict.code).toBe(1);
    expect((strict.json as any).strict).toBe(true);
  });

  it('a path that is not a skill is a usage error', async () => {
    writeFileSync(path.join(t.root, 'notes.txt'), 'x');
    expect((await runCli(['ai', 'skills', 'validate', path.join(t.root, 'notes.txt')], { env })).code).toBe(2);
    expect((await runCli(['ai', 'skills', 'validate', path.join(t.root, 'nope')], { env })).code).toBe(2);
  });
});

describe('ai skills new', () => {
  it('scaffolds a valid TOML skill in the project scope and refuses to overwrite without --force', async () => {
    const r = await runCli(['ai', 'skills', 'new', 'qc-notes'], { cwd: t.projectDir, env });
    expect(r.code).toBe(0);
    const file = path.join(t.projectSkills, 'qc-notes.skill.toml');
    expect(existsSync(file)).toBe(true);
    expect((await runCli(['ai', 'skills', 'validate', file], { env })).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8') + '# mine\n');
    const again = await runCli(['ai', 'skills', 'new', 'qc-notes'], { cwd: t.projectDir, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('error CLI004');
    expect(readFileSync(file, 'utf8')).toContain('# mine');
    expect((await runCli(['ai', 'skills', 'new', 'qc-notes', '--force'], { cwd: t.projectDir, env })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toContain('# mine');
  });

  it('--format md scaffolds <name>/SKILL.md that shows up as ok and can be activated', async () => {
    expect((await runCli(['ai', 'skills', 'new', 'peak-review', '--format', 'md'], { cwd: t.projectDir, env })).code).toBe(0);
    const j = (await runCliJson(['ai', 'status', '--skill', 'peak-review'], { cwd: t.projectDir, env })).json as Record<string, any>;
    expect(j.activation.active.map((a: any) => a.alias)).toEqual(['project/peak-review']);
  });

  it('an invalid name is a usage error', async () => {
    const r = await runCli(['ai', 'skills', 'new', 'Bad_Name'], { cwd: t.projectDir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SK001');
  });
});
