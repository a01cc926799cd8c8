// The discovery cache never changes a result: discovery over a varied tree (valid, renamed, invalid,
// hostile, oversize, excluded, linked, FIFO, TOML knowledge and tool skills, duplicates, the real
// built-in library read from its files) gives the same skills, findings, statuses, activation,
// bodies and hashes cold and warm; a warm run reads no unchanged file; a changed file is read again;
// a broken or unwritable cache is ignored with a note.
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activateSkills } from '../../../src/ai/skills/activate.js';
import { discoverSkills, loadSkillBody, skillSha256 } from '../../../src/ai/skills/discover.js';
import { CACHE_FILE_MAX, CACHE_FILES_MAX, DiscoveryCache, skillCacheDir } from '../../../src/ai/skills/discovery-cache.js';
import type { Discovery } from '../../../src/ai/skills/types.js';
import { readObserver } from '../../../src/fs/safe-read.js';
import { makeSkillTree, mdSkill, tomlSkill, writeMd, writeToml, type SkillTree } from '../../helpers/skills-fixtures.js';

const BUILTIN = path.resolve(__dirname, '../../../skills-builtin');
/** Ten seconds from now: every file written by the test counts as settled (the real clock is tested below). */
const later = () => Date.now() + 10_000;

let t: SkillTree;
beforeEach(() => {
  t = makeSkillTree();
});
afterEach(() => {
  readObserver.onRead = undefined;
  t.cleanup();
});

/** A tree with every kind of skill discovery knows about, in the three scopes. */
function varied(): void {
  writeMd(t.projectSkills, 'rnaseq-reviewer', mdSkill('rnaseq-reviewer', '# Guidance\n\nCheck strandedness.', 'version: 1.2.0\nlicense: MIT\nmetadata:\n  domain: rnaseq, qc\n  primary_tool: star\n  __proto__: x\n'));
  writeMd(t.projectSkills, 'alignment', mdSkill('bio-alignment', 'Align well.'));
  writeMd(t.projectSkills, 'bad-yaml', '---\nname: bad-yaml\ndescription: "unclosed\n---\nbody\n');
  writeMd(t.projectSkills, 'js-matter', '---js\nrequire("child_process").execSync("touch /tmp/pwned")\n---\nbody\n');
  writeMd(t.projectSkills, 'unclosed', '---\nname: unclosed\ndescription: never closed\n');
  writeMd(t.projectSkills, 'no-body', mdSkill('no-body', ''));
  writeMd(t.projectSkills, 'unknown-key', mdSkill('unknown-key', 'Body.', 'colour: blue\n'));
  writeMd(t.projectSkills, 'huge-front', `---\nname: huge-front\ndescription: ${'x'.repeat(20 * 1024)}\n---\nbody\n`);
  writeMd(t.projectSkills, 'oversize', `${mdSkill('oversize')}${'y'.repeat(70 * 1024)}`);
  writeMd(t.projectSkills, 'bad-utf8', Buffer.concat([Buffer.from('---\nname: bad-utf8\ndescription: caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\n---\nbody\n')]));
  writeMd(t.projectSkills, 'body-utf8', Buffer.concat([Buffer.from(mdSkill('body-utf8', 'ok text ')), Buffer.from([0xff, 0xfe, 0x0a])]));
  writeMd(t.projectSkills, 'dup', mdSkill('dup'));
  writeToml(t.projectSkills, 'dup', tomlSkill('dup'));
  mkdirSync(path.join(t.projectSkills, 'lower'));
  writeFileSync(path.join(t.projectSkills, 'lower', 'skill.md'), mdSkill('lower'));
  // Links: a skill directory linked inside the root, one linked outside, a file linked outside, a FIFO.
  writeMd(t.userSkills, 'real-one', mdSkill('real-one', 'Real body.'));
  symlinkSync(path.join(t.userSkills, 'real-one'), path.join(t.userSkills, 'alias-one'));
  writeMd(path.join(t.root, 'outside'), 'escape', mdSkill('escape'));
  symlinkSync(path.join(t.root, 'outside', 'escape'), path.join(t.userSkills, 'escape'));
  writeFileSync(path.join(t.root, 'secret.txt'), 'name = "x"');
  symlinkSync(path.join(t.root, 'secret.txt'), path.join(t.userSkills, 'leak.skill.toml'));
  writeToml(t.userSkills, 'linked-target', tomlSkill('linked-target'));
  symlinkSync(path.join(t.userSkills, 'linked-target.skill.toml'), path.join(t.userSkills, 'linked.skill.toml'));
  execFileSync('mkfifo', [path.join(t.userSkills, 'pipe.skill.toml')]);
  // TOML: knowledge, no prompt, wrong types, unparsable, a tool skill with a credential header.
  writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert', { domains: '["qc", "wgs", "qc"]', author: '"Lab"' }));
  writeToml(t.userSkills, 'empty-prompt', tomlSkill('empty-prompt', { prompt_additions: '[]' }));
  writeToml(t.userSkills, 'float-version', tomlSkill('float-version', { version: '1.0' }));
  writeToml(t.userSkills, 'broken', 'name = "broken"\nversion = \n');
  writeToml(t.userSkills, 'dup', tomlSkill('dup'));
  writeToml(
    t.userSkills,
    'tool-one',
    tomlSkill('tool-one', { skill_type: '"tool"', requires: '["mcp://127.0.0.1:9/mcp"]', prompt_additions: '' }).concat('[mcp]\nheaders = { Authorization = "Bearer sk-live-1234567890abcdef" }\n'),
  );
  writeToml(t.userSkills, 'rnaseq-reviewer', tomlSkill('rnaseq-reviewer'));
}

