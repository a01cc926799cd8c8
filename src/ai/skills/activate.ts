// Explicit activation: only names listed in an [ai] table or given with --skill become active.
// Every listed name that cannot be activated gives exactly one warning with what to do.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { nearestName } from '../../diagnostics/nearest-name.js';
import { loadSkillBody, SCOPES } from './discover.js';
import type { Discovery, Skill, SkillScope } from './types.js';

/** An `[ai]` table's activation lists: `skills` and `[ai.<command>] skills`. */
export interface SkillLists {
  skills: string[];
  commands?: Record<string, { skills: string[] }>;
}

export interface ActivationRequest {
  /** `<project>/.oxo-flow/ai.toml` `[ai]` (and its file, for messages). */
  project?: SkillLists & { file?: string };
  /** The workflow's `[ai]` table. */
  workflow?: SkillLists & { file?: string };
  /** `--skill NAME` flags, in order. */
  flags?: string[];
  /** The AI command being run (template, validate, lint, dry-run): selects `[ai.<command>]` lists. */
  command?: string;
}

/** Where one listed name came from: 'ai.toml', 'ai.toml [ai.lint]', 'workflow', 'workflow [ai.lint]', '--skill'. */
export interface ActivationSource {
  name: string;
  from: string;
  file?: string;
  /** The skill it resolved to (`scope/name`), when it was activated. */
  activated?: string;
}

export interface Activation {
  /** In activation order (first listing wins), without repeats. */
  active: Skill[];
  warnings: Diagnostic[];
  sources: ActivationSource[];
}

export type Lookup =
  | { found: true; skill: Skill }
  | { found: false; reason: 'not-found' | 'ambiguous' | 'unusable' | 'bad-form'; message: string; hint: string; skill?: Skill };

/** Resolve a bare name by precedence, or a qualified alias `project/NAME`, `user/NAME`, `builtin/NAME`. */
export function lookupSkill(discovery: Discovery, requested: string): Lookup {
  const slash = requested.indexOf('/');
  let scope: SkillScope | undefined;
  let name = requested;
  if (slash !== -1) {
    const prefix = requested.slice(0, slash);
    if (!(SCOPES as readonly string[]).includes(prefix) || requested.indexOf('/', slash + 1) !== -1)
      return { found: false, reason: 'bad-form', message: `"${requested}" is neither a skill name nor a qualified alias`, hint: 'use NAME or project/NAME, user/NAME, builtin/NAME' };
    scope = prefix as SkillScope;
    name = requested.slice(slash + 1);
  }
  const all = discovery.skills.filter((s) => s.name === name);
  if (all.length === 0) return notFound(discovery, requested, name, scope);
  const chosenScope = scope ?? SCOPES.find((sc) => all.some((s) => s.scope === sc))!;
  const inScope = all.filter((s) => s.scope === chosenScope);
  if (inScope.length === 0) return notFound(discovery, requested, name, scope);
  if (inScope.length > 1) {
    const others = all.filter((s) => s.scope !== chosenScope && s.status === 'shadowed').map((s) => `${s.scope}/${s.name}`);
    return {
      found: false,
      reason: 'ambiguous',
      message: `"${requested}" is ambiguous: ${inScope.map((s) => s.path).join(' and ')} both define it in the ${chosenScope} scope`,
      hint: `keep one of the files${others.length > 0 ? `, or activate ${others.join(' or ')}` : ''}`,
    };
  }
  const skill = inScope[0]!;
  // A found skill's body is read now (discovery read only its front matter); a body that cannot be used makes it unusable.
  if ((skill.status === 'ok' || skill.status === 'shadowed') && loadSkillBody(skill)) return { found: true, skill };
  const why = skill.findings.find((f) => f.severity === 'error' || f.code === 'SK020') ?? skill.findings[0];
  const others = all.filter((s) => s !== skill && (s.status === 'ok' || s.status === 'shadowed')).map((s) => `${s.scope}/${s.name}`);
  return {
    found: false,
    reason: 'unusable',
    skill,
    message: `"${requested}" is ${skill.status} (${skill.path})${why ? `: ${why.message}` : ''}`,
    hint: others.length > 0 ? `fix it, or activate ${others.join(' or ')} instead` : 'fix it; `oxo-flow ai skills validate` shows every finding',
  };
}

function notFound(discovery: Discovery, requested: string, name: string, scope: SkillScope | undefined): Lookup {
  const pool = discovery.skills.filter((s) => scope === undefined || s.scope === scope).map((s) => s.name);
  // A community skill is often named differently from its folder (`alignment-sorting/` holds `bio-alignment-sorting`).
  const inFolder = discovery.skills.find((s) => s.folderName === name && (scope === undefined || s.scope === scope));
  const near = nearestName(name, new Set(pool));
  const elsewhere = scope ? discovery.skills.filter((s) => s.name === name).map((s) => `${s.scope}/${s.name}`) : [];
  const suggestion = inFolder
    ? `the skill in folder ${name} is named "${inFolder.name}"; list it by that name`
    : near
      ? `did you mean "${scope ? `${scope}/` : ''}${near}"?`
      : elsewhere.length > 0
        ? `it exists as ${elsewhere.join(', ')}`
        : '';
  return {
    found: false,
    reason: 'not-found',
    message: `skill "${requested}" was not found${suggestion ? `; ${suggestion}` : ''}`,
    hint: 'run `oxo-flow ai skills list` to see the discovered skills',
  };
}

/** The listed names in activation order: ai.toml, workflow, then --skill; command-specific lists follow their table's. */
export function requestedNames(request: ActivationRequest): ActivationSource[] {
  const out: ActivationSource[] = [];
  const add = (lists: (SkillLists & { file?: string }) | undefined, label: string) => {
    if (!lists) return;
    for (const name of lists.skills) out.push(withFile({ name, from: label }, lists.file));
    const cmd = request.command ? lists.commands?.[request.command] : undefined;
    if (cmd) for (const name of cmd.skills) out.push(withFile({ name, from: `${label} [ai.${request.command}]` }, lists.file));
  };
  add(request.project, 'ai.toml');
  add(request.workflow, 'workflow');
  for (const name of request.flags ?? []) out.push({ name, from: '--skill' });
  return out;
}

function withFile(source: ActivationSource, file: string | undefined): ActivationSource {
  if (file !== undefined) source.file = file;
  return source;
}

export function activateSkills(discovery: Discovery, request: ActivationRequest): Activation {
  const active: Skill[] = [];
  const warnings: Diagnostic[] = [];
  const sources = requestedNames(request);
  const warned = new Set<string>();
  for (const source of sources) {
    const result = lookupSkill(discovery, source.name);
    if (result.found) {
      source.activated = `${result.skill.scope}/${result.skill.name}`;
      if (!active.includes(result.skill)) active.push(result.skill);
      continue;
    }
    if (warned.has(source.name)) continue; // one warning per listed name
    warned.add(source.name);
    const code = result.reason === 'not-found' ? 'SK030' : result.reason === 'ambiguous' ? 'SK032' : result.reason === 'bad-form' ? 'SK033' : 'SK031';
    warnings.push(diagnostic(code, `${result.message} (listed in ${source.from}); it is not activated`, { ...(source.file ? { file: source.file } : {}), hint: result.hint }));
  }
  return { active, warnings, sources };
}
