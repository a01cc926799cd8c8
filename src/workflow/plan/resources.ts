// What a run changes in the rules before they are expanded, so that every command, display and
// state hash sees the same values: `--set-threads` and `--set-resources`, threads above the run's
// cores capped to them (as Snakemake does), memory above the run's memory capped unless the rule
// says it is a hard minimum, and environments switched off (`--env none`) or used only where their
// program is installed (`--env auto`). Each change is one notice per rule.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Environment, Rule, Workflow } from '../model.js';

export interface ResourceSettings {
  /** Cores of the run: threads above it are capped. Undefined: no cap (a cluster has its own). */
  cores?: number;
  /** Memory of the run in MB: memory above it is capped, unless `memory_hard`. */
  memoryMb?: number;
  /** `--set-threads RULE=N`. */
  threads?: ReadonlyMap<string, number>;
  /** `--set-resources RULE:mem=SIZE`, in MB with the text as written. */
  memory?: ReadonlyMap<string, { mb: number; text: string }>;
  /** `--set-resources RULE:time_limit=…`, in seconds with the text as written. */
  timeLimit?: ReadonlyMap<string, { seconds: number; text: string }>;
}

/**
 * `declared` (the default): every declared environment is used. `none`: none is. A function: an
 * environment is used when it answers undefined; otherwise its answer says why not (`--env auto`).
 */
export type EnvironmentChoice = 'declared' | 'none' | ((env: Environment, rule: string) => string | undefined);

export function adjustRules(workflow: Workflow, resources: ResourceSettings | undefined, environments: EnvironmentChoice | undefined): { workflow: Workflow; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const envChoice = environments ?? 'declared';
  if (resources === undefined && envChoice === 'declared') return { workflow, diagnostics };
  let changed = false;
  const rules = workflow.rules.map((rule) => {
    const next = adjustRule(workflow, rule, resources ?? {}, envChoice, diagnostics);
    if (next !== rule) changed = true;
    return next;
  });
  if (envChoice !== 'declared' && workflow.defaults.environment !== undefined) {
    const { environment: _dropped, ...defaults } = workflow.defaults;
    return { workflow: { ...workflow, rules, defaults }, diagnostics };
  }
  return { workflow: changed ? { ...workflow, rules } : workflow, diagnostics };
}

function adjustRule(workflow: Workflow, rule: Rule, r: ResourceSettings, envChoice: EnvironmentChoice, diagnostics: Diagnostic[]): Rule {
  let out = rule;
  const edit = (): Rule => (out === rule ? (out = { ...rule, resources: { ...rule.resources } }) : out);
  // What {threads} and {memory} read as declared (the same fallbacks as the expansion's).
  const declared = {
    threads: rule.threads ?? workflow.defaults.threads ?? 1,
    memory: rule.memoryText ?? (rule.memoryMb !== undefined ? `${rule.memoryMb}M` : workflow.defaults.memoryText),
  };
  const touchResources = (): Rule => {
    const e = edit();
    e.declared ??= declared;
    return e;
  };
  // The key as written: at rule level (`threads = 8`), else in its resources (`resources = {…}`).
  // locate falls back to the nearest written ancestor, so a rule-level answer equal to the rule's
  // own position means the key is not at rule level.
  const where = (key: string) => {
    const at = (p: (string | number)[]) => workflow.positions.locate(['rules', rule.index, ...p]);
    const own = at([]);
    const direct = at([key]);
    const pos = direct !== undefined && (own === undefined || direct.line !== own.line || direct.column !== own.column) ? direct : at(['resources', key]);
    return pos === undefined ? { file: workflow.file, rule: rule.name } : { file: workflow.file, line: pos.line, column: pos.column, rule: rule.name };
  };

  const setThreads = r.threads?.get(rule.name);
  if (setThreads !== undefined) touchResources().threads = setThreads;
  const threads = out.threads ?? workflow.defaults.threads ?? 1;
  if (r.cores !== undefined && threads > r.cores) {
    touchResources().threads = r.cores;
    diagnostics.push(
      diagnostic('RUN015', `rule ${rule.name} asks for ${threads} threads; this run has ${r.cores} cores, so its jobs get ${r.cores} (and {threads} reads ${r.cores})`, where('threads')),
    );
  }

  const setMemory = r.memory?.get(rule.name);
  if (setMemory !== undefined) {
    touchResources().memoryMb = setMemory.mb;
    out.memoryText = setMemory.text;
  }
  const memoryMb = out.memoryMb ?? workflow.defaults.memoryMb;
  if (r.memoryMb !== undefined && memoryMb !== undefined && memoryMb > r.memoryMb && rule.resources.memoryHard !== true) {
    const was = out.memoryText ?? workflow.defaults.memoryText ?? `${memoryMb}M`;
    touchResources().memoryMb = r.memoryMb;
    out.memoryText = `${r.memoryMb}M`;
    diagnostics.push(
      diagnostic('RUN016', `rule ${rule.name} asks for ${was} of memory; this run has ${r.memoryMb}M, so its jobs get ${r.memoryMb}M (set resources.memory_hard = true if the job cannot do with less)`, where('memory')),
    );
  }

  const setLimit = r.timeLimit?.get(rule.name);
  if (setLimit !== undefined) {
    edit().resources.timeLimitSeconds = setLimit.seconds;
    out.resources.timeLimit = setLimit.text;
  }

  // With environments chosen per run, each rule carries its own (the default is resolved here and
  // dropped from the workflow), so "no environment" cannot fall back to the default.
  const env = rule.environment ?? workflow.defaults.environment;
  if (env !== undefined && envChoice !== 'declared') {
    const why = envChoice === 'none' ? 'none' : envChoice(env, rule.name);
    if (why === undefined) {
      if (rule.environment === undefined) edit().environment = env;
    } else {
      delete edit().environment;
      if (envChoice !== 'none') {
        diagnostics.push(diagnostic('RUN017', `rule ${rule.name} runs without its ${env.kind} environment: ${why} (--env auto)`, where('environment')));
      }
    }
  }
  return out;
}
