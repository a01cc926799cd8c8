// What the words after `oxo-flow run` / `dry-run` mean, as a Snakemake user types them: a `.oxoflow`
// file (or a directory holding one) is the workflow, KEY=VALUE is a config override, and anything
// else is a target, a rule name or an output path (`oxo-flow run results/x.txt`, `oxo-flow run
// collect`). Then the run's resource settings: `--cores`, `--memory`, `--set-threads`,
// `--set-resources` and `--env`, turned into the plan's settings (src/workflow/plan/resources.ts).
import { statSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { parseMemory } from '../workflow/load/memory.js';
import { parseTimeLimit } from '../workflow/load/time-limit.js';
import type { EnvironmentChoice, ResourceSettings } from '../workflow/plan/resources.js';
import { environmentAbsent } from '../run/environment.js';
import { stateDir } from '../run/state.js';

export interface Positionals {
  workflow?: string;
  overrides: string[];
  targets: string[];
}

const OVERRIDE = /^[^=/[\]\s-][^=/[\]\s]*=/;

/** `workflow`: commander's first positional; `rest`: the others. */
export function splitPositionals(workflow: string | undefined, rest: readonly string[], cwd: string): Positionals {
  const out: Positionals = { overrides: [], targets: [] };
  for (const word of workflow === undefined ? rest : [workflow, ...rest]) {
    const stats = statSync(path.resolve(cwd, word), { throwIfNoEntry: false });
    if (out.workflow === undefined && (word.endsWith('.oxoflow') || stats?.isDirectory() === true)) out.workflow = word;
    // A config key holds no `/` or brackets: `align[sample=S1]` (a job id) and `out/a=b.txt` are targets.
    else if (OVERRIDE.test(word) && stats === undefined) out.overrides.push(word);
    else out.targets.push(word);
  }
  return out;
}

export interface ResourceFlags {
  cores?: string;
  memory?: string;
  setThreads?: string[];
  setResources?: string[];
  env?: string;
}

export interface RunSettings {
  cores: number;
  memoryMb: number;
  resources: ResourceSettings;
  env: 'declared' | 'auto' | 'none';
}

/**
 * The run's resource settings from its flags. Threads and memory are capped to the machine (or
 * --cores/--memory); `onCluster` takes the caps off for a cluster executor.
 */
export function runSettings(flags: ResourceFlags): RunSettings | { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let cores = availableParallelism();
  if (flags.cores !== undefined) {
    const n = Number(flags.cores);
    if (Number.isSafeInteger(n) && n > 0) cores = n;
    else diagnostics.push(diagnostic('RUN008', `--cores ${flags.cores}: expected a positive whole number`));
  }
  let memoryMb = Math.floor(totalmem() / (1024 * 1024));
  if (flags.memory !== undefined) {
    const m = parseMemory(flags.memory);
    if (m.ok) memoryMb = m.mb;
    else diagnostics.push(diagnostic('RUN008', `--memory ${flags.memory}: ${m.message}`));
  }
  const threads = new Map<string, number>();
  for (const text of flags.setThreads ?? []) {
    const m = /^([^=]+)=(\d+)$/.exec(text.trim());
    const n = m ? Number(m[2]) : NaN;
    if (m && Number.isSafeInteger(n) && n > 0) threads.set(m[1]!.trim(), n);
    else diagnostics.push(diagnostic('RUN018', `--set-threads ${text}: expected RULE=N with N a positive whole number, e.g. --set-threads align=4`));
  }
  const memory = new Map<string, { mb: number; text: string }>();
  const timeLimit = new Map<string, { seconds: number; text: string }>();
  for (const text of flags.setResources ?? []) {
    const m = /^([^:=]+):([a-z_]+)=(.+)$/.exec(text.trim());
    if (!m) {
      diagnostics.push(diagnostic('RUN018', `--set-resources ${text}: expected RULE:KEY=VALUE, e.g. --set-resources align:mem=8G`));
      continue;
    }
    const [, rule, key, value] = m as unknown as [string, string, string, string];
    if (key === 'mem' || key === 'memory' || key === 'mem_mb') {
      const parsed = parseMemory(key === 'mem_mb' && /^\d+$/.test(value) ? Number(value) : value);
      if (parsed.ok) memory.set(rule, { mb: parsed.mb, text: key === 'mem_mb' ? `${parsed.mb}M` : value });
      else diagnostics.push(diagnostic('RUN018', `--set-resources ${text}: ${parsed.message}`));
    } else if (key === 'time_limit' || key === 'runtime') {
      // Snakemake's `runtime` is in minutes when it is a bare number.
      const limit = parseTimeLimit(/^\d+$/.test(value) ? `${value}m` : value);
      if (limit.ok) timeLimit.set(rule, { seconds: limit.seconds, text: value });
      else diagnostics.push(diagnostic('RUN018', `--set-resources ${text}: ${limit.message}`));
    } else {
      diagnostics.push(diagnostic('RUN018', `--set-resources ${text}: ${key} is not a resource oxo-flow sets (mem, mem_mb, time_limit, runtime); threads have --set-threads`));
    }
  }
  const env = flags.env ?? 'declared';
  if (env !== 'declared' && env !== 'auto' && env !== 'none') diagnostics.push(diagnostic('RUN018', `--env ${env}: expected declared, auto or none`));
  if (diagnostics.length > 0) return { diagnostics };
  const resources: ResourceSettings = { threads, memory, timeLimit, cores, memoryMb };
  return { cores, memoryMb, resources, env: env as RunSettings['env'] };
}

/** A cluster executor has its own nodes: nothing is capped there (--set-threads and --set-resources still apply). */
export function onCluster(settings: RunSettings): RunSettings {
  const { cores: _cores, memoryMb: _memoryMb, ...uncapped } = settings.resources;
  return { ...settings, resources: uncapped };
}

/** RUN018 for a --set-threads or --set-resources rule the workflow does not have. */
export function unknownRules(resources: ResourceSettings, rules: readonly string[]): Diagnostic[] {
  const known = new Set(rules);
  const named = [...(resources.threads?.keys() ?? []), ...(resources.memory?.keys() ?? []), ...(resources.timeLimit?.keys() ?? [])];
  return [...new Set(named)]
    .filter((r) => !known.has(r))
    .map((r) => diagnostic('RUN018', `--set-threads/--set-resources name rule ${r}, which the workflow does not have (rules: ${rules.join(', ')})`));
}


/** `--env` as the plan takes it: `auto` asks the environment backends whether their program is here. */
export function environmentChoice(env: RunSettings['env'], workflowDir: string, vars: Readonly<Record<string, string | undefined>>): EnvironmentChoice {
  if (env !== 'auto') return env;
  return (e) => environmentAbsent(e, workflowDir, stateDir(workflowDir), vars);
}
