// Skills at real-world scale (issue 11): a generated tree of over 600 skills (a project folder, a
// vendored collection grouped by category and read through a `skill_paths` glob, a `~` path, a user
// folder with a category level), with invalid, oversize, excluded, ambiguous and renamed skills mixed
// in. Every valid listed skill activates, the built-in library stays reachable, the counts add up, and
// no inactive skill's body is read (every read of a skill file is recorded at the reader).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleSkillPrompt, discoverSkills, loadSkillContext, statusCounts, type Skill, type SkillContext, type SkillStatus } from '../../../src/ai/skills/index.js';
import { readObserver } from '../../../src/fs/safe-read.js';
import { runCliJson } from '../../helpers/run-cli.js';

/** What the generator wrote for one skill file, and what discovery must make of it. */
interface Written {
  file: string;
  name: string;
  scope: 'project' | 'user';
  status: SkillStatus;
  listed: boolean;
  md: boolean;
}

const CHUNK = 4 * 1024;
const filler = 'Check read quality, adapter content and duplication before alignment; keep every threshold in config. '.repeat(80); // ~8 KiB
const body = (name: string) => `# ${name}\n\nBODY-OF-${name}\n\n${filler}\n`;

let root: string;
let project: string;
let home: string;
let fakeHome: string;
const written: Written[] = [];
const reads = new Map<string, { bytes: number; complete: boolean }[]>();
let sc: SkillContext;
let savedHome: string | undefined;

function md(dir: string, folder: string, text: string, w: Omit<Written, 'file' | 'md'>): void {
  const file = path.join(dir, folder, 'SKILL.md');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  written.push({ ...w, file, md: true });
}