const discover = (cache?: DiscoveryCache) =>
  discoverSkills({ projectDir: t.projectDir, homeDir: t.homeDir, builtinDir: BUILTIN, wanted: WANTED, ...(cache ? { cache } : {}) });
const WANTED = ['rnaseq-reviewer', 'bio-alignment', 'qc-expert', 'user/rnaseq-reviewer', 'dup', 'bad-yaml', 'tool-one', 'linked-target', 'fastp-trim', 'no-body', 'body-utf8', 'missing-one'];

/** Everything a command could show of a discovery: skills (prompt aside), hashes, diagnostics, roots, then activation and every body. */
function snapshot(d: Discovery): unknown {
  const listed = JSON.parse(JSON.stringify({ ...d, skills: d.skills.map(({ prompt: _p, ...s }) => ({ ...s, sha256: skillSha256(s as never) ?? null })) }));
  const activation = activateSkills(d, { flags: WANTED });
  const active = activation.active.map((s) => ({ alias: `${s.scope}/${s.name}`, prompt: s.prompt, sha256: skillSha256(s) ?? null }));
  const bodies = d.skills.map((s) => ({ path: s.path, usable: loadSkillBody(s), status: s.status, prompt: s.prompt ?? null, findings: s.findings, sha256: skillSha256(s) ?? null }));
  return { listed, active, warnings: activation.warnings, sources: activation.sources, bodies };
}

/** Which files were read (paths), while `fn` runs. */
function reads(fn: () => void): string[] {
  const seen: string[] = [];
  readObserver.onRead = (file) => seen.push(file);
  try {
    fn();
  } finally {
    readObserver.onRead = undefined;
  }
  return seen;
}

const cacheDir = () => skillCacheDir(t.homeDir);

/** Rewrite every cache file, each row's stored skill changed by `edit` (the skill is a row's last cell). */
function editCachedSkills(edit: (skill: Record<string, unknown>) => void): void {
  for (const f of readdirSync(cacheDir())) {
    const full = path.join(cacheDir(), f);
    const doc = JSON.parse(readFileSync(full, 'utf8'));
    for (const row of doc.rows as unknown[][]) edit(row[row.length - 1] as Record<string, unknown>);
    writeFileSync(full, JSON.stringify(doc));
  }
}

