// `oxo-flow ai skills list | show | validate | new`: read-only views of skill discovery, plus a scaffold.
import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compareText, diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { resolveProjectDir } from '../../ai/project.js';
import {
  discoverInRoots,
  loadSkillBody,
  loadSkillContext,
  lookupSkill,
  nameProblem,
  skillAlias,
  skillPromptBlock,
  skillSha256,
  type Skill,
  type SkillScope,
} from '../../ai/skills/index.js';
import type { CliContext } from '../context.js';
import { outcomeOf, type CommandResult } from '../result.js';
import type { Style } from '../style.js';
import { headerSecrets, maskUrl, urlSecrets } from '../../ai/secrets.js';
import { terminalSafeLine as safe } from '../terminal-safe.js';

interface ProjectOpts {
  project?: string;
}

/** One skill in --json output: every field a script needs, findings included. */
export function skillJson(skill: Skill, active: boolean): Record<string, unknown> {
  return {
    name: skill.name,
    alias: skillAlias(skill),
    scope: skill.scope,
    format: skill.format,
    type: skill.type ?? null,
    status: skill.status,
    active,
    description: skill.description ?? null,
    version: skill.version ?? null,
    domains: skill.domains,
    path: skill.path,
    dir: skill.dir,
    size_bytes: skill.sizeBytes ?? null,
    ...(skill.folderName !== undefined ? { folder_name: skill.folderName } : {}),
    // Known once the whole file was read (TOML skills; SKILL.md skills that were activated, shown or validated).
    sha256: skillSha256(skill) ?? null,
    ...(skill.mcp ? { mcp: { url: maskUrl(skill.mcp.url), header_names: Object.keys(skill.mcp.headers), trust_annotations: skill.mcp.trustAnnotations } } : {}),
    findings: skill.findings,
  };
}

/** The credentials a tool skill carries (header values, URL password and key-like query values) become secrets of this run. */
export function noteSkillSecrets(skills: readonly Skill[], ctx: CliContext): void {
  for (const s of skills) {
    if (!s.mcp) continue;
    for (const v of [...headerSecrets(s.mcp.headers, ctx.env), ...urlSecrets(s.mcp.url)]) ctx.secrets.add(v);
  }
}

const STATUS_ORDER: Record<string, number> = { project: 0, user: 1, builtin: 2 };

