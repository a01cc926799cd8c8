// The run record on disk: <workflow dir>/.oxo-flow/runs/<run id>/ holds
//   run.json     what ran and how it ended (rewritten atomically at the start and at the end),
//   jobs.json    the planned jobs (ids, rules, dependencies, commands as shown), written at the start,
//   trace.jsonl  one row per finished job, appended as each job ends,
//   trace.tsv    the same rows as a table, written whole as the run ends (store.ts ensureTraceTsv
//                writes it from trace.jsonl for a runner that died first),
//   events.jsonl the runner's events with their times (starts, process groups, retries, submissions,
//                notes; a job's end is its trace row), appended,
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

/**
 * The cells of trace.tsv, in order: each column's name and how it reads from a row. The file is
 * written once, as the run ends (not a line per job), so one table serves the header and the rows.
 */
const TRACE_CELLS: readonly (readonly [string, (r: TraceRow) => string | number | null])[] = [
  ['id', (r) => r.id],
  ['rule', (r) => r.rule],
  ['wildcards', (r) => Object.entries(r.wildcards).map(([k, v]) => `${k}=${v}`).join(',')],
  ['outcome', (r) => r.outcome],
  ['attempts', (r) => r.attempts],
  ['exit', (r) => r.exitCode ?? r.signal],
  ['start', (r) => r.startedAt],
  ['end', (r) => r.endedAt],
  ['wall_s', (r) => round(r.wallSeconds)],
  ['cpu_user_s', (r) => round(r.cpuUserSeconds)],
  ['cpu_sys_s', (r) => round(r.cpuSystemSeconds)],
  ['peak_rss_bytes', (r) => r.peakRssBytes],
  ['read_bytes', (r) => r.readBytes],
  ['written_bytes', (r) => r.writtenBytes],
  ['cpu_method', (r) => r.cpuMethod],
  ['executor', (r) => r.executor],
  ['executor_id', (r) => r.executorId],
  ['slurm_state', (r) => r.slurm?.state ?? null],
  ['slurm_elapsed', (r) => r.slurm?.elapsed ?? null],
  ['slurm_total_cpu', (r) => r.slurm?.totalCpu ?? null],
  ['slurm_max_rss', (r) => r.slurm?.maxRss ?? null],
  ['log', (r) => r.log],
  ['rule_log', (r) => r.ruleLog],
  ['command', (r) => r.command],
];

/** The column names of trace.tsv, in order. */
export const TRACE_COLUMNS: readonly string[] = TRACE_CELLS.map(([name]) => name);

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

/** One row of trace.tsv: its cells in the columns' order, escaped. */
export function traceLine(row: TraceRow): string {
  return `${TRACE_CELLS.map(([, get]) => tsvCell(get(row))).join('\t')}\n`;
}