describe('the discovery cache', () => {
  it('gives the same skills, findings, statuses, activation, bodies and hashes cold and warm, and a warm run reads no skill file', () => {
    varied();
    const plain = snapshot(discover());
    let cold: Discovery | undefined;
    const coldReads = reads(() => (cold = discover(new DiscoveryCache(cacheDir(), 'test', later))));
    let warm: Discovery | undefined;
    const warmCache = new DiscoveryCache(cacheDir(), 'test', later);
    const warmReads = reads(() => (warm = discover(warmCache)));
    expect(warmCache.notes).toEqual([]);
    // The built-in library alone is 300-odd files: the cold run read them, the warm run none of them.
    expect(coldReads.filter((f) => f.startsWith(BUILTIN)).length).toBeGreaterThan(300);
    expect(warmReads.filter((f) => f.startsWith(BUILTIN))).toEqual([]);
    // What is read warm: the skills never stored (tool skill, links out, refused, unreadable), nothing else.
    expect(warmReads.map((f) => path.relative(t.root, f)).sort()).toEqual(['home/skills/tool-one.skill.toml']);
    expect(snapshot(cold!)).toEqual(plain);
    expect(snapshot(warm!)).toEqual(plain);
    // And a third run (the cache written by a warm run is the same cache).
    expect(snapshot(discover(new DiscoveryCache(cacheDir(), 'test', later)))).toEqual(plain);
  });

  it('stores only front matter: no SKILL.md body, no TOML prompt, no tool skill and no credential', () => {
    varied();
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    const text = readdirSync(cacheDir()).map((f) => readFileSync(path.join(cacheDir(), f), 'utf8')).join('\n');
    expect(text).not.toContain('Check strandedness');
    expect(text).not.toContain('Advice from qc-expert');
    expect(text).not.toContain('tool-one');
    expect(text).not.toContain('sk-live');
    expect(text).toContain('rnaseq-reviewer');
  });

  it('is made 0700 with files 0600, written through a temporary file, and bounded in the number of files', () => {
    varied();
    mkdirSync(cacheDir(), { recursive: true });
    for (let i = 0; i < CACHE_FILES_MAX + 10; i++) {
      const f = path.join(cacheDir(), `skills-old${i}.json`);
      writeFileSync(f, '{}');
      utimesSync(f, new Date(2020, 0, 1), new Date(2020, 0, 1));
    }
    writeFileSync(path.join(cacheDir(), 'skills-x.json.1.abc.tmp'), '');
    utimesSync(path.join(cacheDir(), 'skills-x.json.1.abc.tmp'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    const files = readdirSync(cacheDir());
    expect(files.length).toBe(CACHE_FILES_MAX);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const ours = files.filter((f) => !f.startsWith('skills-old'));
    expect(ours.length).toBe(3); // the project's, the user's and the built-in library's
    for (const f of ours) expect(statSync(path.join(cacheDir(), f)).mode & 0o777).toBe(0o600);
  });

  it('reads a changed file again: new size, or the same size with its old modification time put back', () => {
    const file = writeMd(t.projectSkills, 'grows', mdSkill('grows', 'One.'));
    const same = writeToml(t.userSkills, 'same-size', tomlSkill('same-size', { description: '"aaaa advice"' }));
    utimesSync(same, 1_700_000_000, 1_700_000_000);
    const before = statSync(same);
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    writeFileSync(file, mdSkill('grows', 'One.', 'description: now longer than before\n'));
    writeFileSync(same, tomlSkill('same-size', { description: '"bbbb advice"' }));
    utimesSync(same, 1_700_000_000, 1_700_000_000);
    expect(statSync(same).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(same).size).toBe(before.size);
    const warm = discover(new DiscoveryCache(cacheDir(), 'test', later));
    const plain = discover();
    expect(snapshot(warm)).toEqual(snapshot(plain));
    expect(plain.skills.find((s) => s.name === 'grows')!.findings.map((f) => f.code)).toEqual(['SK009']);
    expect(plain.skills.find((s) => s.name === 'same-size')!.description).toBe('bbbb advice');
  });

  it('finds rows out of step with the listing: skills added before, between and after the stored ones, one removed', () => {
    for (const name of ['b-one', 'd-two', 'f-three', 'h-four']) writeMd(t.projectSkills, name, mdSkill(name));
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    for (const name of ['a-new', 'e-new', 'z-new']) writeMd(t.projectSkills, name, mdSkill(name));
    rmSync(path.join(t.projectSkills, 'd-two'), { recursive: true });
    const plain = snapshot(discover());
    let warm: Discovery | undefined;
    const warmReads = reads(() => (warm = discover(new DiscoveryCache(cacheDir(), 'test', later))));
    expect(snapshot(warm!)).toEqual(plain);
    expect(warmReads.map((f) => path.basename(path.dirname(f))).sort()).toEqual(['a-new', 'e-new', 'z-new']);
    // The rewritten file lists the removed skill no more, and a third run reads nothing.
    expect(readdirSync(cacheDir()).map((f) => readFileSync(path.join(cacheDir(), f), 'utf8')).join('')).not.toContain('d-two');
    expect(reads(() => discover(new DiscoveryCache(cacheDir(), 'test', later)))).toEqual([]);
  });

  it('does not store a file changed in the last few seconds (coarse time stamps), and does once it settles', () => {
    writeMd(t.projectSkills, 'fresh', mdSkill('fresh'));
    discover(new DiscoveryCache(cacheDir(), 'test'));
    const stored = () => readdirSync(cacheDir()).map((f) => readFileSync(path.join(cacheDir(), f), 'utf8')).join('');
    expect(stored()).not.toContain('"fresh"'); // the built-in library is stored; the new file is not
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    expect(stored()).toContain('"fresh"');
  });

  it('a skill file edited after discovery, before its prompt is read, makes it invalid as for an uncached skill', () => {
    const file = writeToml(t.userSkills, 'edited', tomlSkill('edited'));
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    const d = discover(new DiscoveryCache(cacheDir(), 'test', later));
    writeFileSync(file, tomlSkill('other-name'));
    const s = d.skills.find((x) => x.name === 'edited')!;
    expect(s.prompt).toBeUndefined();
    expect(loadSkillBody(s)).toBe(false);
    expect(s.status).toBe('invalid');
    expect(s.findings.map((f) => f.code)).toEqual(['SK015']);
  });

  it.each([
    ['not JSON', '{"format": "oxo-flow-skill-cache", "vers', 'not valid JSON'],
    ['another version', '{"format": "oxo-flow-skill-cache", "version": 99, "rows": []}', 'not a version 2'],
    ['of the version before (entries by path)', '{"format": "oxo-flow-skill-cache", "version": 1, "entries": {}}', 'not a version 2'],
    ['not ours', '[1, 2, 3]', 'not a version 2'],
  ])('a cache file that is %s is ignored with a note (SK063) and rewritten', (_label, text, says) => {
    varied();
    const plain = snapshot(discover());
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    for (const f of readdirSync(cacheDir())) writeFileSync(path.join(cacheDir(), f), text);
    const cache = new DiscoveryCache(cacheDir(), 'test', later);
    expect(snapshot(discover(cache))).toEqual(plain);
    expect(cache.notes.map((n) => n.code)).toContain('SK063');
    expect(cache.notes[0]!.message).toContain(says);
    expect(cache.notes.every((n) => n.severity === 'info')).toBe(true);
    const again = new DiscoveryCache(cacheDir(), 'test', later);
    expect(snapshot(discover(again))).toEqual(plain);
    expect(again.notes).toEqual([]);
  });

  it('entries of the wrong shape, another build or another directory are not used', () => {
    writeMd(t.projectSkills, 'shaped', mdSkill('shaped'));
    const plain = snapshot(discover());
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    editCachedSkills((skill) => {
      skill.status = 'ok';
      skill.findings = [{ code: 'SK999' }];
      skill.description = 42;
    });
    expect(snapshot(discover(new DiscoveryCache(cacheDir(), 'test', later)))).toEqual(plain);
    // A well-formed entry with a field discovery never stores (a prompt, a server) is not used either.
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    editCachedSkills((skill) => {
      skill.prompt = 'INJECTED';
      skill.mcp = { url: 'http://127.0.0.1:9/', headers: {}, trustAnnotations: true };
    });
    const injected = discover(new DiscoveryCache(cacheDir(), 'test', later));
    expect(snapshot(injected)).toEqual(plain);
    expect(JSON.stringify(snapshot(injected))).not.toContain('INJECTED');
    // Another build: its entries are not used (what it says about a file may differ).
    const other = new DiscoveryCache(cacheDir(), 'another build', later);
    const otherReads = reads(() => discover(other));
    expect(otherReads.some((f) => f.endsWith(path.join('shaped', 'SKILL.md')))).toBe(true);
  });

  it('a cache file over its size bound is not read (SK063)', () => {
    writeMd(t.projectSkills, 'big', mdSkill('big'));
    discover(new DiscoveryCache(cacheDir(), 'test', later));
    for (const f of readdirSync(cacheDir())) {
      const fd = openSync(path.join(cacheDir(), f), 'r+');
      ftruncateSync(fd, CACHE_FILE_MAX + 1);
      closeSync(fd);
    }
    const cache = new DiscoveryCache(cacheDir(), 'test', later);
    discover(cache);
    expect(cache.notes.map((n) => n.message).join('\n')).toContain('over the 16 MiB bound');
  });

  it('an unwritable cache is skipped with a note (SK064): the same result, no error', () => {
    varied();
    const plain = snapshot(discover());
    mkdirSync(path.join(t.homeDir), { recursive: true });
    writeFileSync(path.join(t.homeDir, 'cache'), 'a file where the cache directory would go');
    const cache = new DiscoveryCache(cacheDir(), 'test', later);
    expect(snapshot(discover(cache))).toEqual(plain);
    expect(cache.notes.map((n) => n.code)).toEqual(['SK064']);
  });

  it('a read-only cache directory is skipped with a note', () => {
    if (process.getuid?.() === 0) return; // root writes anyway: the ENOTDIR case above covers the path
    writeMd(t.projectSkills, 'ro', mdSkill('ro'));
    mkdirSync(cacheDir(), { recursive: true });
    chmodSync(cacheDir(), 0o500);
    const cache = new DiscoveryCache(cacheDir(), 'test', later);
    discover(cache);
    chmodSync(cacheDir(), 0o700);
    expect(cache.notes.map((n) => n.code)).toEqual(['SK064']);
  });
});
