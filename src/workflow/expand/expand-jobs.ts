// Rules → jobs. Each rule's templates are compiled once, then rendered for every value combination
// of its fan-outs (pairs × samples × scatter, then transform split). Gather and expand_inputs add
// fan-in inputs; a job's command is rendered when first read, by then its inputs are final.
// Loops that run once per job are indexed: this code mostly runs before V8 optimises it, and there a
// for-of or a generator allocates an iterator result for every element, which a large plan pays in GC.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ConfigValue, Rule, Workflow } from '../model.js';
import { compileTemplate, renderTemplate, type RenderValues, type Template } from '../render/template.js';
import { analyseShell, type ShellAnalysis } from '../render/shell-contexts.js';
import { compileParams, renderParams, type CompiledParams } from '../render/params.js';
import { renderScript, type RenderedScript } from '../render/script.js';
import { scriptEnv, scriptJson, type ScriptJob } from '../render/script-job.js';
import { parseMemory } from '../load/memory.js';
import { shellQuote } from '../render/shell-quote.js';
import { listValues, locate, mentionedNames, ruleDimensions, unusableValues, type Dimension, type Option } from './dimensions.js';
import type { SampleSource } from './sources.js';

export interface ExpandedJob {
  /** `rule[k=v,…]` with wildcard keys sorted; `rule.combine[…]` for a transform's combine step. */
  readonly id: string;
  readonly rule: Rule;
  readonly step?: 'map' | 'combine';
  /** The wildcard values that name this job. */
  readonly wildcards: Record<string, string>;
  inputs: string[];
  readonly inputNames: Record<string, number>;
  outputs: string[];
  readonly outputNames: Record<string, number>;
  /** Rendered `temp_output` / `protected_output` paths: subsets of `outputs`. */
  tempOutputs: string[];
  protectedOutputs: string[];
  log?: string;
  /**
   * The exact script the job runs, worked out on first read (see Job). It holds no value: each
   * placeholder is a reference to a variable of `env` (see render/script.ts).
   */
  readonly command: string;
  /** The values the script gets, by variable name; `sensitive = true` values in clear: never show it. */
  readonly env: Readonly<Record<string, string>>;
  /** `env` as displays see it: sensitive values read `***`. */
  readonly shownEnv: Readonly<Record<string, string>>;
  /** The command as a person reads it, values written in; sensitive config values read `***`. */
  readonly shownCommand: string;
  /** command, env, shownCommand and shownEnv at once (one render), not kept: see JobSpec.commandForms. */
  commandForms(): CommandForms;
  /**
   * The values the job gets with the rule's declared threads and memory, whatever a run capped or set
   * them to: what the run state compares, so a smaller machine or --set-threads is no reason to rerun.
   */
  readonly stateEnv: Readonly<Record<string, string>>;
  /**
   * A script rule's job as one JSON document (sensitive config values read `***`), which the run
   * writes next to the job's log and names in OXO_JOB_JSON; undefined for other rules.
   */
  readonly jobJson?: string;
  /** False for transform map jobs when a combine step delivers the rule's outputs. */
  readonly final: boolean;
  /** Every value the job's templates may use (wildcards, metadata, `{chunks}`). */
  readonly values: Record<string, string>;
}

/** A job's command as it runs and as every display shows it (the fields of JobSpec of the same names). */
export interface CommandForms {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
  readonly shownCommand: string;
  readonly shownEnv: Readonly<Record<string, string>>;
}

/**
 * A job's value of a name, or undefined: values are own strings, so `{constructor}` or `{toString}` is
 * a name nothing fills (E021 in a path), never a function of Object.prototype written into a path.
 */
