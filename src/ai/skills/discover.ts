// Read-only skill discovery over the project, user and built-in scopes. Never fatal, never executes:
// every file found becomes a Skill with a status and its findings, and a problem with one file never
// affects another.
//
// Progressive disclosure (the Agent Skills idea): discovery reads each SKILL.md only up to the end of
// its front matter (name, description, a few fields; at most FRONT_MATTER_MAX bytes). The body is read
// by loadSkillBody, only for a skill that is activated, shown or validated. A `.skill.toml` is read
// whole: it is one small table, its prompt text included.
//
// Caps protect the CLI from a hostile tree, not a budget shared between scopes: each is per directory
// or per file, so a large collection in one folder never pushes out the built-in library or another
// folder's skills, and a skill listed by name is found even past a directory's entry cap.
import { createHash } from 'node:crypto';
import { lstatSync, opendirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { decodeText, type FileIdentity, isInside, lineColumnOfByte, readFileSafely, type SafeRead } from '../../fs/safe-read.js';
import { manifestSha256, type PrebuiltScope } from './builtin-manifest.js';
import type { DiscoveryCache, RootCache } from './discovery-cache.js';
import { nameProblem } from './field-checks.js';
import { frontMatterExtent, parseMdSkill } from './parse-md-skill.js';
import { parseTomlSkill } from './parse-toml-skill.js';
import { singleLine } from './prompt-text.js';
import { SKILL_STATUSES, type Discovery, type ParsedSkill, type Skill, type SkillFormat, type SkillScope, type SkillStatus } from './types.js';

/** A skill file over this size is `oversize`: listed from its size, never read. */
export const SKILL_FILE_CAP = 64 * 1024;
/** Entries read from one directory (a skills directory, or a directory a `skill_paths` glob lists). */
export const MAX_DIR_ENTRIES = 10_000;
/** Directories one `skill_paths` glob may expand to. */
export const MAX_GLOB_DIRS = 1_000;
/** Bytes of a SKILL.md read to find the end of its front matter, and the read size per step. */
export const FRONT_MATTER_MAX = 16 * 1024;
const FRONT_MATTER_CHUNK = 4 * 1024;
export const SCOPES: readonly SkillScope[] = ['project', 'user', 'builtin'];

/**
 * The bytes each skill was read from, once its whole file has been read (TOML at discovery, SKILL.md
 * when its body is loaded). Their sha256 is computed only when asked for (session records, JSON
 * listings): loading node:crypto takes longer than reading 500 skills, and in the bundle it loads on
 * first use (scripts/bundle.mjs).
 */
const readBytes = new WeakMap<Skill, Buffer>();
/** Where a SKILL.md skill's body is read from later: its scan root and whether its directory is a link. */
const bodySource = new WeakMap<Skill, { rootReal: string; parentIsLink: boolean }>();
/** TOML skills listed from the discovery cache: their prompt (and bytes) are read when first needed. */
const unreadToml = new WeakMap<Skill, { rootReal: string; parentIsLink: boolean }>();

/** sha256 (hex) of a skill file read whole; undefined for a skill whose whole file was not read. */
export function skillSha256(skill: Skill): string | undefined {
  const source = unreadToml.get(skill);
  if (source !== undefined && !readBytes.has(skill)) {
    // Listed from the cache, whose key matched this file: hash the file as it is.
    const read = readFileSafely(skill.path, source.rootReal, SKILL_FILE_CAP, { parentIsLink: source.parentIsLink });
    if (read.ok && read.complete) readBytes.set(skill, read.bytes);
  }
  const bytes = readBytes.get(skill);
  if (bytes === undefined) return manifestSha256(skill);
  return createHash('sha256').update(bytes).digest('hex');
}

export interface DiscoveryContext {
  /** The project directory; its skills live in `<projectDir>/.oxo-flow/skills/`. */
  projectDir: string;
  /** The OXO_FLOW_HOME value (default ~/.oxo-flow); user skills live in `<homeDir>/skills/`. */
  homeDir: string;
  /** The built-in library (skills-builtin/ of the package). */
  builtinDir: string;
  /** More project-scope skill directories (ai.toml `skill_paths`): absolute, `~` expanded, may hold `*` globs. */
  extraPaths?: string[];
  /** Names listed for activation (bare or `scope/NAME`): found by a direct look even past an entry cap. */
  wanted?: readonly string[];
  /** The built-in scope as prepared at build time (builtin-manifest.ts), used instead of reading its files. */
  prebuiltBuiltins?: PrebuiltScope;
  /** The discovery cache (discovery-cache.ts): unchanged files are listed from it; written when discovery ends. */
  cache?: DiscoveryCache;
}

/** One place skills are read from, in precedence order. */
export interface SkillRoot {
  scope: SkillScope;
  dir: string;
  /** Listed in `skill_paths`: a glob is expanded, and a path that matches nothing is a warning. */
  configured?: boolean;
}

interface Candidate {
  name: string;
  format: SkillFormat;
  path: string;
  dir: string;
  /** Set when the entry is refused before reading (a link out of the root). */
  refused?: Diagnostic;
  /** From the directory listing: the skill directory is a link (its SKILL.md's real path is checked). */
  parentIsLink?: boolean;
}

export function skillRoots(ctx: DiscoveryContext): SkillRoot[] {
  const project = path.resolve(ctx.projectDir);
  return [
    { scope: 'project', dir: path.join(project, '.oxo-flow', 'skills') },
    ...(ctx.extraPaths ?? []).map((p) => ({ scope: 'project' as const, dir: path.resolve(project, p), configured: true })),
    { scope: 'user', dir: path.join(path.resolve(ctx.homeDir), 'skills') },
    { scope: 'builtin', dir: path.resolve(ctx.builtinDir) },
  ];
}

export function discoverSkills(ctx: DiscoveryContext): Discovery {
  return discoverInRoots(skillRoots(ctx), {
    ...(ctx.wanted ? { wanted: ctx.wanted } : {}),
    ...(ctx.prebuiltBuiltins ? { prebuilt: ctx.prebuiltBuiltins } : {}),
    ...(ctx.cache ? { cache: ctx.cache } : {}),
    projectDir: path.resolve(ctx.projectDir),
  });
}

/**
 * Discovery over explicit roots, in precedence order (also used by `ai skills validate PATH`).
 * `wanted`: names listed for activation; `projectDir`: hints name paths relative to it.
 */
export function discoverInRoots(
  rootList: readonly SkillRoot[],
  options: { wanted?: readonly string[]; projectDir?: string; prebuilt?: PrebuiltScope; cache?: DiscoveryCache } = {},
): Discovery {
  const wanted = options.wanted ?? [];
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  const roots: Discovery['roots'] = [];
  const seenRoots = new Set<string>();
  const wantedNames = new Set(wanted.map((w) => w.slice(w.indexOf('/') + 1)));
  for (const root of expandRoots(rootList, diagnostics)) {
    const { scope, dir } = root;
    let rootReal: string;
    try {
      // The native realpath: one system call, where Node's own walks the path with an lstat per component.
      rootReal = realpathSync.native(dir);
      if (!statSync(rootReal).isDirectory()) {
        diagnostics.push(diagnostic('SK023', `skills path ${dir} is not a directory`, { file: dir }));
        roots.push({ scope, dir, exists: false });
        continue;
      }
    } catch {
      if (root.configured) diagnostics.push(diagnostic('SK060', `skill_paths entry ${dir} does not exist; no skills are read from it`, { file: dir }));
      roots.push({ scope, dir, exists: false });
      continue;
    }
    roots.push({ scope, dir, exists: true });
    if (seenRoots.has(rootReal)) continue; // the same directory listed twice is scanned once
    seenRoots.add(rootReal);
    if (scope === 'builtin' && options.prebuilt?.dirReal === rootReal) {
      skills.push(...options.prebuilt.skills()); // the built-in library, prepared at build time
      continue;
    }
    const listing = listCandidates(rootReal, diagnostics, wantedNames);
    const cache = options.cache?.root(rootReal);
    // Where a listed skill's body or prompt is read from later: one object per root and kind, not per skill.
    const sources: SourcePair = [{ rootReal, parentIsLink: false }, { rootReal, parentIsLink: true }];
    const noSkillFile: string[] = [];
    for (const candidate of listing) {
      const skill = (cache && fromCache(candidate, scope, sources, cache)) ?? loadCandidate(candidate, scope, rootReal, cache);
      if (skill) skills.push(skill);
      else if (exists(path.join(candidate.dir, 'skill.md')))
        diagnostics.push(diagnostic('SK024', `${path.join(candidate.name, 'skill.md')} is not read: the file must be named SKILL.md`, { file: path.join(candidate.dir, 'skill.md') }));
      else noSkillFile.push(candidate.dir);
    }
    if (scope !== 'builtin') {
      const nested = nestedSkillExample(noSkillFile);
      if (nested)
        diagnostics.push(
          diagnostic('SK061', `${path.relative(rootReal, nested) || nested} is one folder deeper than skills are read in ${dir}, so it and its neighbours are not discovered`, {
            file: nested,
            hint: `skills are read as <dir>/<name>/SKILL.md; to read a collection grouped by category, add a glob to .oxo-flow/ai.toml: skill_paths = ["${globFor(dir, options.projectDir)}"]`,
          }),
        );
    }
  }
  // Written before relations are marked: an entry is what its file alone says.
  options.cache?.flush();
  markRelations(skills);
  return { skills, diagnostics, roots };
}

/** `dir/*` as a skill_paths entry: relative to the project when inside it, else `~/...` or absolute. */
function globFor(dir: string, projectDir: string | undefined): string {
  const rel = projectDir ? path.relative(projectDir, dir) : '';
  if (projectDir && rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return `${rel.split(path.sep).join('/')}/*`;
  return path.join(dir, '*');
}

/** Each skill status and how many skills have it (every status present, zeros included). */
export function statusCounts(skills: readonly Skill[]): Record<SkillStatus, number> {
  const counts = Object.fromEntries(SKILL_STATUSES.map((s) => [s, 0])) as Record<SkillStatus, number>;
  for (let i = 0; i < skills.length; i++) counts[skills[i]!.status] += 1;
  return counts;
}

/** `skill_paths` globs become the directories they match (a glob matching none is a warning). */
function expandRoots(rootList: readonly SkillRoot[], diagnostics: Diagnostic[]): SkillRoot[] {
  const out: SkillRoot[] = [];
  for (const root of rootList) {
    if (!root.configured || !hasGlob(root.dir)) {
      out.push(root);
      continue;
    }
    const { dirs, truncated } = expandDirGlob(root.dir);
    if (truncated) diagnostics.push(diagnostic('SK021', `skill_paths glob ${root.dir} matches more than ${MAX_GLOB_DIRS} directories; only the first ${MAX_GLOB_DIRS} are read`, { file: root.dir }));
    if (dirs.length === 0) diagnostics.push(diagnostic('SK060', `skill_paths glob ${root.dir} matches no directory; no skills are read from it`, { file: root.dir }));
    for (const dir of dirs) out.push({ scope: root.scope, dir, configured: true });
  }
  return out;
}

const hasGlob = (p: string) => /[*?[]/.test(p);

/** The directories an absolute pattern with `*`, `?` or `[...]` in some segments matches (hidden ones only when the segment asks). */
export function expandDirGlob(pattern: string): { dirs: string[]; truncated: boolean } {
  const { root } = path.parse(pattern);
  const parts = pattern.slice(root.length).split(path.sep).filter(Boolean);
  let current = [root];
  let truncated = false;
  for (const part of parts) {
    if (!hasGlob(part)) {
      current = current.map((d) => path.join(d, part));
      continue;
    }
    const re = globSegment(part);
    const next: string[] = [];
    for (const dir of current) {
      const { entries } = listDir(dir, MAX_DIR_ENTRIES);
      for (const e of entries) {
        if (e.name.startsWith('.') && !part.startsWith('.')) continue;
        if (!re.test(e.name)) continue;
        const full = path.join(dir, e.name);
        if (e.isDirectory() || (e.isSymbolicLink() && isDirectory(full))) next.push(full);
      }
    }
    next.sort();
    if (next.length > MAX_GLOB_DIRS) {
      truncated = true;
      next.length = MAX_GLOB_DIRS;
    }
    current = next;
  }
  return { dirs: current.filter(isDirectory), truncated };
}

function globSegment(part: string): RegExp {
  let re = '';
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = part.indexOf(']', i + 1);
      if (end === -1) re += '\\[';
      else {
        const body = part.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** At most `max` entries of a directory, sorted by name; an unreadable directory gives none. */
function listDir(dir: string, max: number): { entries: Dirent[]; truncated: boolean; error?: Error } {
  const entries: Dirent[] = [];
  let handle;
  try {
    handle = opendirSync(dir, { bufferSize: 256 });
  } catch (err) {
    return { entries, truncated: false, error: err as Error };
  }
  let truncated = false;
  try {
    let entry: Dirent | null;
    while ((entry = handle.readSync()) !== null) {
      if (entries.length >= max) {
        truncated = true;
        break;
      }
      entries.push(entry);
    }
  } finally {
    handle.closeSync();
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, truncated };
}

/** Skill files directly in the root and `<name>/SKILL.md` one level down; bounded, dot-entries skipped. */
function listCandidates(rootReal: string, diagnostics: Diagnostic[], wanted: ReadonlySet<string>): Candidate[] {
  const { entries, truncated, error } = listDir(rootReal, MAX_DIR_ENTRIES);
  if (error) {
    diagnostics.push(diagnostic('SK023', `cannot read skills directory ${rootReal}: ${error.message}`, { file: rootReal }));
    return [];
  }
  const out: Candidate[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = childPath(rootReal, entry.name);
    if (entry.name.endsWith('.skill.toml') && entry.name.length > '.skill.toml'.length) {
      out.push({ name: entry.name.slice(0, -'.skill.toml'.length), format: 'toml', path: full, dir: rootReal });
      continue;
    }
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const skillFile = childPath(full, 'SKILL.md');
    if (entry.isSymbolicLink()) {
      let real: string;
      try {
        real = realpathSync.native(full);
        if (!statSync(real).isDirectory()) continue;
      } catch {
        continue; // a dangling link is not a skill
      }
      if (!isInside(rootReal, real)) {
        out.push({
          name: entry.name,
          format: 'md',
          path: skillFile,
          dir: full,
          refused: diagnostic('SK013', `skill directory ${entry.name} is a link to ${real}, outside the skills directory; it is not read`, { file: full }),
        });
        continue;
      }
    }
    // Whether SKILL.md exists is learnt by reading it (one lstat fewer per skill).
    out.push({ name: entry.name, format: 'md', path: skillFile, dir: full, parentIsLink: entry.isSymbolicLink() });
  }
  if (truncated) {
    diagnostics.push(diagnostic('SK021', `skills directory ${rootReal} has more than ${MAX_DIR_ENTRIES} entries; only the first ${MAX_DIR_ENTRIES} read were scanned (skills listed by name are still looked up)`, { file: rootReal }));
    // The cap never decides whether a listed skill works: look its file up directly.
    const seen = new Set(entries.map((e) => e.name));
    for (const name of wanted) {
      if (nameProblem(name) !== undefined) continue; // a valid name cannot climb out of the root
      if (!seen.has(name) && exists(childPath(rootReal, name)))
        out.push({ name, format: 'md', path: childPath(childPath(rootReal, name), 'SKILL.md'), dir: childPath(rootReal, name), parentIsLink: true });
      const toml = `${name}.skill.toml`;
      if (!seen.has(toml) && exists(childPath(rootReal, toml))) out.push({ name, format: 'toml', path: childPath(rootReal, toml), dir: rootReal });
    }
  }
  return out;
}

/**
 * A SKILL.md one level below one of `dirs` (directories with no SKILL.md of their own), for the
 * hint that a collection is grouped by category. Looks at a few directories and a few entries each.
 */
function nestedSkillExample(dirs: readonly string[]): string | undefined {
  for (const dir of dirs.slice(0, 8)) {
    const { entries } = listDir(dir, 64);
    for (const e of entries) {
      if (e.name.startsWith('.') || !(e.isDirectory() || e.isSymbolicLink())) continue;
      const file = path.join(dir, e.name, 'SKILL.md');
      if (exists(file)) return file;
    }
  }
  return undefined;
}

/** `dir/name` for a real, normalised directory and a plain entry name: path.join without its normalising pass. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

type Source = { rootReal: string; parentIsLink: boolean };
type SourcePair = readonly [plain: Source, linked: Source];

/** The skill for a candidate whose file has not changed since the cache stored it; undefined on a miss. */
function fromCache(c: Candidate, scope: SkillScope, sources: SourcePair, cache: RootCache): Skill | undefined {
  if (c.refused || cache.empty) return undefined;
  const parentIsLink = Boolean(c.parentIsLink);
  const cached = cache.lookup(c.path, c.format, parentIsLink);
  if (cached === undefined) return undefined;
  // The entry becomes this run's skill, placed where it was found.
  const skill = cached as Skill;
  skill.scope = scope;
  skill.path = c.path;
  skill.dir = c.dir;
  // As after a read: a SKILL.md's body, and a TOML file's bytes and prompt, are read when asked for.
  (c.format === 'md' ? bodySource : unreadToml).set(skill, sources[parentIsLink ? 1 : 0]);
  return skill;
}

/** The skill for one candidate, or undefined when a directory turns out to hold no SKILL.md; stored in `cache` when it can be. */
function loadCandidate(c: Candidate, scope: SkillScope, rootReal: string, cache?: RootCache): Skill | undefined {
  let identity: FileIdentity | undefined;
  const skill = readCandidate(c, scope, rootReal, cache && ((id) => (identity = id)));
  if (skill !== undefined && identity !== undefined) cache!.store(c.path, skill, identity);
  return skill;
}

/** Read and judge one candidate's file; `seen` gets the identity of the file read (for the cache), when it was judged by its content or size. */
function readCandidate(c: Candidate, scope: SkillScope, rootReal: string, seen?: (identity: FileIdentity) => void): Skill | undefined {
  const skill: Skill = { name: c.name, scope, format: c.format, status: 'ok', findings: [], path: c.path, dir: c.dir, domains: [] };
  if (c.format === 'md') skill.type = 'knowledge';
  if (c.refused) return invalid(skill, c.refused);
  const parentIsLink = Boolean(c.parentIsLink);
  // The front matter's extent, as found by the read's last `done` check (not searched for twice).
  let extent: number | 'none' | undefined;
  let extentOf: Buffer | undefined;
  const read =
    c.format === 'toml'
      ? readFileSafely(c.path, rootReal, SKILL_FILE_CAP, { parentIsLink, identity: seen !== undefined })
      : readFileSafely(c.path, rootReal, SKILL_FILE_CAP, {
          parentIsLink,
          identity: seen !== undefined,
          // The bytes are decoded below and none is kept: a view of the shared read buffer is enough.
          borrow: true,
          head: {
            chunk: FRONT_MATTER_CHUNK,
            max: FRONT_MATTER_MAX,
            done: (bytes) => {
              extentOf = bytes;
              extent = frontMatterExtent(bytes);
              return extent !== undefined;
            },
          },
        });
  if (!read.ok) {
    if (read.reason === 'missing') return undefined;
    // Only an oversize file is judged by its stat alone (and so may be cached); other failures are not.
    if (read.reason === 'oversize' && read.identity) seen?.(read.identity);
    return unreadable(skill, read);
  }
  if (read.identity) seen?.(read.identity);
  skill.sizeBytes = read.size;
  if (c.format === 'toml') {
    readBytes.set(skill, read.bytes);
    const decoded = decodeText(read.bytes);
    if (!decoded.ok) return invalid(skill, diagnostic('SK014', `invalid UTF-8 at byte ${decoded.offset}`, { file: c.path, ...lineColumnOfByte(read.bytes, decoded.offset) }));
    applyParsed(skill, parseTomlSkill(decoded.text, c.path, c.name));
    return skill;
  }
  bodySource.set(skill, { rootReal, parentIsLink });
  if (extentOf === undefined || extentOf.length !== read.bytes.length) extent = frontMatterExtent(read.bytes);
  if (extent === undefined && !read.complete) {
    skill.status = 'excluded';
    skill.findings.push(diagnostic('SK020', `not read: no end of front matter in its first ${FRONT_MATTER_MAX / 1024} KiB`, { file: c.path, line: 1, column: 1 }));
    return skill;
  }
  // Decode only the front matter (a chunk may end inside a character of the body).
  const end = typeof extent === 'number' ? extent : read.complete ? read.bytes.length : read.bytes.lastIndexOf(0x0a) + 1;
  const head = read.bytes.subarray(0, end);
  const decoded = decodeText(head);
  if (!decoded.ok) return invalid(skill, diagnostic('SK014', `invalid UTF-8 at byte ${decoded.offset}`, { file: c.path, ...lineColumnOfByte(head, decoded.offset) }));
  applyParsed(skill, parseMdSkill(decoded.text, c.path, c.name, false));
  return skill;
}

function unreadable(skill: Skill, read: Extract<SafeRead, { ok: false }>): Skill {
  switch (read.reason) {
    case 'oversize':
      skill.status = 'oversize';
      if (read.size !== undefined) skill.sizeBytes = read.size;
      skill.findings.push(diagnostic('SK011', `skill file is ${read.detail}, over the 64 KiB limit; it is listed without content`, { file: skill.path }));
      return skill;
    case 'escapes-root':
      return invalid(skill, diagnostic('SK013', `skill file ${read.detail}; it is not read`, { file: skill.path }));
    case 'not-regular':
      return invalid(skill, diagnostic('SK012', `skill path is ${read.detail}; only regular files are read`, { file: skill.path }));
    default:
      return invalid(skill, diagnostic('SK015', `cannot read skill file: ${read.detail}`, { file: skill.path }));
  }
}

/**
 * Read a SKILL.md skill's body (its prompt text), once: for a skill being activated, shown or
 * validated. Returns false, with the skill's status and findings updated, when the file can no longer
 * be used (changed since discovery, invalid UTF-8 in the body). TOML skills are complete already.
 */
export function loadSkillBody(skill: Skill): boolean {
  const usable = () => skill.status === 'ok' || skill.status === 'shadowed';
  if (skill.format === 'toml') return unreadToml.has(skill) && usable() ? readTomlPrompt(skill) : usable();
  const source = bodySource.get(skill);
  if (skill.format !== 'md' || source === undefined || readBytes.has(skill) || !usable()) return usable();
  const read = readFileSafely(skill.path, source.rootReal, SKILL_FILE_CAP, { parentIsLink: source.parentIsLink });
  if (!read.ok) {
    if (read.reason === 'missing') invalid(skill, diagnostic('SK015', 'cannot read skill file: it was removed after discovery', { file: skill.path }));
    else unreadable(skill, read);
    dropContent(skill, skill.status);
    return false;
  }
  readBytes.set(skill, read.bytes);
  skill.sizeBytes = read.size;
  const decoded = decodeText(read.bytes);
  if (!decoded.ok) {
    invalid(skill, diagnostic('SK014', `invalid UTF-8 at byte ${decoded.offset}`, { file: skill.path, ...lineColumnOfByte(read.bytes, decoded.offset) }));
    return false;
  }
  const parsed = parseMdSkill(decoded.text, skill.path, skill.folderName ?? skill.name);
  const errors = parsed.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0 || (parsed.declaredName !== undefined && parsed.declaredName !== skill.name)) {
    skill.findings.push(...(errors.length > 0 ? errors : [diagnostic('SK015', 'the skill file changed after discovery (its name is different now)', { file: skill.path })]));
    dropContent(skill, 'invalid');
    return false;
  }
  if (parsed.prompt !== undefined) skill.prompt = parsed.prompt;
  skill.findings.push(...parsed.findings.filter((f) => f.code === 'SK022'));
  return true;
}

/**
 * The prompt of a TOML skill listed from the cache: its file is read and judged again, as discovery
 * would; a file that no longer gives the same usable skill makes it invalid (as a changed SKILL.md does).
 */
function readTomlPrompt(skill: Skill): boolean {
  const source = unreadToml.get(skill)!;
  unreadToml.delete(skill);
  const candidate: Candidate = { name: skill.folderName ?? skill.name, format: 'toml', path: skill.path, dir: skill.dir, parentIsLink: source.parentIsLink };
  const fresh = readCandidate(candidate, skill.scope, source.rootReal);
  if (fresh === undefined || fresh.status !== 'ok' || fresh.name !== skill.name) {
    const errors = fresh?.findings.filter((f) => f.severity === 'error') ?? [];
    skill.findings.push(...(errors.length > 0 ? errors : [diagnostic('SK015', fresh === undefined ? 'cannot read skill file: it was removed after discovery' : 'the skill file changed after discovery (its name is different now)', { file: skill.path })]));
    dropContent(skill, 'invalid');
    return false;
  }
  const bytes = readBytes.get(fresh);
  if (bytes !== undefined) readBytes.set(skill, bytes);
  if (fresh.prompt !== undefined) skill.prompt = fresh.prompt;
  return true;
}

function applyParsed(skill: Skill, parsed: ParsedSkill): void {
  const { findings, description, declaredName, ...rest } = parsed;
  Object.assign(skill, rest);
  // The declared name wins over the folder or file name when it is a valid name (SK002 says they differ).
  if (declaredName !== undefined && declaredName !== skill.name && nameProblem(declaredName) === undefined) {
    skill.folderName = skill.name;
    skill.name = declaredName;
  }
  if (description !== undefined) skill.description = singleLine(description);
  skill.findings.push(...findings);
  if (findings.some((f) => f.severity === 'error')) dropContent(skill, 'invalid');
}

function invalid(skill: Skill, finding: Diagnostic): Skill {
  skill.findings.push(finding);
  skill.status = 'invalid';
  return skill;
}

function dropContent(skill: Skill, status: Skill['status']): void {
  skill.status = status;
  delete skill.prompt;
  delete skill.mcp;
}

/** Same name twice in one scope → ambiguous; same name in a lower-precedence scope → shadowed. */
function markRelations(skills: Skill[]): void {
  // Names seen once map to their skill; a group is made only for a name seen twice (rare), so the
  // common case allocates no array per skill and the loop below visits only the shared names.
  const first = new Map<string, Skill>();
  const byName = new Map<string, Skill[]>();
  for (let i = 0; i < skills.length; i++) {
    const s = skills[i]!;
    const seen = first.get(s.name);
    if (seen === undefined) first.set(s.name, s);
    else {
      const list = byName.get(s.name);
      if (list) list.push(s);
      else byName.set(s.name, [seen, s]);
    }
  }
  for (const [name, group] of byName) {
    for (const scope of SCOPES) {
      const inScope = group.filter((s) => s.scope === scope);
      if (inScope.length < 2) continue;
      for (const s of inScope) {
        const others = inScope.filter((o) => o !== s).map((o) => o.path);
        s.findings.push(diagnostic('SK019', `${scope} scope has ${inScope.length} skills named "${name}" (also ${others.join(', ')}); none is used by that name`, { file: s.path }));
        if (s.status === 'ok') dropContent(s, 'ambiguous');
      }
    }
    const top = SCOPES.find((scope) => group.some((s) => s.scope === scope))!;
    const winner = group.find((s) => s.scope === top)!;
    for (const s of group) {
      if (s.scope === top) continue;
      s.findings.push(
        diagnostic('SK018', `shadowed by ${top}/${name} (${winner.path}); use ${s.scope}/${name} to activate this one`, { file: s.path }),
      );
      if (s.status === 'ok') s.status = 'shadowed';
    }
  }
}
