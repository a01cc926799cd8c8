// What a `script` rule's program learns about its job, in two forms every language reads without a
// library: environment variables (OXO_INPUT_0, OXO_PARAMS_MINLEN, …) and one JSON document, which
// the run writes to a file next to the job's log and names in OXO_JOB_JSON (src/run/lifecycle.ts).
// Like every value of a shell command, none is ever written into the command that starts the script.
import type { ConfigValue } from '../model.js';

export interface ScriptJob {
  rule: string;
  id: string;
  script: string;
  inputs: readonly string[];
  inputNames: Readonly<Record<string, number>>;
  outputs: readonly string[];
  outputNames: Readonly<Record<string, number>>;
  log?: string;
  threads: number;
  memory?: string;
  memoryMb?: number;
  gpu?: number;
  disk?: string;
  timeLimit?: string;
  timeLimitSeconds?: number;
  params: Readonly<Record<string, ConfigValue>>;
  wildcards: Readonly<Record<string, string>>;
  /** The config the job sees (sensitive values as the caller wants them shown). */
  config: ReadonlyMap<string, ConfigValue>;
  /** Keys the engine adds (samples_list, samples_<group>, pairs_list): in the JSON only, never in the environment. */
  engineKeys: ReadonlySet<string>;
}

/** The variable that names the job's JSON file (set by the run, not here: only the run knows where). */
export const JOB_JSON_VAR = 'OXO_JOB_JSON';

function upper(s: string): string {
  return s.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

/**
 * The job as environment variables. A list is `<NAME>_0`, `<NAME>_1`, … with `<NAME>_COUNT`; a
 * named input or output is also `OXO_INPUT_<NAME>`. Two keys whose names would agree (`a-b`, `a_b`)
 * get `_2`, `_3`; a wildcard never takes the place of one of the engine's own names.
 */
export function scriptEnv(job: ScriptJob): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  const own = new Set<string>();
  const put = (base: string, value: string) => {
    let name = base;
    for (let n = 2; own.has(name); n++) name = `${base}_${n}`;
    own.add(name);
    env[name] = value;
    return name;
  };
  const list = (base: string, values: readonly string[]) => {
    const name = put(`${base}_COUNT`, String(values.length)).slice(0, -'_COUNT'.length);
    values.forEach((v, i) => put(`${name}_${i}`, v));
  };
  const value = (base: string, v: ConfigValue) => (Array.isArray(v) ? list(base, v.map(String)) : put(base, String(v)));

  put('OXO_SCRIPT', job.script);
  put('OXO_RULE', job.rule);
  put('OXO_JOB_ID', job.id);
  list('OXO_INPUT', job.inputs);
  for (const [name, i] of Object.entries(job.inputNames)) put(`OXO_INPUT_${upper(name)}`, job.inputs[i]!);
  list('OXO_OUTPUT', job.outputs);
  for (const [name, i] of Object.entries(job.outputNames)) put(`OXO_OUTPUT_${upper(name)}`, job.outputs[i]!);
  if (job.log !== undefined) put('OXO_LOG', job.log);
  put('OXO_THREADS', String(job.threads));
  if (job.memory !== undefined) put('OXO_MEMORY', job.memory);
  if (job.memoryMb !== undefined) put('OXO_MEMORY_MB', String(job.memoryMb));
  if (job.gpu !== undefined) put('OXO_GPU', String(job.gpu));
  if (job.disk !== undefined) put('OXO_DISK', job.disk);
  if (job.timeLimit !== undefined) put('OXO_TIME_LIMIT', job.timeLimit);
  if (job.timeLimitSeconds !== undefined) put('OXO_TIME_LIMIT_SECONDS', String(job.timeLimitSeconds));
  for (const [k, v] of Object.entries(job.params)) value(`OXO_PARAMS_${upper(k)}`, v);
  for (const [k, v] of job.config) if (!job.engineKeys.has(k)) value(`OXO_CONFIG_${upper(k)}`, v);
  // Last, so the engine's names above stay what they say.
  for (const [k, v] of Object.entries(job.wildcards)) put(`OXO_${upper(k)}`, v);
  return env;
}

/**
 * The job as one JSON document: lists as arrays, numbers as numbers, unset values as null. `hide`
 * rewrites every string (the caller masks sensitive values there, wherever they were filled in).
 */
export function scriptJson(job: ScriptJob, hide: (text: string) => string = (t) => t): string {
  const named = (paths: readonly string[], names: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(names).map(([n, i]) => [n, paths[i]!]));
  const doc = {
    rule: job.rule,
    job: job.id,
    script: job.script,
    input: job.inputs,
    named_input: named(job.inputs, job.inputNames),
    output: job.outputs,
    named_output: named(job.outputs, job.outputNames),
    log: job.log ?? null,
    threads: job.threads,
    resources: {
      threads: job.threads,
      memory: job.memory ?? null,
      memory_mb: job.memoryMb ?? null,
      gpu: job.gpu ?? null,
      disk: job.disk ?? null,
      time_limit: job.timeLimit ?? null,
      time_limit_seconds: job.timeLimitSeconds ?? null,
    },
    params: job.params,
    wildcards: job.wildcards,
    config: Object.fromEntries(job.config),
  };
  return `${JSON.stringify(doc, (_key, v: unknown) => (typeof v === 'string' ? hide(v) : v), 2)}\n`;
}
