// Schema-checked file data → the normalised Workflow of model.ts: aliases resolved (tumor/normal),
// memory parsed to MB (E004), rule-level threads/memory winning over resources.*, one environment
// backend picked (E023 when there are several), config declarations checked against their own type.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import {
  AI_COMMANDS,
  type AiTable,
  type ConfigDeclaration,
  type ConfigEntry,
  type ConfigValue,
  type Environment,
  type EnvironmentKind,
  type KeyPath,
  type Pair,
  type PathSet,
  type Rule,
  type Workflow,
} from '../model.js';
import type { KeyPositions } from '../positions/index.js';
import type { ConfigDeclarationFile, EnvironmentFile, RuleFile, WorkflowFile } from '../schema.js';
import { parseMemory } from './memory.js';
import { parseTimeLimit } from './time-limit.js';
import { describeValue } from './schema-issues.js';

/** Order used to pick a backend when several are given (E023 is reported either way). */
const ENVIRONMENT_KINDS: readonly EnvironmentKind[] = ['conda', 'mamba', 'pixi', 'docker', 'singularity', 'venv', 'modules'];

/**
 * Reads a sample sheet named in the workflow (relative to the project directory): its text, and
 * its path as the user sees it (so `file:line` of a bad row opens the sheet).
 */
export type ReadSheet = (relative: string) => { text: string; shown?: string } | { error: string; shown?: string };

interface Ctx {
  file: string;
  positions: KeyPositions;
  diagnostics: Diagnostic[];
}

function at(ctx: Ctx, p: KeyPath, rule?: string) {
  const pos = ctx.positions.locate(p);
  const where: { file: string; line?: number; column?: number; rule?: string } = { file: ctx.file };
  if (pos) {
    where.line = pos.line;
    where.column = pos.column;
  }
  if (rule !== undefined) where.rule = rule;
  return where;
}

function memory(ctx: Ctx, value: string | number | undefined, p: KeyPath, rule?: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseMemory(value);
  if (parsed.ok) return parsed.mb;
  ctx.diagnostics.push(diagnostic('E004', `${p.join('.').replace(/\.(\d+)\./g, '[$1].')}: ${parsed.message}`, at(ctx, p, rule)));
  return undefined;
}

function environment(ctx: Ctx, env: EnvironmentFile | undefined, p: KeyPath, rule?: string): Environment | undefined {
  if (!env) return undefined;
  const given = ENVIRONMENT_KINDS.filter((k) => env[k] !== undefined);
  if (given.length > 1) {
    ctx.diagnostics.push(
      diagnostic('E023', `${rule ? `rule "${rule}"` : '[defaults]'} has ${given.length} environment backends (${given.join(', ')}); a job runs in exactly one`, at(ctx, [...p, given[1]!], rule)),
    );
  }
  const kind = given[0];
  if (kind === undefined) return undefined;
  const raw = env[kind]!;
  const spec = kind === 'modules' && typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
  return { kind, spec };
}

function pathSet(value: RuleFile['input']): PathSet {
  if (value === undefined) return { paths: [], names: {} };
  if (Array.isArray(value)) return { paths: [...value], names: {} };
  const paths: string[] = [];
  const names: Record<string, number> = {};
  for (const [name, p] of Object.entries(value)) {
    names[name] = paths.length;
    paths.push(p);
  }
  return { paths, names };
}

function matchesType(value: ConfigValue, type: NonNullable<ConfigDeclarationFile['type']>): boolean {
  switch (type) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number';
    case 'bool':
      return typeof value === 'boolean';
    case 'string':
    case 'path':
      return typeof value === 'string';
  }
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** E043: a NUL or control character (tab and newline are fine) in a config value cannot reach a job. */
function checkControl(ctx: Ctx, key: string, value: unknown, p: KeyPath): void {
  const texts = Array.isArray(value) ? value.flat(8) : [value];
  if (!texts.some((t) => typeof t === 'string' && CONTROL.test(t))) return;
  ctx.diagnostics.push(diagnostic('E043', `config.${key} holds a NUL or control character`, { ...at(ctx, p), hint: 'a value may hold tabs and newlines, not NUL, escape or other control characters' }));
}

function configEntry(ctx: Ctx, key: string, raw: NonNullable<WorkflowFile['config']>[string]): ConfigEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    checkControl(ctx, key, raw, ['config', key]);
    return { key, value: raw as ConfigValue };
  }
  const decl = raw as ConfigDeclarationFile;
  const declaration: ConfigDeclaration = { required: decl.required ?? false, sensitive: decl.sensitive ?? false };
  if (decl.default !== undefined) declaration.default = decl.default;
  if (decl.help !== undefined) declaration.help = decl.help;
  if (decl.type !== undefined) declaration.type = decl.type;
  if (decl.choices !== undefined) declaration.choices = decl.choices;
  const p = ['config', key, 'default'];
  checkControl(ctx, key, decl.default, p);
  if (decl.default !== undefined && decl.type !== undefined && !matchesType(decl.default, decl.type)) {
    ctx.diagnostics.push(diagnostic('E024', `config.${key}: default must be of type ${decl.type}, got ${describeValue(decl.default)}`, at(ctx, p)));
  }
  if (decl.default !== undefined && decl.choices !== undefined && !decl.choices.some((c) => c === decl.default)) {
    ctx.diagnostics.push(
      diagnostic('E024', `config.${key}: default ${describeValue(decl.default)} is not one of the choices ${JSON.stringify(decl.choices)}`, at(ctx, p)),
    );
  }
  return { key, value: decl.default, declaration };
}

