// The run record on disk: <workflow dir>/.oxo-flow/runs/<run id>/ holds
//   run.json     what ran and how it ended (rewritten atomically at the start and at the end),
//   jobs.json    the planned jobs (ids, rules, dependencies, commands as shown), written at the start,
//   trace.jsonl  one row per finished job, appended as each job ends,
//   trace.tsv    the same rows as a table, written whole as the run ends (store.ts ensureTraceTsv
//                writes it from trace.jsonl for a runner that died first),
//   events.jsonl every runner event with its time, appended,
//   log.txt      what the terminal showed, without colour.
// A run.json still `running` whose runner is gone is an incomplete run (the runner was killed).

export const RECORD_VERSION = 1;

export type RunStatus = 'running' | 'ok' | 'failed' | 'interrupted';

export interface ToolVersion {
  rule: string;
  command: string;
  /** First line the command printed, or null when it failed. */
  version: string | null;
  error?: string;
}

export interface EnvironmentRecord {
  rule: string;
  kind: string;
  spec: string | string[];
  /** sha256 of an environment file (conda/mamba/pixi YAML or lock file), when one is named. */
  fileSha256?: string;
}

export interface RunMeta {
  version: typeof RECORD_VERSION;
  id: string;
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  /** The exit code the command ended with (0, 1, 130...). */
  exitCode?: number;
  oxoFlowVersion: string;
  workflow: { name: string; file: string; sha256: string; title?: string };
  /** Resolved config; values of `sensitive = true` keys read `***`. */
  config: Record<string, unknown>;
  sampleSheets: { path: string; sha256: string | null }[];
  commandLine: string[];
  host: { name: string; platform: string; arch: string; cpus: number; memoryBytes: number; node: string; user?: string };
  pid: number;
  /** The id its jobs carry as OXO_FLOW_RUN_ID, and their state records as `runId` (its journal's name). */
  jobRunId?: string;
  cwd: string;
  executor: string;
  limits?: { jobs: number; cores: number; memoryMb: number };
  environments: EnvironmentRecord[];
  tools: ToolVersion[];
  /** Versions read from MultiQC-style versions.yml files: file → process → tool → version. */
  versionsFiles: { path: string; versions: Record<string, Record<string, string>> }[];
  counts: { planned: number; toRun: number; done: number; failed: number; blocked: number; interrupted: number; notStarted: number };
}

export interface PlannedJobRecord {
  id: string;
  rule: string;
  wildcards: Record<string, string>;
  dependsOn: string[];
  level: number;
  /** run: part of this run; skip: up to date or switched off. */
  status: 'run' | 'skip';
  reason: string;
  threads: number;
  memoryMb?: number;
  command: string;
  log: string;
  ruleLog?: string;
}

export interface TraceRow {
  id: string;
  rule: string;
  wildcards: Record<string, string>;
  outcome: string;
  attempts: number;
  exitCode: number | null;
  signal: string | null;
  message: string | null;
  startedAt: string | null;
  endedAt: string | null;
  wallSeconds: number | null;
  cpuUserSeconds: number | null;
  cpuSystemSeconds: number | null;
  peakRssBytes: number | null;
  readBytes: number | null;
  writtenBytes: number | null;
  /** How the CPU figure was had (see src/run/record/sampler.ts). */
  cpuMethod: string;
  executor: string;
  /** Process group id of the last local attempt, or the Slurm job id. */
  executorId: string | null;
  /** Slurm's own figures from sacct, when accounting is on. */
  slurm?: { state?: string; elapsed?: string; totalCpu?: string; maxRss?: string; exitCode?: string };
  /** Job slot (0-based): which of the run's concurrent lanes it ran in, for the timeline. */
  slot: number | null;
  log: string;
  ruleLog: string | null;
  command: string;
  /**
   * The end of the job's log as the job finished (log-tail.ts), scrubbed with the rest of the row;
   * not in trace.tsv. Records written before it have none: the report then reads the log.
   */
  logTail?: string[];
}

/** The columns of trace.tsv, in order (traceLine writes a row's cells in the same order). */
export const TRACE_COLUMNS: readonly string[] = [
  'id',
  'rule',
  'wildcards',
  'outcome',
  'attempts',
  'exit',
  'start',
  'end',
  'wall_s',
  'cpu_user_s',
  'cpu_sys_s',
  'peak_rss_bytes',
  'read_bytes',
  'written_bytes',
  'cpu_method',
  'executor',
  'executor_id',
  'slurm_state',
  'slurm_elapsed',
  'slurm_total_cpu',
  'slurm_max_rss',
  'log',
  'rule_log',
  'command',
];

function round(v: number | null): number | null {
  return v === null ? null : Math.round(v * 1000) / 1000;
}

/** A TSV cell: tabs, newlines and backslashes escaped, so each row stays one line. */
export function tsvCell(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  if (!/[\t\n\r\\]/.test(v)) return v;
  return v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n');
}

const TRACE_HEADER = `${TRACE_COLUMNS.join('\t')}\n`;

export function traceHeader(): string {
  return TRACE_HEADER;
}

/** trace.tsv, whole: the header and a line per row. */
export function traceTable(rows: readonly TraceRow[]): string {
  let text = TRACE_HEADER;
  for (const r of rows) text += traceLine(r);
  return text;
}

/** One row of trace.tsv: the cells of TRACE_COLUMNS, in that order, in one template. */
export function traceLine(r: TraceRow): string {
  const c = tsvCell;
  const s = r.slurm;
  let wildcards = '';
  for (const k in r.wildcards) wildcards += `${wildcards === '' ? '' : ','}${k}=${r.wildcards[k]}`;
  return `${c(r.id)}\t${c(r.rule)}\t${c(wildcards)}\t${c(r.outcome)}\t${r.attempts}\t${c(r.exitCode ?? r.signal)}\t${c(r.startedAt)}\t${c(r.endedAt)}\t${c(round(r.wallSeconds))}\t${c(round(r.cpuUserSeconds))}\t${c(round(r.cpuSystemSeconds))}\t${c(r.peakRssBytes)}\t${c(r.readBytes)}\t${c(r.writtenBytes)}\t${c(r.cpuMethod)}\t${c(r.executor)}\t${c(r.executorId)}\t${c(s?.state ?? null)}\t${c(s?.elapsed ?? null)}\t${c(s?.totalCpu ?? null)}\t${c(s?.maxRss ?? null)}\t${c(r.log)}\t${c(r.ruleLog)}\t${c(r.command)}\n`;
}