function front(name: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${name} guidance for a generated collection\n${extra}---\n`;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'oxo-skills-scale-'));
  project = path.join(root, 'project');
  home = path.join(root, 'oxo-home');
  fakeHome = path.join(root, 'home');
  const projectSkills = path.join(project, '.oxo-flow', 'skills');
  mkdirSync(projectSkills, { recursive: true });

  // 300 SKILL.md skills in the project folder: some oversize, some invalid, some named unlike their folder.
  for (let i = 0; i < 300; i++) {
    const folder = `p-${String(i).padStart(3, '0')}`;
    if (i % 50 === 7) md(projectSkills, folder, front(folder) + 'x'.repeat(70 * 1024), { name: folder, scope: 'project', status: 'oversize', listed: i === 7 });
    else if (i % 25 === 3) md(projectSkills, folder, `---\nname: ${folder}\n---\n${body(folder)}`, { name: folder, scope: 'project', status: 'invalid', listed: i === 3 });
    else if (i % 10 === 5) md(projectSkills, folder, front(`bio-${folder}`) + body(`bio-${folder}`), { name: `bio-${folder}`, scope: 'project', status: 'ok', listed: i % 3 !== 0 });
    else md(projectSkills, folder, front(folder, 'metadata:\n  domain: genomics\n  primary_tool: samtools\n') + body(folder), { name: folder, scope: 'project', status: 'ok', listed: i % 3 !== 0 });
  }
  // 50 TOML skills, one of them invalid.
  for (let i = 0; i < 50; i++) {
    const name = `t-${String(i).padStart(2, '0')}`;
    const file = path.join(projectSkills, `${name}.skill.toml`);
    const version = i === 13 ? '1.0' : '"1.0.0"';
    writeFileSync(file, `name = "${name}"\nversion = ${version}\ndescription = "${name} advice"\nskill_type = "knowledge"\nprompt_additions = ["Advice from ${name}."]\n`);
    written.push({ file, name, scope: 'project', status: i === 13 ? 'invalid' : 'ok', listed: i !== 13, md: false });
  }
  // A front matter that never ends within the bounded read, and a real conflict (two folders claim one name).
  md(projectSkills, 'p-long', `---\nname: p-long\ndescription: long\n${'# filler\n'.repeat(3000)}---\nbody\n`, { name: 'p-long', scope: 'project', status: 'excluded', listed: false });
  md(projectSkills, 'dup-a', front('dup-skill') + body('dup-a'), { name: 'dup-skill', scope: 'project', status: 'ambiguous', listed: false });
  md(projectSkills, 'dup-b', front('dup-skill') + body('dup-b'), { name: 'dup-skill', scope: 'project', status: 'ambiguous', listed: false });

  // A vendored collection grouped by category: vendor/bioSkills/<category>/<skill>/SKILL.md, 250 skills.
  for (const category of ['genomics', 'transcriptomics', 'proteomics', 'epigenomics', 'metagenomics']) {
    const dir = path.join(project, 'vendor', 'bioSkills', category);
    for (let i = 0; i < 50; i++) {
      const folder = `${category}-${String(i).padStart(2, '0')}`;
      if (i === 11) md(dir, folder, `---\nname: ${folder}\ndescription: Use when: colon\n---\n${body(folder)}`, { name: folder, scope: 'project', status: 'invalid', listed: false });
      else if (i % 7 === 0) md(dir, folder, front(`bio-${folder}`) + body(`bio-${folder}`), { name: `bio-${folder}`, scope: 'project', status: 'ok', listed: i % 3 !== 0 });
      else md(dir, folder, front(folder) + body(folder), { name: folder, scope: 'project', status: 'ok', listed: i % 3 !== 0 });
    }
  }
  // `~/shared-skills`: 5 skills under the home folder.
  for (let i = 0; i < 5; i++) md(path.join(fakeHome, 'shared-skills'), `h-${i}`, front(`h-${i}`) + body(`h-${i}`), { name: `h-${i}`, scope: 'project', status: 'ok', listed: true });
  // User scope: 10 skills, one shadowed by the project's p-001, and a category level that is not read.
  const userSkills = path.join(home, 'skills');
  for (let i = 0; i < 10; i++) md(userSkills, `u-${i}`, front(`u-${i}`) + body(`u-${i}`), { name: `u-${i}`, scope: 'user', status: 'ok', listed: i % 2 === 0 });
  md(userSkills, 'p-001', front('p-001') + body('user-p-001'), { name: 'p-001', scope: 'user', status: 'shadowed', listed: true });
  mkdirSync(path.join(userSkills, 'extra', 'nested-one'), { recursive: true });
  writeFileSync(path.join(userSkills, 'extra', 'nested-one', 'SKILL.md'), front('nested-one') + body('nested-one'));

  // Built-in names come from the real library (its content is maintained elsewhere).
  const builtins = discoverSkills({ projectDir: path.join(root, 'none'), homeDir: path.join(root, 'none'), builtinDir: builtinDir() }).skills.map((s) => s.name);
  expect(builtins.length).toBeGreaterThan(0);
  const listed = written.filter((w) => w.listed).map((w) => (w.status === 'shadowed' ? `user/${w.name}` : w.name));
  const names = [...listed, 'dup-skill', ...builtins.map((b) => `builtin/${b}`)];
  writeFileSync(
    path.join(project, '.oxo-flow', 'ai.toml'),
    `[ai]\nskill_paths = ["vendor/bioSkills/*", "~/shared-skills", "does-not-exist", "vendor/none/*"]\nskills = ${JSON.stringify(names)}\n`,
  );

  savedHome = process.env.HOME;
  process.env.HOME = fakeHome; // `~` in skill_paths
  readObserver.onRead = (file, bytes, complete) => {
    const list = reads.get(file) ?? [];
    list.push({ bytes, complete });
    reads.set(file, list);
  };
  try {
    sc = await loadSkillContext({ cwd: project, env: { OXO_FLOW_HOME: home } });
  } finally {
    delete readObserver.onRead;
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function builtinDir(): string {
  return path.resolve(__dirname, '../../../skills-builtin');
}

const userSide = () => sc.discovery.skills.filter((s) => s.scope !== 'builtin');
const byFile = () => new Map(sc.discovery.skills.map((s) => [s.path, s]));

describe('a collection of over 600 skills', () => {
  it('discovers every skill file written, each with the expected name and status', () => {
    expect(written.length).toBeGreaterThanOrEqual(600);
    const found = byFile();
    const mismatches: string[] = [];
    for (const w of written) {
      const s = found.get(w.file);
      if (!s) mismatches.push(`${w.file}: not discovered`);
      else if (s.name !== w.name || s.status !== w.status || s.scope !== w.scope) mismatches.push(`${w.file}: ${s.scope}/${s.name} ${s.status}, expected ${w.scope}/${w.name} ${w.status}`);
    }
    expect(mismatches).toEqual([]);
    expect(userSide()).toHaveLength(written.length); // nothing else, nothing nested
  });

  it('counts every status, and the counts match what was written', () => {
    const expected = statusCounts([]);
    for (const w of written) expected[w.status] += 1;
    expect(statusCounts(userSide())).toEqual(expected);
    expect(expected.invalid).toBeGreaterThan(10);
    expect(expected.oversize).toBe(6);
    expect(expected.excluded).toBe(1);
    expect(expected.ambiguous).toBe(2);
  });

  it('activates every valid listed skill, whatever the number of other skills, and the built-ins too', () => {
    const active = new Set(sc.activation.active.map((s) => `${s.scope}/${s.name}`));
    const expectedActive = written.filter((w) => w.listed && (w.status === 'ok' || w.status === 'shadowed')).map((w) => `${w.scope}/${w.name}`);
    expect(expectedActive.length).toBeGreaterThan(350);
    expect(expectedActive.filter((a) => !active.has(a))).toEqual([]);
    const builtins = sc.discovery.skills.filter((s) => s.scope === 'builtin');
    expect(builtins.every((b) => b.status === 'ok' && active.has(`builtin/${b.name}`))).toBe(true);
    // Listed but unusable: one warning each, naming why.
    expect(sc.activation.warnings.map((w) => w.code).sort()).toEqual(['SK031', 'SK031', 'SK032']);
    // The renamed skill's domain and tool come from `metadata`.
    expect(sc.discovery.skills.find((s) => s.name === 'p-001' && s.scope === 'project')).toMatchObject({ domains: ['genomics'], primaryTool: 'samtools' });
  });

  it('reads no body of an inactive skill: front matter only, in one bounded chunk; bodies only for active skills', () => {
    const active = new Set<Skill>(sc.activation.active);
    const problems: string[] = [];
    for (const s of userSide().filter((x) => x.format === 'md')) {
      const r = reads.get(s.path) ?? [];
      if (active.has(s)) {
        if (!r.some((x) => x.complete)) problems.push(`${s.name}: active but its body was not read`);
        if (!s.prompt?.includes(`BODY-OF-`)) problems.push(`${s.name}: active without its body`);
      } else {
        if (s.prompt !== undefined) problems.push(`${s.name}: inactive with a prompt`);
        if (r.some((x) => x.complete || x.bytes > CHUNK) && s.status !== 'excluded') problems.push(`${s.name}: inactive but read past its first chunk (${JSON.stringify(r)})`);
        if (s.status === 'oversize' && r.length > 0) problems.push(`${s.name}: oversize but opened for reading`);
        if (r.length > 1) problems.push(`${s.name}: read ${r.length} times`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('assembles one block per distinct active knowledge skill', () => {
    const prompt = assembleSkillPrompt('BASE', sc.activation.active);
    const blocks = prompt.match(/^## Skill: /gm) ?? [];
    expect(blocks.length).toBe(sc.activation.active.filter((s) => s.type === 'knowledge' && s.prompt).length);
    // project/p-001 and user/p-001 are both active: their headings carry the alias.
    expect(prompt).toContain('## Skill: project/p-001\n');
    expect(prompt).toContain('## Skill: user/p-001\n');
  });

  it('says where skill_paths do not match and where a category level hides skills', () => {
    const codes = sc.diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(codes.filter((c) => c.startsWith('SK060'))).toHaveLength(2);
    expect(codes.some((c) => c.startsWith('SK060') && c.includes('does-not-exist'))).toBe(true);
    expect(codes.some((c) => c.startsWith('SK060') && c.includes('vendor/none/*'))).toBe(true);
    const hint = sc.diagnostics.find((d) => d.code === 'SK061');
    expect(hint?.message).toContain(path.join('extra', 'nested-one', 'SKILL.md'));
    expect(hint?.hint).toContain('skill_paths');
  });

  it('`ai status --json` (the built CLI) reports the counts and a warning for unusable skills', () => {
    const r = runCliJson(['ai'], { cwd: project, env: { OXO_FLOW_HOME: home, HOME: fakeHome } });
    expect(r.code).toBe(0);
    const json = r.json as { skill_counts: Record<string, unknown>; activation: { active: unknown[] }; diagnostics: { code: string; message: string }[]; counts: Record<string, number> };
    const expected = statusCounts([]);
    for (const w of written) expected[w.status] += 1;
    const byScope = json.skill_counts.by_scope as Record<string, Record<string, number>>;
    for (const st of Object.keys(expected) as SkillStatus[]) expect(byScope.project![st]! + byScope.user![st]!).toBe(expected[st]);
    expect(json.activation.active.length).toBe(sc.activation.active.length);
    const summary = json.diagnostics.find((d) => d.code === 'SK062');
    expect(summary?.message).toContain(`${expected.invalid} invalid, ${expected.oversize} oversize, ${expected.excluded} excluded, ${expected.ambiguous} ambiguous`);
    expect(json.counts.warning).toBeGreaterThan(0);
  });
});