function ownValue(values: Readonly<Record<string, string>>, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** Most rules mark no temp or protected outputs: their jobs share this empty list (never mutated). */
const NONE: string[] = [];
Object.freeze(NONE);

export interface ExpandSettings {
  samples: SampleSource;
  config: ReadonlyMap<string, ConfigValue>;
  standIns?: boolean;
}

export interface ExpandResult {
  jobs: ExpandedJob[];
  diagnostics: Diagnostic[];
}

interface CompiledRule {
  rule: Rule;
  inputs: Template[];
  outputs: Template[];
  temp: Template[];
  protected: Template[];
  log?: Template;
  command?: Template;
  isScript: boolean;
  map?: Template;
  combine?: Template;
  /** The params values, when some hold placeholders (else the rule's own values are used as they are). */
  params?: CompiledParams;
  /** Where each placeholder of command, map and combine sits (not for a script rule's path). */
  commandShell?: ShellAnalysis;
  mapShell?: ShellAnalysis;
  combineShell?: ShellAnalysis;
  expand: Expansion[];
  /** Some path takes values (wildcards, config): its rendered form must stay in the project. */
  confine: boolean;
  /** Per output / log template: written absolute, so an absolute rendered path is what the user meant. */
  absoluteOutputs: boolean[];
  absoluteLog: boolean;
}

/**
 * One expand_inputs entry: each variable's values, or, for a source with placeholders
 * (`config.samples_{group}`: the samples of the job's group), the template that names them per job.
 */
interface Expansion {
  pattern: Template;
  variables: [string, string[] | Template][];
  /** Where a per-job source's values are looked up, kept by the source as rendered. */
  lookups: Map<string, string[] | undefined>;
}

/** What every job of one rule shares when its command is rendered. */
interface CommandSource {
  compiled: CompiledRule;
  threads: number;
  memory: string | undefined;
  config: (key: string) => ConfigValue | undefined;
  /** Set when the workflow has sensitive config values: the config as displays see it. */
  masked?: Masking;
  /** The config keys a script's job gets, and which of them the engine adds. */
  scriptConfig: { keys: readonly string[]; engine: ReadonlySet<string> };
  /** Set when the pipeline is not in the project directory: where a `script` file is found. */
  pipelineDir?: string;
}

/** Sensitive config keys read as `***`; their values, as words, are also hidden wherever else they land. */
interface Masking {
  config: (key: string) => ConfigValue | undefined;
  secrets: readonly string[];
}

const MASK = '***';

/** The most jobs one workflow may make: about 2.5 GB of plan, several minutes of dry-run. */
export const MAX_JOBS = 500_000;

function maskingFor(workflow: Workflow, config: ReadonlyMap<string, ConfigValue>): Masking | undefined {
  const keys = new Set<string>();
  const secrets: string[] = [];
  for (const [key, entry] of workflow.config) {
    if (!entry.declaration?.sensitive) continue;
    keys.add(key);
    const v = config.get(key);
    if (v === undefined) continue;
    for (const w of Array.isArray(v) ? v.map(String) : [String(v)]) if (w.length >= 4) secrets.push(w);
  }
  if (keys.size === 0) return undefined;
  secrets.sort((a, b) => b.length - a.length); // longest first, so a secret inside another goes with it
  return { config: (k) => (keys.has(k) ? MASK : config.get(k)), secrets };
}

/** Hide every occurrence of a secret (a path built from one, a value quoted differently). */
function hideSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

const NOTHING_TO_RUN: RenderedScript = Object.freeze({ script: '', env: Object.freeze({}), shown: '' });

/**
 * What the jobs of one rule (or of one step of a transform) share: one object for all of them, where
 * each job once held these five fields itself.
 */
interface JobKind {
  readonly source: CommandSource;
  readonly step: 'map' | 'combine' | undefined;
  readonly inputNames: Record<string, number>;
  readonly outputNames: Record<string, number>;
  readonly final: boolean;
}

function jobKind(source: CommandSource, step: JobKind['step'], inputNames: Record<string, number>, outputNames: Record<string, number>, final: boolean): JobKind {
  return { source, step, inputNames, outputNames, final };
}

/**
 * An expanded job whose command is rendered on first read, then kept. A large plan has thousands of
 * jobs and dry-run prints a few of them; rendering every command up front was a large share of its
 * time. The text is the same whenever it is read: a job's inputs are final once expandJobs returns.
 */
class Job implements ExpandedJob {
  declare log?: string;
  tempOutputs: string[] = NONE;
  protectedOutputs: string[] = NONE;
  #kind: JobKind;
  #rendered: RenderedScript | undefined;

  constructor(
    kind: JobKind,
    public id: string,
    public wildcards: Record<string, string>,
    public inputs: string[],
    public outputs: string[],
    public values: Record<string, string>,
  ) {
    this.#kind = kind;
  }

  get rule(): Rule {
    return this.#kind.source.compiled.rule;
  }

  get step(): 'map' | 'combine' | undefined {
    return this.#kind.step;
  }

  get inputNames(): Record<string, number> {
    return this.#kind.inputNames;
  }

  get outputNames(): Record<string, number> {
    return this.#kind.outputNames;
  }

  get final(): boolean {
    return this.#kind.final;
  }

  /** The command with the real config, rendered on first read and kept. */
  #real(): RenderedScript {
    const source = this.#kind.source;
    return (this.#rendered ??= renderCommand(this, source, source.config));
  }

  get command(): string {
    return this.#real().script;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#real().env;
  }

  get shownEnv(): Readonly<Record<string, string>> {
    return this.#kind.source.masked === undefined ? this.env : this.#masked().env;
  }

  get shownCommand(): string {
    return this.#kind.source.masked === undefined ? this.#real().shown : this.#masked().shown;
  }

  /** Every form at once, for a reader that reads each job once (dry-run --json): not kept. */
  commandForms(): CommandForms {
    const source = this.#kind.source;
    const real = this.#rendered ?? renderCommand(this, source, source.config);
    if (source.masked === undefined) return { command: real.script, env: real.env, shownCommand: real.shown, shownEnv: real.env };
    const view = this.#masked();
    return { command: real.script, env: real.env, shownCommand: view.shown, shownEnv: view.env };
  }

  /** The command and its values as displays see them: sensitive config values read `***`, wherever they land. */
  #masked(): { shown: string; env: Record<string, string> } {
    const source = this.#kind.source;
    const masked = source.masked!;
    const view = renderCommand(this, source, masked.config);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(view.env)) env[k] = hideSecrets(v, masked.secrets);
    return { shown: hideSecrets(view.shown, masked.secrets), env };
  }

  get jobJson(): string | undefined {
    const s = this.#kind.source;
    if (!isScriptJob(this, s)) return undefined;
    const masked = s.masked;
    if (masked === undefined) return scriptJson(scriptJob(this, s, s.config));
    return scriptJson(scriptJob(this, s, masked.config), (text) => hideSecrets(text, masked.secrets));
  }

  get stateEnv(): Readonly<Record<string, string>> {
    const declared = this.rule.declared;
    if (declared === undefined) return this.env;
    const s = this.#kind.source;
    return renderCommand(this, { ...s, threads: declared.threads, memory: declared.memory }, s.config).env;
  }
}

/**
 * One template's paths, one per combination of a list (by index), and where the first of them
 * leaves the project: by `..` (any path), or by being absolute (an output or a log whose template is
 * not absolute itself); -1 when none does.
 */
interface Column {
  readonly paths: readonly string[];
  readonly firstClimb: number;
  readonly firstAbsolute: number;
}

/** Per list of combinations (shared by the rules that fan out over the same values), per template text. */
type PathColumns = Map<readonly Option[], Map<string, Column>>;

/**
 * A rule's paths, rendered a template at a time for every combination. A path filled from the
 * combination's values (and config) alone is the same string for every rule that renders the same
 * text over the same list of combinations, so a template's column is rendered once and shared:
 * step2's input is step1's output, one string, hashed once and compared by identity. A column with a
 * name that nothing filled is never shared: each rule that has it reports the name (E021).
 */
class RulePaths {
  /** Names that no value filled, for E021. */
  readonly missing = new Set<string>();
  #values: Record<string, string> = {};
  #unfilled = false;
  readonly #render: RenderValues;
  readonly #byText: Map<string, Column>;
  readonly #combos: readonly Option[];