function pair(ctx: Ctx, raw: NonNullable<WorkflowFile['pairs']>[number], index: number): Pair {
  const both = (a: string | undefined, b: string | undefined, name: string, alias: string) => {
    if (a !== undefined && b !== undefined) {
      ctx.diagnostics.push(
        diagnostic('E024', `pairs[${index}] ("${raw.pair_id}") sets both ${name} and its alias ${alias}`, {
          ...at(ctx, ['pairs', index, alias]),
          hint: `keep only ${name}`,
        }),
      );
    }
    return a ?? b;
  };
  const experiment = both(raw.experiment, raw.tumor, 'experiment', 'tumor');
  const control = both(raw.control, raw.normal, 'control', 'normal');
  if (experiment === undefined) {
    ctx.diagnostics.push(
      diagnostic('E025', `pairs[${index}] ("${raw.pair_id}") is missing the required key "experiment" (alias "tumor")`, {
        ...at(ctx, ['pairs', index]),
        hint: 'add experiment = "SAMPLE"',
      }),
    );
  }
  const out: Pair = { pairId: raw.pair_id, experiment: experiment ?? '', metadata: { ...(raw.metadata ?? {}) } };
  if (control !== undefined) out.control = control;
  if (raw.experiment_type !== undefined) out.experimentType = raw.experiment_type;
  return out;
}

function rule(ctx: Ctx, raw: RuleFile, index: number): Rule {
  const name = raw.name;
  const base: KeyPath = ['rules', index];
  const resources = raw.resources ?? {};
  const resourcesMemory = memory(ctx, resources.memory, [...base, 'resources', 'memory'], name);
  const ruleMemory = memory(ctx, raw.memory, [...base, 'memory'], name);
  const output = pathSet(raw.output);
  const tempOutput = [...(raw.temp_output ?? [])];
  const protectedOutput = [...(raw.protected_output ?? [])];
  // A temp or protected output is an output of the rule, whether or not `output` repeats it.
  for (const p of [...tempOutput, ...protectedOutput]) if (!output.paths.includes(p)) output.paths.push(p);
  const out: Rule = {
    name,
    index,
    input: pathSet(raw.input),
    output,
    tempOutput,
    protectedOutput,
    resources: {},
    params: { ...(raw.params ?? {}) },
    dependsOn: [...(raw.depends_on ?? [])],
    retries: raw.retries ?? 0,
    priority: raw.priority ?? 0,
    ...(raw.version_command !== undefined ? { versionCommand: raw.version_command } : {}),
    tags: [...(raw.tags ?? [])],
    expandInputs: (raw.expand_inputs ?? []).map((e) => ({ pattern: e.pattern, variables: { ...(e.variables ?? {}) } })),
  };
  if (resources.threads !== undefined) out.resources.threads = resources.threads;
  if (resourcesMemory !== undefined) out.resources.memoryMb = resourcesMemory;
  if (resources.gpu !== undefined) out.resources.gpu = resources.gpu;
  if (resources.disk !== undefined) out.resources.disk = resources.disk;
  if (resources.memory_hard !== undefined) out.resources.memoryHard = resources.memory_hard;
  if (resources.time_limit !== undefined) {
    out.resources.timeLimit = resources.time_limit;
    const limit = parseTimeLimit(resources.time_limit);
    if (limit.ok) out.resources.timeLimitSeconds = limit.seconds;
    else ctx.diagnostics.push(diagnostic('E038', `rule "${name}" resources.time_limit: ${limit.message}`, at(ctx, [...base, 'resources', 'time_limit'], name)));
  }
  const threads = raw.threads ?? resources.threads;
  if (threads !== undefined) out.threads = threads;
  const memoryMb = raw.memory !== undefined ? ruleMemory : resourcesMemory;
  if (memoryMb !== undefined) out.memoryMb = memoryMb;
  const memoryText = raw.memory ?? resources.memory;
  if (memoryText !== undefined) out.memoryText = String(memoryText);
  if (raw.description !== undefined) out.description = raw.description;
  if (raw.shell !== undefined) out.shell = raw.shell;
  if (raw.script !== undefined) out.script = raw.script;
  if (raw.log !== undefined) out.log = raw.log;
  if (raw.when !== undefined) out.when = raw.when;
  const env = environment(ctx, raw.environment, [...base, 'environment'], name);
  if (env) out.environment = env;
  if (raw.scatter) {
    const s = raw.scatter;
    out.scatter = { variable: s.variable };
    if (s.values !== undefined) out.scatter.values = [...s.values];
    if (s.values_from !== undefined) out.scatter.valuesFrom = s.values_from;
    if (s.gather !== undefined) out.scatter.gather = s.gather;
  }
  if (raw.transform) {
    const t = raw.transform;
    const split: NonNullable<Rule['transform']>['split'] = { by: t.split.by };
    if (t.split.values !== undefined) split.values = [...t.split.values];
    if (t.split.values_from !== undefined) split.valuesFrom = t.split.values_from;
    out.transform = { split };
    if (t.map !== undefined) out.transform.map = t.map;
    if (t.combine !== undefined) out.transform.combine = { shell: t.combine.shell };
    if (t.cleanup !== undefined) out.transform.cleanup = t.cleanup;
  }
  return out;
}

