// Where run records live and how they are read back: `oxo-flow runs` and `oxo-flow report` read,
// the recorder writes. Reading never throws on a damaged record: a run whose run.json cannot be read
// is skipped with a reason, a trace line cut short by a killed runner is left out.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { traceTable, type PlannedJobRecord, type RunMeta, type TraceRow } from './types.js';

export function runsDir(workflowDir: string): string {
  return path.join(workflowDir, '.oxo-flow', 'runs');
}

/** Sortable and short: 20261201-211530-3fa2 (UTC time, then random hex). */
export function newRunId(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${randomBytes(2).toString('hex')}`;
}

/** Replace a file at once: a reader sees the old or the new text, never half of it. */
export function writeAtomic(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

export interface LoadedRun {
  dir: string;
  meta: RunMeta;
  /** True when run.json says running but its runner is gone (killed, crashed, machine lost). */
  incomplete: boolean;
}

/** Every run of the workflow directory, oldest first. */
export function listRuns(workflowDir: string): LoadedRun[] {
  const root = runsDir(workflowDir);
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  const out: LoadedRun[] = [];
  for (const name of names) {
    const run = loadRun(path.join(root, name));
    if (run !== undefined) out.push(run);
  }
  return out;
}

export function loadRun(dir: string): LoadedRun | undefined {
  let meta: RunMeta;
  try {
    meta = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunMeta;
  } catch {
    return undefined;
  }
  if (meta === null || typeof meta !== 'object' || typeof meta.id !== 'string') return undefined;
  return { dir, meta, incomplete: meta.status === 'running' && !runnerAlive(meta) };
}

/** A run by id, by a unique prefix of its id, or `last`/undefined for the newest. */
export function findRun(workflowDir: string, ref: string | undefined): { run: LoadedRun } | { error: string; known: string[] } {
  const runs = listRuns(workflowDir);
  if (runs.length === 0) return { error: 'no runs recorded yet', known: [] };
  if (ref === undefined || ref === 'last' || ref === 'latest') return { run: runs[runs.length - 1]! };
  const exact = runs.find((r) => r.meta.id === ref);
  if (exact !== undefined) return { run: exact };
  const prefix = runs.filter((r) => r.meta.id.startsWith(ref));
  if (prefix.length === 1) return { run: prefix[0]! };
  return { error: prefix.length > 1 ? `${ref} matches ${prefix.length} runs` : `no run ${ref}`, known: runs.map((r) => r.meta.id) };
}

/** Rows of trace.jsonl; the last line may be cut short by a killed runner and is then left out. */
export function readTrace(dir: string): TraceRow[] {
  return readJsonLines<TraceRow>(path.join(dir, 'trace.jsonl'));
}

/**
 * trace.tsv of a run whose runner died before writing it (the runner writes it once, as the run
 * ends): written from trace.jsonl, the same table the runner would have written for those rows.
 * Nothing is done for a finished run or one still running. Returns why it could not be written.
 */
export function ensureTraceTsv(run: LoadedRun): string | undefined {
  if (!run.incomplete) return undefined;
  const file = path.join(run.dir, 'trace.tsv');
  if (existsSync(file)) return undefined;
  try {
    writeAtomic(file, traceTable(readTrace(run.dir)));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export function readPlannedJobs(dir: string): PlannedJobRecord[] {
  try {
    const jobs = JSON.parse(readFileSync(path.join(dir, 'jobs.json'), 'utf8')) as unknown;
    return Array.isArray(jobs) ? (jobs as PlannedJobRecord[]) : [];
  } catch {
    return [];
  }
}

export interface TimedEvent {
  t: string;
  kind: string;
  id?: string;
  [key: string]: unknown;
}

export function readEvents(dir: string): TimedEvent[] {
  return readJsonLines<TimedEvent>(path.join(dir, 'events.jsonl'));
}

function readJsonLines<T>(file: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // A line cut short when the runner died.
    }
  }
  return out;
}

function runnerAlive(meta: RunMeta): boolean {
  if (meta.host?.name !== hostname()) return true; // cannot tell from here: not called incomplete
  try {
    process.kill(meta.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid may belong to another program by now.
  if (existsSync('/proc/self/cmdline')) {
    try {
      return readFileSync(`/proc/${meta.pid}/cmdline`, 'utf8').includes('oxo-flow');
    } catch {
      return false;
    }
  }
  return true;
}

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}