  constructor(columns: PathColumns, combos: readonly Option[], config: (key: string) => ConfigValue | undefined) {
    let byText = columns.get(combos);
    if (byText === undefined) columns.set(combos, (byText = new Map()));
    this.#byText = byText;
    this.#combos = combos;
    this.#render = {
      vars: (name) => {
        const v = ownValue(this.#values, name);
        if (v === undefined) {
          this.#unfilled = true;
          this.missing.add(name);
        }
        return v;
      },
      config,
    };
  }

  /** The template's column: its path for every combination. */
  column(t: Template): Column {
    const kept = this.#byText.get(t.text);
    if (kept !== undefined) return kept;
    const combos = this.#combos;
    const paths: string[] = [];
    let firstClimb = -1;
    let firstAbsolute = -1;
    this.#unfilled = false;
    const one = oneWildcard(t);
    for (let k = 0; k < combos.length; k++) {
      const values = combos[k]!.values;
      const v = one === undefined ? undefined : ownValue(values, one.name);
      let p: string;
      if (v !== undefined) p = one!.before + v + one!.after;
      else {
        this.#values = values;
        p = renderTemplate(t, this.#render);
      }
      paths.push(p);
      if (firstClimb < 0 && climbsOut(p)) firstClimb = k;
      if (firstAbsolute < 0 && p.startsWith('/')) firstAbsolute = k;
    }
    const column = { paths, firstClimb, firstAbsolute };
    if (!this.#unfilled) this.#byText.set(t.text, column);
    return column;
  }
}

/**
 * A path of text and one wildcard (`step1/{sample}.txt`, the usual one), as the text around it: its
 * value goes between, which is what renderTemplate makes of it (a wildcard's value is a string).
 */
function oneWildcard(t: Template): { before: string; name: string; after: string } | undefined {
  const refs = t.parts.filter((p) => typeof p !== 'string');
  if (refs.length !== 1 || refs[0]!.ref.kind !== 'var' || t.parts.length > 3) return undefined;
  const at = t.parts.indexOf(refs[0]!);
  const text = (part: Template['parts'][number] | undefined) => (typeof part === 'string' ? part : '');
  return { before: at > 0 ? text(t.parts[0]) : '', name: refs[0]!.ref.name, after: at < t.parts.length - 1 ? text(t.parts[t.parts.length - 1]) : '' };
}

/** Each column's path for combination k: a new list (gather and expand_inputs add to it). */
function pick(columns: readonly Column[], k: number): string[] {
  if (columns.length === 1) return [columns[0]!.paths[k]!];
  const out: string[] = [];
  for (let i = 0; i < columns.length; i++) out.push(columns[i]!.paths[k]!);
  return out;
}

/**
 * What names the jobs made from one list of combinations: each one's wildcards in key order and its
 * `[k=v,…]` (a job's id is its rule's name and this), and whether two combinations name the same job
 * (a sample in two groups, for a rule that names jobs by sample alone). Worked out once per list:
 * rules that fan out over the same samples share it.
 */
interface ComboIds {
  readonly wildcards: readonly Record<string, string>[];
  readonly suffixes: readonly string[];
  readonly unique: boolean;
}

function comboIds(combos: readonly Option[], cache: Map<readonly Option[], ComboIds>): ComboIds {
  let ids = cache.get(combos);
  if (ids !== undefined) return ids;
  const wildcards: Record<string, string>[] = [];
  const suffixes: string[] = [];
  for (let k = 0; k < combos.length; k++) {
    const sorted = sortedWildcards(combos[k]!.id);
    wildcards.push(sorted);
    suffixes.push(idSuffix(sorted));
  }
  ids = { wildcards, suffixes, unique: new Set(suffixes).size === suffixes.length };
  cache.set(combos, ids);
  return ids;
}

export function expandJobs(workflow: Workflow, settings: ExpandSettings): ExpandResult {
  const diagnostics: Diagnostic[] = [];
  const jobs: ExpandedJob[] = [];
  // Ids are told apart by their rule's name (the part before `[` or `.`) when names are distinct and
  // hold neither: then only a rule's own jobs can repeat an id, and only when two of its combinations
  // name the same job. Otherwise (a rule-level view of a file with E002) every id goes through one set.
  const names = workflow.rules.map((r) => r.name);
  const seen = new Set(names).size === names.length && names.every((n) => !n.includes('[') && !n.includes('.')) ? undefined : new Set<string>();
  const byRule = new Map<string, ExpandedJob[]>();
  const config = settings.config;
  const getConfig = (key: string) => config.get(key);
  const masked = maskingFor(workflow, config);
  const scriptConfig = { keys: [...config.keys()], engine: new Set([...config.keys()].filter((k) => !workflow.config.has(k) && (k === 'samples_list' || k === 'pairs_list' || k === 'pipeline_dir' || k.startsWith('samples_')))) };
  const columns: PathColumns = new Map();
  const idCache = new Map<readonly Option[], ComboIds>();
  let total = 0;

  for (const rule of workflow.rules) {
    const c = compileRule(rule, workflow, config, diagnostics, settings.standIns ?? false);
    if (c === undefined) continue;
    const fanOut = [...c.inputs, ...c.outputs, ...(c.map ? [c.map] : []), ...(c.combine ? [c.combine] : [])];
    if (!c.isScript && c.command) fanOut.push(c.command);
    if (c.params) fanOut.push(...c.params.templates);
    // A per-group fan-in (`config.samples_{group}`) makes one job per group.
    for (const e of c.expand) for (const [, from] of e.variables) if (!Array.isArray(from)) fanOut.push(from);
    const mentioned = mentionedNames(fanOut);
    if (rule.transform) mentioned.delete(rule.transform.split.by);
    const dims = ruleDimensions(rule, mentioned, { workflow, samples: settings.samples, config, standIns: settings.standIns ?? false }, diagnostics);
    if (dims === undefined) continue;

    const source = commandSource(c, workflow, getConfig, masked, scriptConfig);
    // Bounded work: the count is known before any job exists, so a plan far past what one run can
    // hold ends at once with E044, not after minutes and gigabytes (or a crash).
    let count = 1;
    for (const d of dims) count *= d.options.length;
    if (rule.transform) count *= Math.max(1, listValues(rule.transform.split.values, rule.transform.split.valuesFrom, config)?.length ?? 1) + 1;
    total += count;
    if (total > MAX_JOBS) {
      diagnostics.push(
        diagnostic('E044', `the workflow makes more than ${MAX_JOBS.toLocaleString('en-US')} jobs (rule ${rule.name} alone makes ${count.toLocaleString('en-US')})`, {
          ...locate(workflow, rule),
          rule: rule.name,
          hint: 'split the samples over several runs (--samples, or one sheet per batch), or gather per-sample steps into fewer jobs',
        }),
      );
      return { jobs: [], diagnostics };
    }
    const combos = product(dims);
    const ids = comboIds(combos, idCache);
    const paths = new RulePaths(columns, combos, getConfig);
    const made: ExpandedJob[] = [];
    const trouble = rule.transform
      ? transformRule(c, source, combos, paths, config, made, diagnostics, workflow, settings.standIns ?? false)
      : plainJobs(c, jobKind(source, undefined, rule.input.names, rule.output.names, true), combos, ids, paths, config, made);
    if (trouble.escaped !== undefined) {
      diagnostics.push(
        diagnostic('E032', `${trouble.escaped.field} ${JSON.stringify(trouble.escaped.path)} of rule ${rule.name} leaves the project directory once its values are filled in`, {
          ...locate(workflow, rule, trouble.escaped.field),
          rule: rule.name,
          hint: 'a sample, wildcard or config value must not add ".." (or, for outputs and logs, make the path absolute); keep external data in inputs given by absolute paths',
        }),
      );
      continue;
    }
    if (trouble.unsetSource !== undefined && !settings.standIns) {
      diagnostics.push(
        diagnostic('E005', `expand_inputs of rule ${rule.name}: ${trouble.unsetSource} is not defined in [config] (filled in from the job's values)`, {
          ...locate(workflow, rule, 'expand_inputs'),
          rule: rule.name,
          hint: 'config.samples_<group> exists for every sample group; for another key, define one per value the job can have',
        }),
      );
      continue;
    }
    if (paths.missing.size > 0 && !settings.standIns) {
      for (const name of paths.missing) {
        diagnostics.push(
          diagnostic('E021', `\`{${name}}\` in rule ${rule.name} has no source: it is not a wildcard (sample, group, pair_id, experiment, control) nor this rule's scatter or transform variable`, {
            ...locate(workflow, rule),
            rule: rule.name,
            hint: `{${name}} is not a wildcard this engine knows, so it would end up literally in a file name; use a [config] key ({config.${name}}) or a scatter variable`,
          }),
        );
      }
      continue;
    }
    // Same rule, same wildcard values: one object per id.
    const dedupe = seen ?? (rule.transform !== undefined || !ids.unique ? new Set<string>() : undefined);
    if (dedupe === undefined) {
      for (let k = 0; k < made.length; k++) jobs.push(made[k]!);
      byRule.set(rule.name, made);
      continue;
    }
    const kept: ExpandedJob[] = [];
    for (let k = 0; k < made.length; k++) {
      const j = made[k]!;
      if (dedupe.has(j.id)) continue;
      dedupe.add(j.id);
      kept.push(j);
      jobs.push(j);
    }
    byRule.set(rule.name, kept);
  }

  addGatherInputs(workflow, byRule, diagnostics);
  return { jobs, diagnostics };
}

/** What stops a rule once its jobs are made: a path that leaves the project, an expand_inputs source without values. */
interface Trouble {
  escaped?: { field: string; path: string };
  unsetSource?: string;
}

/** A rule's columns: its inputs, outputs, log, temp and protected outputs, each rendered for every combination. */
interface RuleColumns {
  inputs: Column[];
  outputs: Column[];
  log: Column | undefined;
  temp: Column[];
  protected: Column[];
}

function ruleColumns(c: CompiledRule, paths: RulePaths): RuleColumns {
  return {
    inputs: c.inputs.map((t) => paths.column(t)),
    outputs: c.outputs.map((t) => paths.column(t)),
    log: c.log === undefined ? undefined : paths.column(c.log),
    temp: c.temp.map((t) => paths.column(t)),
    protected: c.protected.map((t) => paths.column(t)),
  };
}

/**
 * The first path of the rule's jobs that leaves the project, in job order and, within a job, in the
 * order firstEscape checks them (inputs, outputs, log), read off the columns. Without expand_inputs
 * only: those inputs are per job (firstEscape checks them there).
 */
function columnEscape(c: CompiledRule, columns: RuleColumns): Trouble['escaped'] {
  let at = Infinity;
  let found: Trouble['escaped'];
  const consider = (column: Column, field: string, k: number) => {
    if (k >= 0 && k < at) {
      at = k;
      found = { field, path: column.paths[k]! };
    }
  };
  for (const column of columns.inputs) consider(column, 'input', column.firstClimb);
  columns.outputs.forEach((column, i) => consider(column, 'output', firstEscapeOf(column, c.absoluteOutputs[i]!)));
  if (columns.log !== undefined) consider(columns.log, 'log', firstEscapeOf(columns.log, c.absoluteLog));
  return found;
}

/** Where an output's or a log's column first leaves the project: by `..`, or absolute unless written so. */
function firstEscapeOf(column: Column, absolute: boolean): number {
  if (absolute || column.firstAbsolute < 0) return column.firstClimb;
  return column.firstClimb < 0 ? column.firstAbsolute : Math.min(column.firstClimb, column.firstAbsolute);
}

/**
 * The jobs of a rule without a transform, one per combination of its values. This is the loop that
 * runs once per job: it is kept apart from the rule's set-up and its reports, and reads its paths off
 * the rule's columns, so that it stays small (V8 compiles it by itself, and a small function costs
 * little to compile).
 */
function plainJobs(c: CompiledRule, kind: JobKind, combos: readonly Option[], ids: ComboIds, paths: RulePaths, config: ReadonlyMap<string, ConfigValue>, made: ExpandedJob[]): Trouble {
  const trouble: Trouble = {};
  const name = c.rule.name;
  const columns = ruleColumns(c, paths);
  const perJob = c.expand.length > 0;
  if (c.confine && !perJob) {
    const escaped = columnEscape(c, columns);
    if (escaped !== undefined) trouble.escaped = escaped;
  }
  for (let k = 0; k < combos.length; k++) {
    const values = combos[k]!.values;
    const suffix = ids.suffixes[k]!;
    // name + suffix stays two pieces (the suffix is shared by every rule over these combinations)
    // until something hashes or prints the id: a plan mostly does neither.
    const j = new Job(kind, suffix === '' ? name : name + suffix, ids.wildcards[k]!, pick(columns.inputs, k), pick(columns.outputs, k), values);
    if (columns.log !== undefined) j.log = columns.log.paths[k]!;
    if (columns.temp.length > 0) j.tempOutputs = pick(columns.temp, k);
    if (columns.protected.length > 0) j.protectedOutputs = pick(columns.protected, k);
    if (perJob) {
      addExpanded(c, j.inputs, values, config, trouble);
      if (c.confine && trouble.escaped === undefined) {
        const escaped = firstEscape(c, j.inputs, j.outputs, j.log);
        if (escaped !== undefined) trouble.escaped = escaped;
      }
    }
    made.push(j);
  }
  return trouble;
}

/** A job's expand_inputs paths, added to its inputs; the first source without values goes to `trouble`. */
function addExpanded(c: CompiledRule, inputs: string[], values: Record<string, string>, config: ReadonlyMap<string, ConfigValue>, trouble: Trouble): void {
  for (let e = 0; e < c.expand.length; e++) {
    const expanded = expandPattern(c.expand[e]!, values, config);
    if (Array.isArray(expanded)) inputs.push(...expanded);
    else trouble.unsetSource ??= expanded.missing;
  }
}

/** The jobs of a transform rule: per combination, its map jobs (one per split value) and its combine job. */
function transformRule(
  c: CompiledRule,
  source: CommandSource,
  combos: readonly Option[],
  paths: RulePaths,
  config: ReadonlyMap<string, ConfigValue>,
  made: ExpandedJob[],
  diagnostics: Diagnostic[],
  workflow: Workflow,
  standIns: boolean,
): Trouble {
  const trouble: Trouble = {};
  const rule = c.rule;
  const kinds = {
    map: jobKind(source, 'map', rule.input.names, c.outputs.length > 0 ? rule.output.names : {}, c.combine === undefined),
    combine: jobKind(source, 'combine', {}, rule.output.names, true),
  };
  const columns = ruleColumns(c, paths);
  for (let k = 0; k < combos.length; k++) {
    const combo = combos[k]!;
    const inputs = pick(columns.inputs, k);
    if (c.expand.length > 0) addExpanded(c, inputs, combo.values, config, trouble);
    const outputs = pick(columns.outputs, k);
    const log = columns.log?.paths[k];
    if (c.confine && trouble.escaped === undefined) {
      const escaped = firstEscape(c, inputs, outputs, log);
      if (escaped !== undefined) trouble.escaped = escaped;
    }
    made.push(...transformJobs(rule, kinds, combo, inputs, outputs, log, config, diagnostics, workflow, standIns));
  }
  return trouble;
}

function commandSource(
  compiled: CompiledRule,
  workflow: Workflow,
  config: (key: string) => ConfigValue | undefined,
  masked: Masking | undefined,
  scriptConfig: CommandSource['scriptConfig'],
): CommandSource {
  const rule = compiled.rule;
  const threads = rule.threads ?? workflow.defaults.threads ?? 1;
  const memory = rule.memoryText ?? (rule.memoryMb !== undefined ? `${rule.memoryMb}M` : workflow.defaults.memoryText);
  const source: CommandSource = masked === undefined ? { compiled, threads, memory, config, scriptConfig } : { compiled, threads, memory, config, masked, scriptConfig };
  if (workflow.pipelineDir !== workflow.dir) source.pipelineDir = workflow.pipelineDir;
  return source;
}

/**
 * Compile a rule's templates. A `{config.k}` with no value stops the rule (E005), except in a
 * rule-level view (standIns: validate, the rule graph), where the rule is still placed in the DAG.
 */
function compileRule(rule: Rule, workflow: Workflow, config: ReadonlyMap<string, ConfigValue>, diagnostics: Diagnostic[], standIns: boolean): CompiledRule | undefined {
  const c: CompiledRule = {
    rule,
    inputs: rule.input.paths.map(compileTemplate),
    outputs: rule.output.paths.map(compileTemplate),
    temp: rule.tempOutput.map(compileTemplate),
    protected: rule.protectedOutput.map(compileTemplate),
    isScript: rule.shell === undefined && rule.script !== undefined,
    expand: [],
    confine: false,
    absoluteOutputs: rule.output.paths.map((p) => p.startsWith('/')),
    absoluteLog: rule.log?.startsWith('/') ?? false,
  };
  if (rule.log !== undefined) c.log = compileTemplate(rule.log);
  if (rule.shell !== undefined) c.command = compileTemplate(rule.shell);
  else if (rule.script !== undefined) c.command = compileTemplate(rule.script);
  if (rule.transform?.map !== undefined) c.map = compileTemplate(rule.transform.map);
  if (rule.transform?.combine !== undefined) c.combine = compileTemplate(rule.transform.combine.shell);
  const params = compileParams(rule.params);
  if (params !== undefined) c.params = params;
  let ok = true;
  // Where each placeholder of a command sits; a command the checks refuse (E041, E042) makes no job.
  const shells: [Template | undefined, string | undefined, 'commandShell' | 'mapShell' | 'combineShell', string][] = [
    [c.isScript ? undefined : c.command, rule.shell, 'commandShell', 'shell'],
    [c.map, rule.transform?.map, 'mapShell', 'transform'],
    [c.combine, rule.transform?.combine?.shell, 'combineShell', 'transform'],
  ];
  for (const [template, text, field, key] of shells) {
    if (template === undefined || text === undefined) continue;
    const analysis = analyseShell(text, template);
    c[field] = analysis;
    if (standIns) continue;
    if (analysis.syntaxError !== undefined) {
      diagnostics.push(
        diagnostic('E042', `${key === 'shell' ? 'shell' : field === 'mapShell' ? 'transform.map' : 'transform.combine.shell'} of rule ${rule.name} is not valid shell: ${analysis.syntaxError.message} (line ${analysis.syntaxError.line}, column ${analysis.syntaxError.column} of the command)`, {
          ...locate(workflow, rule, key),
          rule: rule.name,
        }),
      );
      ok = false;
    }
    for (const r of analysis.refused) {
      diagnostics.push(diagnostic('E041', `${r.raw} in rule ${rule.name} cannot be given to the shell safely: ${r.why}`, { ...locate(workflow, rule, key), rule: rule.name, hint: r.hint }));
      ok = false;
    }
  }
  for (const e of rule.expandInputs) {
    const variables: [string, string[] | Template][] = [];
    for (const [name, from] of Object.entries(e.variables)) {
      const source = compileTemplate(from);
      if (source.vars.length > 0) {
        // Filled per job (expandPattern); a key with no value is E005 there.
        variables.push([name, source]);
        continue;
      }
      const values = listValues(undefined, from, config) ?? (standIns ? unreadEngineKey(workflow, from, name) : undefined);
      if (values === undefined) {
        diagnostics.push(
          diagnostic('E005', `expand_inputs of rule ${rule.name}: ${from} is not defined in [config]`, {
            ...locate(workflow, rule, 'expand_inputs'),
            rule: rule.name,
          }),
        );
        ok = false;
        continue;
      }
      variables.push([name, values]);
    }
    c.expand.push({ pattern: compileTemplate(e.pattern), variables, lookups: new Map() });
  }
  c.confine = [...c.inputs, ...c.outputs, ...(c.log ? [c.log] : []), ...c.expand.map((e) => e.pattern)].some((t) => t.parts.some((p) => typeof p !== 'string'));
  const all = [...c.inputs, ...c.outputs, ...(c.log ? [c.log] : []), ...(c.command ? [c.command] : []), ...(c.map ? [c.map] : []), ...(c.combine ? [c.combine] : []), ...(c.params?.templates ?? [])];
  const reported = new Set<string>();
  for (const t of all) {
    for (const key of t.configKeys) {
      // A declared key without a value is E037, reported once by the pipeline at the key itself.
      if (config.has(key) || workflow.config.has(key) || reported.has(key)) continue;
      reported.add(key);
      diagnostics.push(
        diagnostic('E005', `{config.${key}} in rule ${rule.name} is not defined in [config]`, {
          ...locate(workflow, rule),
          rule: rule.name,
          hint: `add ${key} to [config], or pass ${key}=VALUE`,
        }),
      );
      if (!standIns) ok = false;
    }
  }
  return ok ? c : undefined;
}

/**
 * The rule-level view (validate, lint, the rule graph) of an engine key whose values come from a
 * source it does not read: samples named by `sample_pattern` or by a sheet whose path waits for a
 * config value given at run time (`samples_file = "{config.samplesheet}"`). The key will exist once
 * dry-run or run reads the source, so it gets one stand-in value here; with samples (or pairs)
 * already known, a missing key stays E005.
 */
function unreadEngineKey(workflow: Workflow, from: string, variable: string): string[] | undefined {
  const key = from.startsWith('config.') ? from.slice('config.'.length) : undefined;
  if (key === undefined || workflow.config.has(key)) return undefined;
  const m = workflow.meta;
  const samplesUnread = workflow.sampleGroups.length === 0 && (m.samplePattern !== undefined || m.samplesFile !== undefined || m.sampleGroupsFile !== undefined);
  if ((key === 'samples_list' || key.startsWith('samples_')) && samplesUnread) return [`<${variable}>`];
  if (key === 'pairs_list' && workflow.pairs.length === 0 && m.pairsFile !== undefined) return [`<${variable}>`];
  return undefined;
}

/** A relative path that climbs out of the directory it is relative to. */
function climbsOut(p: string): boolean {
  if (!p.includes('..')) return false;
  const n = path.posix.normalize(p);
  return n === '..' || n.startsWith('../');
}

/**
 * The first rendered path that leaves the project: any path climbing out with `..`, and outputs or
 * logs made absolute by a value (inputs may name external data by an absolute path).
 */
function firstEscape(c: CompiledRule, inputs: readonly string[], outputs: readonly string[], log: string | undefined): { field: string; path: string } | undefined {
  for (let k = 0; k < inputs.length; k++) if (climbsOut(inputs[k]!)) return { field: 'input', path: inputs[k]! };
  for (let k = 0; k < outputs.length; k++) {
    const o = outputs[k]!;
    if (climbsOut(o) || (o.startsWith('/') && !c.absoluteOutputs[k])) return { field: 'output', path: o };
  }
  if (log !== undefined && (climbsOut(log) || (log.startsWith('/') && !c.absoluteLog))) return { field: 'log', path: log };
  return undefined;
}

/** Cartesian product of the fan-outs; a rule with none gives one combination with no values. */
function product(dims: readonly Dimension[]): readonly Option[] {
  if (dims.length === 0) return [{ id: {}, values: {} }];
  // The common case (one sample list): the shared options themselves, no copies.
  if (dims.length === 1) return dims[0]!.options;
  const out: Option[] = [];
  const idx = dims.map(() => 0);
  if (dims.some((d) => d.options.length === 0)) return out;
  for (;;) {
    const id: Record<string, string> = {};
    const values: Record<string, string> = {};
    for (let d = 0; d < dims.length; d++) {
      const o = dims[d]!.options[idx[d]!]!;
      Object.assign(values, o.values);
      Object.assign(id, o.id);
    }
    out.push({ id, values });
    let d = dims.length - 1;
    while (d >= 0) {
      idx[d]! += 1;
      if (idx[d]! < dims[d]!.options.length) break;
      idx[d] = 0;
      d -= 1;
    }
    if (d < 0) return out;
  }
}

/**
 * A job's expand_inputs paths: the pattern once per combination of its variables' values. A source
 * with placeholders is filled with the job's values first (`config.samples_{group}` → the key of
 * the job's group); undefined names that source when it has no value.
 */
function expandPattern(
  e: Expansion,
  jobValues: Record<string, string>,
  config: ReadonlyMap<string, ConfigValue>,
): string[] | { missing: string } {
  const getConfig = (key: string) => config.get(key);
  let rows: Record<string, string>[] = [{}];
  for (const [name, from] of e.variables) {
    let values: string[] | undefined;
    if (Array.isArray(from)) values = from;
    else {
      const source = renderTemplate(from, { vars: (n) => ownValue(jobValues, n), config: getConfig });
      if (!e.lookups.has(source)) e.lookups.set(source, listValues(undefined, source, config));
      values = e.lookups.get(source);
      if (values === undefined) return { missing: source };
    }
    const next: Record<string, string>[] = [];
    for (const row of rows) for (const v of values) next.push({ ...row, [name]: v });
    rows = next;
  }
  return rows.map((row) => renderTemplate(e.pattern, { vars: (n) => ownValue(row, n) ?? ownValue(jobValues, n), config: getConfig }));
}

function transformJobs(
  rule: Rule,
  kinds: { map: JobKind; combine: JobKind },
  combo: Option,
  inputs: string[],
  outputs: string[],
  log: string | undefined,
  config: ReadonlyMap<string, ConfigValue>,
  diagnostics: Diagnostic[],
  workflow: Workflow,
  standIns: boolean,
): Job[] {
  const t = rule.transform!;
  const values = combo.values;
  let splitValues = listValues(t.split.values, t.split.valuesFrom, config);
  // A rule-level view: the checks report missing values (E005, E036); the rule keeps its place.
  if ((splitValues === undefined || splitValues.length === 0) && standIns) splitValues = [`<${t.split.by}>`];
  if (splitValues === undefined || splitValues.length === 0) {
    diagnostics.push(
      diagnostic(splitValues === undefined ? 'E005' : 'E021', `transform.split of rule ${rule.name} has no values${t.split.valuesFrom ? `: ${t.split.valuesFrom} ${splitValues === undefined ? 'is not defined in [config]' : 'is empty'}` : ''}`, {
        ...locate(workflow, rule, 'transform'),
        rule: rule.name,
      }),
    );
    return [];
  }
  if (t.split.valuesFrom !== undefined && !standIns) {
    const bad = unusableValues(splitValues, `transform.split value of rule "${rule.name}" (from ${t.split.valuesFrom})`, () => locate(workflow, rule, 'transform'), rule.name);
    if (bad.length > 0) {
      diagnostics.push(...bad);
      return [];
    }
  }
  const idKeys = Object.keys(combo.id).sort();
  const base = ['.oxo-flow', 'chunks', rule.name, ...idKeys.map((k) => `${k}=${combo.id[k]}`)].join('/');
  const out: Job[] = [];
  const chunks: string[] = [];
  for (const v of splitValues) {
    const chunkOutputs = outputs.length > 0 ? outputs.map((o) => `${base}/${v}/${path.posix.basename(o)}`) : [`${base}/${v}.out`];
    chunks.push(...chunkOutputs);
    out.push(job(kinds.map, { ...combo.id, [t.split.by]: v }, { ...values, [t.split.by]: v }, inputs, chunkOutputs, log));
  }
  const c = kinds.combine.source.compiled;
  if (c.combine !== undefined) {
    const combine = job(kinds.combine, combo.id, { ...values, chunks: chunks.join(' ') }, chunks, outputs, log);
    const renderFinal = (t: Template) => renderTemplate(t, { vars: (n) => ownValue(values, n), config: (k) => config.get(k) });
    if (c.temp.length > 0) combine.tempOutputs = c.temp.map(renderFinal);
    if (c.protected.length > 0) combine.protectedOutputs = c.protected.map(renderFinal);
    out.push(combine);
  }
  return out;
}

/** A transform's job: its id from its wildcards (sorted) and its step. */
function job(kind: JobKind, wildcards: Record<string, string>, values: Record<string, string>, inputs: string[], outputs: string[], log: string | undefined): Job {
  const sorted = sortedWildcards(wildcards);
  const name = kind.step === 'combine' ? `${kind.source.compiled.rule.name}.combine` : kind.source.compiled.rule.name;
  const j = new Job(kind, [name, idSuffix(sorted)].join(''), sorted, inputs, outputs, values);
  if (log !== undefined) j.log = log;
  return j;
}

/** The wildcards with their keys in order: the object itself when they already are. */
function sortedWildcards(wildcards: Record<string, string>): Record<string, string> {
  const keys = Object.keys(wildcards);
  if (isSorted(keys)) return wildcards;
  keys.sort();
  const sorted: Record<string, string> = {};
  for (const k of keys) sorted[k] = wildcards[k]!;
  return sorted;
}

/**
 * What follows the rule's name in a job id: `[k=v]`, `[a=1,b=2]` (keys sorted), nothing without
 * wildcards. The one spelling: `rule`, `rule[k=v]`, `rule.combine[…]`.
 */
function idSuffix(sorted: Readonly<Record<string, string>>): string {
  const keys = Object.keys(sorted);
  if (keys.length === 0) return '';
  // Pieces joined once: one flat string, where `+=` leaves a tree of pieces.
  const pieces: string[] = ['['];
  for (let i = 0; i < keys.length; i++) pieces.push(i === 0 ? '' : ',', keys[i]!, '=', sorted[keys[i]!]!);
  pieces.push(']');
  return pieces.join('');
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** A scatter's gather rule receives every clone's outputs (clones that agree on shared wildcards). */
function addGatherInputs(workflow: Workflow, byRule: Map<string, ExpandedJob[]>, diagnostics: Diagnostic[]): void {
  for (const rule of workflow.rules) {
    const gather = rule.scatter?.gather;
    if (gather === undefined) continue;
    const targets = byRule.get(gather);
    const clones = byRule.get(rule.name) ?? [];
    if (targets === undefined) {
      if (!workflow.rules.some((r) => r.name === gather)) {
        diagnostics.push(
          diagnostic('E007', `scatter.gather of rule ${rule.name} names "${gather}", which is not a rule`, { ...locate(workflow, rule, 'scatter'), rule: rule.name }),
        );
      }
      continue;
    }
    const variable = rule.scatter!.variable;
    for (const t of targets) {
      for (const clone of clones) if (agree(clone.wildcards, t.wildcards, variable)) t.inputs.push(...clone.outputs);
    }
  }
}

/** Two jobs agree when every wildcard they share has the same value (ignoring one key). */
export function agree(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>, ignore?: string): boolean {
  for (const k in a) {
    if (k === ignore) continue;
    const v = b[k];
    if (v !== undefined && v !== a[k]) return false;
  }
  return true;
}

const INTERPRETERS: Record<string, string> = {
  // python3: Debian and others have no `python` unless a package adds it; every environment has python3.
  '.py': 'python3',
  '.R': 'Rscript',
  '.r': 'Rscript',
  '.sh': 'bash',
  '.bash': 'bash',
  '.pl': 'perl',
  '.rb': 'ruby',
  '.jl': 'julia',
};

function commandValues(j: ExpandedJob, source: CommandSource, config: (key: string) => ConfigValue | undefined): RenderValues {
  const memory = source.memory !== undefined ? { memory: source.memory } : {};
  const compiled = source.compiled.params;
  // A params value is filled from the job's own values (never from its paths), like a path is.
  const params = compiled === undefined ? j.rule.params : renderParams(compiled, { vars: (n) => ownValue(j.values, n), config, threads: source.threads, ...memory });
  return {
    input: { paths: j.inputs, names: j.inputNames },
    output: { paths: j.outputs, names: j.outputNames },
    ...(j.log !== undefined ? { log: j.log } : {}),
    threads: source.threads,
    ...memory,
    params,
    config,
    // {chunks} is the combine step's list of chunk files: one word each.
    vars: (n) => (n === 'chunks' && j.step === 'combine' ? j.inputs : ownValue(j.values, n)),
  };
}

function commandOf(j: ExpandedJob, c: CompiledRule): { template: Template; analysis: ShellAnalysis | undefined } | undefined {
  if (j.step === 'map') return c.map && { template: c.map, analysis: c.mapShell };
  if (j.step === 'combine') return c.combine && { template: c.combine, analysis: c.combineShell };
  return c.command && { template: c.command, analysis: c.commandShell };
}

/** A script rule runs its file: the path (rendered as text) reaches the job as OXO_SCRIPT. */
function scriptPath(j: ExpandedJob, source: CommandSource, config: (key: string) => ConfigValue | undefined): string | undefined {
  if (!isScriptJob(j, source)) return undefined;
  const file = renderTemplate(source.compiled.command!, commandValues(j, source, config));
  // A script ships with the pipeline: found next to the workflow file, while the job runs in the project.
  return source.pipelineDir === undefined || path.isAbsolute(file) ? file : path.join(source.pipelineDir, file);
}

function isScriptJob(j: ExpandedJob, source: CommandSource): boolean {
  return source.compiled.isScript && j.step === undefined && source.compiled.command !== undefined;
}

/** Everything a script's program learns about its job (render/script-job.ts), with the given config. */
function scriptJob(j: ExpandedJob, source: CommandSource, config: (key: string) => ConfigValue | undefined): ScriptJob {
  const values = commandValues(j, source, config);
  const r = j.rule.resources;
  const memoryMb = source.memory === undefined ? undefined : parseMemory(source.memory);
  const seen = new Map<string, ConfigValue>();
  for (const k of source.scriptConfig.keys) {
    const v = config(k);
    if (v !== undefined) seen.set(k, v);
  }
  return {
    rule: j.rule.name,
    id: j.id,
    script: scriptPath(j, source, config)!,
    inputs: j.inputs,
    inputNames: j.inputNames,
    outputs: j.outputs,
    outputNames: j.outputNames,
    ...(j.log !== undefined ? { log: j.log } : {}),
    threads: source.threads,
    ...(source.memory !== undefined ? { memory: source.memory } : {}),
    ...(memoryMb?.ok ? { memoryMb: memoryMb.mb } : {}),
    ...(r.gpu !== undefined ? { gpu: r.gpu } : {}),
    ...(r.disk !== undefined ? { disk: r.disk } : {}),
    ...(r.timeLimit !== undefined ? { timeLimit: r.timeLimit } : {}),
    ...(r.timeLimitSeconds !== undefined ? { timeLimitSeconds: r.timeLimitSeconds } : {}),
    params: values.params ?? {},
    wildcards: j.wildcards,
    config: seen,
    engineKeys: source.scriptConfig.engine,
  };
}

/** The job's command as it runs (the script and its variables) and as shown, from the given config. */
function renderCommand(j: ExpandedJob, source: CommandSource, config: (key: string) => ConfigValue | undefined): RenderedScript {
  if (isScriptJob(j, source)) {
    // A script rule runs its file; the path and the whole job reach it as variables (and as JSON).
    const env = scriptEnv(scriptJob(j, source, config));
    const file = env.OXO_SCRIPT!;
    const interpreter = INTERPRETERS[path.posix.extname(file)];
    // A file run by itself is named by its path, never looked up on PATH (`script = "tool"`).
    if (interpreter) return { script: `${interpreter} "\${OXO_SCRIPT}"`, env, shown: `${interpreter} ${shellQuote(file)}` };
    return file.startsWith('/') ? { script: '"${OXO_SCRIPT}"', env, shown: shellQuote(file) } : { script: './"${OXO_SCRIPT}"', env, shown: `./${shellQuote(file)}` };
  }
  const command = commandOf(j, source.compiled);
  // No analysis: a rule-level view (validate) of a command the checks refuse; it is never run.
  if (command === undefined || command.analysis === undefined) return NOTHING_TO_RUN;
  return renderScript(command.template, command.analysis, commandValues(j, source, config));
}