function ai(raw: NonNullable<WorkflowFile['ai']>): AiTable {
  const out: AiTable = { skills: [...(raw.skills ?? [])], commands: {} };
  if (raw.enabled !== undefined) out.enabled = raw.enabled;
  if (raw.provider !== undefined) out.provider = raw.provider;
  if (raw.model !== undefined) out.model = raw.model;
  if (raw.max_rounds !== undefined) out.maxRounds = raw.max_rounds;
  const table = raw as Record<string, unknown>;
  for (const command of AI_COMMANDS) {
    const entry = table[command] as { skills: string[] } | undefined;
    if (entry) out.commands[command] = { skills: [...(entry.skills ?? [])] };
  }
  return out;
}

export function normaliseWorkflow(
  data: WorkflowFile,
  source: { file: string; dir?: string; pipelineDir?: string; text: string; positions: KeyPositions },
): { workflow: Workflow; diagnostics: Diagnostic[] } {
  const ctx: Ctx = { file: source.file, positions: source.positions, diagnostics: [] };
  const w = data.workflow;
  const meta: Workflow['meta'] = { name: w.name };
  if (w.version !== undefined) meta.version = w.version;
  if (w.description !== undefined) meta.description = w.description;
  if (w.author !== undefined) meta.author = w.author;
  if (w.format_version !== undefined) meta.formatVersion = w.format_version;
  if (w.sample_pattern !== undefined) meta.samplePattern = w.sample_pattern;
  if (w.sample_groups_file !== undefined) meta.sampleGroupsFile = w.sample_groups_file;
  if (w.pairs_file !== undefined) meta.pairsFile = w.pairs_file;
  if (w.samples_file !== undefined) meta.samplesFile = w.samples_file;

  const config = new Map<string, ConfigEntry>();
  for (const [key, raw] of Object.entries(data.config ?? {})) config.set(key, configEntry(ctx, key, raw));

  const d = data.defaults ?? {};
  const defaults: Workflow['defaults'] = {};
  if (d.threads !== undefined) defaults.threads = d.threads;
  const defaultMemory = memory(ctx, d.memory, ['defaults', 'memory']);
  if (defaultMemory !== undefined) defaults.memoryMb = defaultMemory;
  if (d.memory !== undefined) defaults.memoryText = String(d.memory);
  const defaultEnv = environment(ctx, d.environment, ['defaults', 'environment']);
  if (defaultEnv) defaults.environment = defaultEnv;

  const workflow: Workflow = {
    file: source.file,
    dir: source.dir ?? path.dirname(source.file),
    pipelineDir: source.pipelineDir ?? source.dir ?? path.dirname(source.file),
    source: source.text,
    meta,
    config,
    defaults,
    // Sheets are added once the config is known (sheets.ts): their paths may use {config.key}.
    sampleGroups: (data.sample_groups ?? []).map((g) => ({ name: g.name, samples: [...(g.samples ?? [])], metadata: { ...(g.metadata ?? {}) } })),
    pairs: (data.pairs ?? []).map((p, i) => pair(ctx, p, i)),
    rules: (data.rules ?? []).map((r, i) => rule(ctx, r, i)),
    positions: source.positions,
  };
  if (data.report) {
    const r = data.report;
    workflow.report = {};
    if (r.template !== undefined) workflow.report.template = r.template;
    // model.ts carries one format string; a list such as ["html", "json"] is kept comma-joined.
    if (r.format !== undefined) workflow.report.format = Array.isArray(r.format) ? r.format.join(',') : r.format;
    if (r.sections !== undefined) workflow.report.sections = [...r.sections];
    if (r.title !== undefined) workflow.report.title = r.title;
    if (r.output !== undefined) workflow.report.output = r.output;
  }
  if (data.ai) workflow.ai = ai(data.ai);
  return { workflow, diagnostics: ctx.diagnostics };
}
