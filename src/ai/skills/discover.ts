// Read-only skill discovery over the project, user and built-in scopes. Never fatal, never executes:
// every file found becomes a Skill with a status and its findings, and a problem with one file never
// affects another.
import { createHash } from 'node:crypto';
import { lstatSync, opendirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { manifestSha256, type PrebuiltScope } from './builtin-manifest.js';
import { parseMdSkill } from './parse-md-skill.js';
import { parseTomlSkill } from './parse-toml-skill.js';
import { singleLine } from './prompt-text.js';
import { decodeSkillText, isInside, lineColumnOfByte, readFileSafely, SKILL_FILE_CAP } from './safe-read.js';
import type { Discovery, ParsedSkill, Skill, SkillFormat, SkillScope } from './types.js';

/**
 * The bytes each skill was read from. Their sha256 is computed only when asked for (session records,
 * JSON listings): loading node:crypto takes longer than reading 500 skills, and in the bundle it
 * loads on first use (scripts/bundle.mjs).
 */
const readBytes = new WeakMap<Skill, Buffer>();

/** sha256 (hex) of the bytes a skill was read from; undefined for a skill whose file was not read. */
export function skillSha256(skill: Skill): string | undefined {
  const bytes = readBytes.get(skill);
  if (bytes === undefined) return manifestSha256(skill);
  return createHash('sha256').update(bytes).digest('hex');
}

export const MAX_SKILLS = 500;
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024;
export const MAX_DIR_ENTRIES = 2000;
export const SCOPES: readonly SkillScope[] = ['project', 'user', 'builtin'];

export interface DiscoveryContext {
  /** The project directory; its skills live in `<projectDir>/.oxo-flow/skills/`. */
  projectDir: string;
  /** The OXO_FLOW_HOME value (default ~/.oxo-flow); user skills live in `<homeDir>/skills/`. */
  homeDir: string;
  /** The built-in library (skills-builtin/ of the package). */
  builtinDir: string;
  /** More project-scope skill directories (ai.toml `skill_paths`), absolute or relative to projectDir. */
  extraPaths?: string[];
  /** The built-in scope as prepared at build time (builtin-manifest.ts), used instead of reading its files. */
  prebuiltBuiltins?: PrebuiltScope;
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

interface Budget {
  count: number;
  bytes: number;
}

export function skillRoots(ctx: DiscoveryContext): { scope: SkillScope; dir: string }[] {
  const project = path.resolve(ctx.projectDir);
  return [
    { scope: 'project', dir: path.join(project, '.oxo-flow', 'skills') },
    ...(ctx.extraPaths ?? []).map((p) => ({ scope: 'project' as const, dir: path.resolve(project, p) })),
    { scope: 'user', dir: path.join(path.resolve(ctx.homeDir), 'skills') },
    { scope: 'builtin', dir: path.resolve(ctx.builtinDir) },
  ];
}

export function discoverSkills(ctx: DiscoveryContext): Discovery {
  return discoverInRoots(skillRoots(ctx), ctx.prebuiltBuiltins);
}

/** Discovery over explicit roots, in precedence order (used by `ai skills validate PATH`). */
export function discoverInRoots(rootList: readonly { scope: SkillScope; dir: string }[], prebuilt?: PrebuiltScope): Discovery {
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  const roots: Discovery['roots'] = [];
  const budget: Budget = { count: 0, bytes: 0 };
  const seenRoots = new Set<string>();
  for (const { scope, dir } of rootList) {
    let rootReal: string;
    try {
      rootReal = realpathSync(dir);
      if (!statSync(rootReal).isDirectory()) {
        diagnostics.push(diagnostic('SK023', `skills path ${dir} is not a directory`, { file: dir }));
        roots.push({ scope, dir, exists: false });
        continue;
      }
    } catch {
      roots.push({ scope, dir, exists: false });
      continue;
    }
    roots.push({ scope, dir, exists: true });
    if (seenRoots.has(rootReal)) continue; // the same directory listed twice is scanned once
    seenRoots.add(rootReal);
    if (scope === 'builtin' && prebuilt?.dirReal === rootReal) {
      skills.push(...prebuilt.skills()); // the built-in library, prepared at build time
      continue;
    }
    for (const candidate of listCandidates(rootReal, diagnostics)) {
      const skill = loadCandidate(candidate, scope, rootReal, budget);
      if (skill) skills.push(skill);
      else if (exists(path.join(candidate.dir, 'skill.md')))
        diagnostics.push(diagnostic('SK024', `${path.join(candidate.name, 'skill.md')} is not read: the file must be named SKILL.md`, { file: path.join(candidate.dir, 'skill.md') }));
    }
  }
  markRelations(skills);
  return { skills, diagnostics, roots };
}

/** Skill files directly in the root and `<name>/SKILL.md` one level down; bounded, dot-entries skipped. */
function listCandidates(rootReal: string, diagnostics: Diagnostic[]): Candidate[] {
  const entries: Dirent[] = [];
  let dir;
  try {
    dir = opendirSync(rootReal);
  } catch (err) {
    diagnostics.push(diagnostic('SK023', `cannot read skills directory ${rootReal}: ${(err as Error).message}`, { file: rootReal }));
    return [];
  }
  try {
    let entry: Dirent | null;
    while ((entry = dir.readSync()) !== null) {
      if (entries.length >= MAX_DIR_ENTRIES) {
        diagnostics.push(diagnostic('SK021', `skills directory ${rootReal} has more than ${MAX_DIR_ENTRIES} entries; only the first ${MAX_DIR_ENTRIES} read were scanned`, { file: rootReal }));
        break;
      }
      entries.push(entry);
    }
  } finally {
    dir.closeSync();
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
        real = realpathSync(full);
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
  return out;
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

/** The skill for one candidate, or undefined when a directory turns out to hold no SKILL.md. */
function loadCandidate(c: Candidate, scope: SkillScope, rootReal: string, budget: Budget): Skill | undefined {
  const skill: Skill = { name: c.name, scope, format: c.format, status: 'ok', findings: [], path: c.path, dir: c.dir, domains: [] };
  if (c.format === 'md') skill.type = 'knowledge';
  if (c.refused) return invalid(skill, c.refused);
  if (budget.count >= MAX_SKILLS) {
    if (c.format === 'md' && !exists(c.path)) return undefined;
    skill.status = 'excluded';
    skill.findings.push(diagnostic('SK020', `not read: this discovery already holds ${MAX_SKILLS} skills`, { file: c.path }));
    return skill;
  }
  budget.count += 1;
  const read = readFileSafely(c.path, rootReal, SKILL_FILE_CAP, c.parentIsLink ? { parentIsLink: true } : {});
  if (!read.ok) {
    switch (read.reason) {
      case 'missing':
        budget.count -= 1;
        return undefined;
      case 'oversize':
        skill.status = 'oversize';
        if (read.size !== undefined) skill.sizeBytes = read.size;
        skill.findings.push(diagnostic('SK011', `skill file is ${read.detail}, over the 64 KiB limit; it is listed without content`, { file: c.path }));
        return skill;
      case 'escapes-root':
        return invalid(skill, diagnostic('SK013', `skill file ${read.detail}; it is not read`, { file: c.path }));
      case 'not-regular':
        return invalid(skill, diagnostic('SK012', `skill path is ${read.detail}; only regular files are read`, { file: c.path }));
      default:
        return invalid(skill, diagnostic('SK015', `cannot read skill file: ${read.detail}`, { file: c.path }));
    }
  }
  skill.sizeBytes = read.size;
  if (budget.bytes + read.size > MAX_TOTAL_BYTES) {
    skill.status = 'excluded';
    skill.findings.push(diagnostic('SK020', `not loaded: skill content in this discovery would pass 2 MiB`, { file: c.path }));
    return skill;
  }
  budget.bytes += read.size;
  readBytes.set(skill, read.bytes);
  const decoded = decodeSkillText(read.bytes);
  if (!decoded.ok) {
    const at = lineColumnOfByte(read.bytes, decoded.offset);
    return invalid(skill, diagnostic('SK014', `invalid UTF-8 at byte ${decoded.offset}`, { file: c.path, ...at }));
  }
  const parsed = c.format === 'toml' ? parseTomlSkill(decoded.text, c.path, c.name) : parseMdSkill(decoded.text, c.path, c.name);
  applyParsed(skill, parsed);
  return skill;
}

function applyParsed(skill: Skill, parsed: ParsedSkill): void {
  const { findings, description, ...rest } = parsed;
  Object.assign(skill, rest);
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
  const byName = new Map<string, Skill[]>();
  for (const s of skills) {
    const list = byName.get(s.name);
    if (list) list.push(s);
    else byName.set(s.name, [s]);
  }
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
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