/** The human table: name, scope, format, type, status, active, description; a reason line under each non-ok skill. */
export function renderSkillTable(skills: readonly Skill[], activeSet: ReadonlySet<Skill>, style: Style, indent = '  '): string {
  if (skills.length === 0) return `${indent}(none)`;
  const sorted = [...skills].sort((a, b) => STATUS_ORDER[a.scope]! - STATUS_ORDER[b.scope]! || compareText(a.name, b.name) || compareText(a.format, b.format));
  const n = sorted.length;
  // `ai status` renders thousands of rows in a short run, mostly before the JIT has warmed up, so
  // the work per row is kept small: the name is the only free-text column, and the other five take
  // a handful of values each, padded (and coloured) once per value rather than once per row.
  const names = new Array<string>(n);
  const values = new Array<string[]>(n);
  const widths = [4, 5, 6, 4, 6, 6]; // the header's lengths: NAME SCOPE FORMAT TYPE STATUS ACTIVE
  for (let i = 0; i < n; i++) {
    const s = sorted[i]!;
    const name = safe(s.name);
    names[i] = name;
    if (name.length > widths[0]!) widths[0] = name.length;
    const row = [s.scope, s.format === 'md' ? 'SKILL.md' : 'toml', s.type ?? '-', s.status, activeSet.has(s) ? 'yes' : 'no'];
    values[i] = row;
    for (let j = 0; j < 5; j++) if (row[j]!.length > widths[j + 1]!) widths[j + 1] = row[j]!.length;
  }
  const header = ['NAME', 'SCOPE', 'FORMAT', 'TYPE', 'STATUS', 'ACTIVE'];
  const out = [`${indent}${style.dim(`${header.map((h, i) => h.padEnd(widths[i]!)).join('  ')}  DESCRIPTION`)}`];
  const cells = [new Map<string, string>(), new Map<string, string>(), new Map<string, string>(), new Map<string, string>(), new Map<string, string>()];
  const cell = (j: number, value: string): string => {
    let c = cells[j]!.get(value);
    if (c === undefined) {
      c = value.padEnd(widths[j + 1]!);
      if (j === 3) c = value === 'ok' ? style.green(c) : value === 'shadowed' ? style.dim(c) : style.yellow(c);
      else if (j === 4 && value === 'yes') c = style.bold(c);
      cells[j]!.set(value, c);
    }
    return c;
  };
  for (let i = 0; i < n; i++) {
    const s = sorted[i]!;
    const row = values[i]!;
    const line = `${indent}${names[i]!.padEnd(widths[0]!)}  ${cell(0, row[0]!)}  ${cell(1, row[1]!)}  ${cell(2, row[2]!)}  ${cell(3, row[3]!)}  ${cell(4, row[4]!)}`;
    const description = s.description ? safe(truncate(s.description, 70)) : '';
    out.push(`${line}  ${description}`.trimEnd());
    if (s.status === 'ok') continue;
    const reason = s.findings.find((f) => f.severity === 'error') ?? s.findings.find((f) => f.code === 'SK018' || f.code === 'SK019' || f.code === 'SK020') ?? s.findings[0];
    if (reason) out.push(`${indent}  ${style.dim('└')} ${reason.code}: ${safe(reason.message)}${reason.line ? ` (${safe(path.basename(s.path))}:${reason.line})` : ''}`);
  }
  return out.join('\n');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A built-in skill's domain: `metadata.domain` (Agent Skills form), else its first `domains` entry. */
function builtinDomain(skill: Skill): string {
  return skill.metadata?.domain ?? skill.domains[0] ?? '(no domain)';
}

/** `ai skills list --builtin`: the built-in library grouped by domain; a shadowed one names what shadows it. */
function builtinListing(skills: readonly Skill[], activeSet: ReadonlySet<Skill>): CommandResult {
  const builtins = skills.filter((s) => s.scope === 'builtin');
  const shadowedBy = (s: Skill) => (s.status === 'shadowed' ? skills.find((o) => o.name === s.name && o.scope !== 'builtin' && o.status !== 'shadowed') : undefined);
  const groups = new Map<string, Skill[]>();
  for (const s of [...builtins].sort((a, b) => compareText(a.name, b.name))) groups.set(builtinDomain(s), [...(groups.get(builtinDomain(s)) ?? []), s]);
  const domains = [...groups.keys()].sort(compareText);
  return {
    outcome: 'ok',
    json: () => ({
      count: builtins.length,
      domains: domains.map((d) => ({
        domain: d,
        skills: groups.get(d)!.map((s) => {
          const by = shadowedBy(s);
          return { ...skillJson(s, activeSet.has(s)), primary_tool: s.metadata?.primary_tool ?? s.primaryTool ?? null, tool_type: s.metadata?.tool_type ?? null, shadowed_by: by ? skillAlias(by) : null };
        }),
      })),
    }),
    human: (style) => {
      const width = Math.max(0, ...builtins.map((s) => s.name.length));
      const lines = [style.bold(`Built-in skills: ${builtins.length} in ${domains.length} domains`)];
      for (const d of domains) {
        lines.push(`  ${style.bold(d)} (${groups.get(d)!.length})`);
        for (const s of groups.get(d)!) {
          const by = shadowedBy(s);
          const note = by ? style.yellow(` [shadowed by ${skillAlias(by)}; use builtin/${s.name}]`) : s.status !== 'ok' ? style.yellow(` [${s.status}]`) : '';
          const tool = s.metadata?.primary_tool ?? s.primaryTool;
          lines.push(`    ${s.name.padEnd(width)}  ${style.dim(tool ? `${tool}: ` : '')}${truncate(s.description ?? '', 80)}${note}`);
        }
      }
      lines.push('', 'Show one with `oxo-flow ai skills show builtin/NAME`; search with `oxo-flow ai lookup skill "QUERY"`.');
      return lines.join('\n');
    },
  };
}

export async function skillsList(opts: ProjectOpts & { all?: boolean; builtin?: boolean }, ctx: CliContext): Promise<CommandResult> {
  const sc = await loadSkillContext({ cwd: ctx.cwd, env: ctx.env, ...(opts.project ? { project: opts.project } : {}) });
  noteSkillSecrets(sc.discovery.skills, ctx);
  const activeSet = new Set(sc.activation.active);
  if (opts.builtin) return { ...builtinListing(sc.discovery.skills, activeSet), diagnostics: sc.diagnostics };
  const skills = sc.discovery.skills;
  const shown = opts.all ? skills : skills.filter((s) => s.scope !== 'builtin');
  const builtins = skills.filter((s) => s.scope === 'builtin');
  return {
    // Broken skills are listed, not failures; only an unreadable ai.toml (a usage error) changes the exit code.
    outcome: outcomeOf(sc.diagnostics) === 'usage' ? 'usage' : 'ok',
    json: () => ({ project_dir: sc.projectDir, skills: skills.map((s) => skillJson(s, activeSet.has(s))) }),
    diagnostics: sc.diagnostics,
    human: (style) => {
      const lines = [style.bold('Skills'), renderSkillTable(shown, activeSet, style)];
      if (!opts.all && builtins.length > 0)
        lines.push(`  + ${builtins.length} built-in skills (${builtins.filter((s) => s.status === 'ok').length} ok); list them with --all`);
      return lines.join('\n');
    },
  };
}

export async function skillsShow(opts: ProjectOpts & { name: string }, ctx: CliContext): Promise<CommandResult> {
  const sc = await loadSkillContext({ cwd: ctx.cwd, env: ctx.env, ...(opts.project ? { project: opts.project } : {}) });
  noteSkillSecrets(sc.discovery.skills, ctx);
  const found = lookupSkill(sc.discovery, opts.name);
  if (!found.found) {
    const code = found.reason === 'not-found' ? 'SK030' : found.reason === 'ambiguous' ? 'SK032' : found.reason === 'bad-form' ? 'SK033' : 'SK031';
    const where = found.skill ? { file: found.skill.path } : {};
    return {
      outcome: 'failed',
      json: { name: opts.name, block: null, ...(found.skill ? { skill: skillJson(found.skill, false) } : {}) },
      diagnostics: [diagnostic(code, found.message, { ...where, hint: found.hint, severity: 'error' }), ...(found.skill?.findings ?? [])],
    };
  }
  const skill = found.skill; // lookupSkill has read its body
  const block = skillPromptBlock(skill);
  return {
    outcome: 'ok',
    json: { name: opts.name, skill: skillJson(skill, false), block },
    human: (style) =>
      block === ''
        ? `${safe(skillAlias(skill))} is a tool skill: it adds no prompt text; its tools come from ${skill.mcp ? safe(maskUrl(skill.mcp.url)) : 'its MCP server'}`
        : style.dim(`(${safe(skillAlias(skill))}, ${safe(skill.path)}: stdout holds exactly the block that activation injects)`),
    stdout: block,
  };
}

/** Roots and the file filter for `validate PATH`: a skill file, a skill directory, or a skills directory. */
function validationTarget(given: string): { roots: { scope: SkillScope; dir: string }[]; only?: string } | undefined {
  let st;
  let target: string;
  try {
    target = realpathSync(given);
    st = statSync(target);
  } catch {
    return undefined;
  }
  if (st.isFile()) {
    const base = path.basename(target);
    if (base === 'SKILL.md') return { roots: [{ scope: 'project', dir: path.dirname(path.dirname(target)) }], only: path.dirname(target) };
    if (base.endsWith('.skill.toml')) return { roots: [{ scope: 'project', dir: path.dirname(target) }], only: target };
    return undefined;
  }
  if (existsSync(path.join(target, 'SKILL.md'))) return { roots: [{ scope: 'project', dir: path.dirname(target) }], only: target };
  return { roots: [{ scope: 'project', dir: target }] };
}

export async function skillsValidate(opts: ProjectOpts & { path?: string; strict?: boolean }, ctx: CliContext): Promise<CommandResult> {
  let skills: Skill[];
  const diagnostics: Diagnostic[] = [];
  if (opts.path !== undefined) {
    const full = path.resolve(ctx.cwd, opts.path);
    const target = validationTarget(full);
    if (!target)
      return {
        outcome: 'usage',
        json: { path: full, skills: [] },
        diagnostics: [diagnostic('SK050', `${opts.path} is not a skill file (*.skill.toml, SKILL.md), a skill directory or a skills directory`, { file: opts.path })],
      };
    const discovery = discoverInRoots(target.roots);
    noteSkillSecrets(discovery.skills, ctx);
    diagnostics.push(...discovery.diagnostics);
    skills = discovery.skills.filter((s) => !target.only || s.path === target.only || s.dir === target.only);
  } else {
    const sc = await loadSkillContext({ cwd: ctx.cwd, env: ctx.env, ...(opts.project ? { project: opts.project } : {}) });
  noteSkillSecrets(sc.discovery.skills, ctx);
    diagnostics.push(...sc.diagnostics);
    skills = sc.discovery.skills.filter((s) => s.scope !== 'builtin');
  }
  // Validation reads each usable skill's body too (discovery reads only front matter).
  for (const s of skills) loadSkillBody(s);
  for (const s of skills) diagnostics.push(...s.findings.filter((f) => f.code !== 'SK018'));
  const bad = skills.filter((s) => s.status !== 'ok' && s.status !== 'shadowed');
  const counts: Record<string, number> = {};
  for (const s of skills) counts[s.status] = (counts[s.status] ?? 0) + 1;
  const strict = Boolean(opts.strict);
  const failed = bad.length > 0 || diagnostics.some((d) => d.severity === 'error' || (strict && d.severity === 'warning'));
  return {
    outcome: failed ? 'failed' : 'ok',
    json: () => ({ strict, skills: skills.map((s) => skillJson(s, false)), statuses: counts }),
    diagnostics,
    human: () => {
      const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
      const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
      const why = strict && bad.length === 0 && warnings > 0 ? ` (--strict fails on ${warnings} warning${warnings === 1 ? '' : 's'})` : '';
      return skills.length === 0 ? 'no skills found' : `${skills.length} skill${skills.length === 1 ? '' : 's'} checked: ${summary}${why}`;
    },
  };
}

export async function skillsNew(opts: ProjectOpts & { name: string; format?: string; force?: boolean }, ctx: CliContext): Promise<CommandResult> {
  const name = opts.name;
  const problem = nameProblem(name);
  if (problem) return { outcome: 'usage', json: { name }, diagnostics: [diagnostic('SK001', `skill name "${name}" ${problem}`)] };
  const format = opts.format === 'md' ? 'md' : 'toml';
  const projectDir = resolveProjectDir({ cwd: ctx.cwd, ...(opts.project ? { project: opts.project } : {}) });
  const skillsDir = path.join(projectDir, '.oxo-flow', 'skills');
  const file = format === 'toml' ? path.join(skillsDir, `${name}.skill.toml`) : path.join(skillsDir, name, 'SKILL.md');
  const other = format === 'toml' ? path.join(skillsDir, name, 'SKILL.md') : path.join(skillsDir, `${name}.skill.toml`);
  const shown = path.relative(ctx.cwd, file) || file;
  if (existsSync(file) && !opts.force)
    return { outcome: 'failed', json: { name, path: file }, diagnostics: [diagnostic('CLI004', `${shown} already exists; it was not changed`, { file })] };
  const diagnostics: Diagnostic[] = [];
  if (existsSync(other))
    diagnostics.push(diagnostic('SK019', `${path.relative(ctx.cwd, other) || other} also defines "${name}": the two will be ambiguous until one is removed`, { file: other }));
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, format === 'toml' ? tomlScaffold(name) : mdScaffold(name), { encoding: 'utf8' });
  } catch (err) {
    return { outcome: 'failed', json: { name, path: file }, diagnostics: [diagnostic('CLI005', `cannot write ${shown}: ${(err as Error).message}`, { file })] };
  }
  return {
    outcome: 'ok',
    json: { name, format, path: file },
    diagnostics,
    human: () =>
      [`created ${shown}`, `activate it with \`skills = ["${name}"]\` under [ai] in .oxo-flow/ai.toml or the workflow, or with --skill ${name}`].join('\n'),
  };
}

function tomlScaffold(name: string): string {
  return `# A knowledge skill: its prompt_additions are added to the AI's system prompt only when the skill
# is activated by name ([ai] skills = ["${name}"] or --skill ${name}). Nothing in this file is executed.
name = "${name}"
version = "0.1.0"
description = "What this skill knows and when to use it (one or two sentences)"
skill_type = "knowledge"
domains = []
prompt_additions = [
  "State one concrete rule the AI should follow, e.g. a threshold, a tool choice or a check.",
]
`;
}

function mdScaffold(name: string): string {
  return `---
name: ${name}
description: What this skill knows and when to use it (one or two sentences).
version: 0.1.0
---
# ${name}

Write the guidance the AI should follow when this skill is activated: concrete rules, thresholds,
tool choices and the checks to make. Keep it short; nothing in this file is executed.
`;
}
