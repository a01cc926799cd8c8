// The report's data, built from one run record: every planned job with its trace row (or why it has
// none), the rule graph laid out in layers, per-rule CPU and memory figures, and the provenance block.
// `oxo-flow report --format json` writes exactly this; the HTML page embeds it and draws from it.
// Every step is linear in jobs plus dependencies (the page must stay usable at 10,000 jobs).
import path from 'node:path';
import { jobLogTail } from '../run/record/log-tail.js';
import { readEvents, readPlannedJobs, readTrace, type LoadedRun } from '../run/record/store.js';
import type { PlannedJobRecord, RunMeta, TraceRow } from '../run/record/types.js';

export const REPORT_FORMAT = 'oxo-flow-report';
export const REPORT_VERSION = 1;

export type JobState = 'done' | 'failed' | 'timed out' | 'blocked' | 'interrupted' | 'not started' | 'skipped' | 'running';

export interface ReportJob {
  id: string;
  rule: string;
  wildcards: Record<string, string>;
  state: JobState;
  /** Indices into `jobs` of the jobs this one waits for. */
  deps: number[];
  level: number;
  /** Milliseconds from the run's start, when it ran. */
  start: number | null;
  end: number | null;
  slot: number | null;
  attempts: number;
  exit: string | null;
  message: string | null;
  cpu: number | null;
  cpuUser: number | null;
  cpuSystem: number | null;
  rss: number | null;
  read: number | null;
  written: number | null;
  executorId: string | null;
  slurm?: TraceRow['slurm'];
  command: string;
  log: string;
  ruleLog: string | null;
  /** The last lines of the job's log (more for a failed job). */
  logTail: string[];
}

export interface ReportRule {
  name: string;
  /** Layer in the rule graph (longest path from a rule that needs nothing). */
  layer: number;
  /** Position within its layer. */
  order: number;
  jobs: number;
  counts: Partial<Record<JobState, number>>;
  state: JobState;
  cpu: { median: number | null; max: number | null; total: number };
  rss: { median: number | null; max: number | null };
  wall: { median: number | null; max: number | null };
}

export interface ReportData {
  format: typeof REPORT_FORMAT;
  version: typeof REPORT_VERSION;
  title: string;
  generatedAt: string;
  /** The run's status as `oxo-flow runs` shows it (incomplete when its runner died). */
  status: string;
  run: RunMeta;
  durationMs: number | null;
  slots: number;
  jobs: ReportJob[];
  rules: ReportRule[];
  /** Rule graph edges as [from, to] indices into `rules`. */
  ruleEdges: [number, number][];
}

/**
 * `redact` masks what the reader of the page must not see in a log tail read here, from the file:
 * only for a job whose trace row carries none (a record from before rows kept their tail, or a job
 * still running); the rows' own tails were scrubbed as the run recorded them.
 */
export function buildReport(run: LoadedRun, options: { now?: Date; title?: string; redact?: (text: string) => string } = {}): ReportData {
  const meta = run.meta;
  const planned = readPlannedJobs(run.dir);
  const trace = readTrace(run.dir);
  const t0 = Date.parse(meta.startedAt);
  const rowOf = new Map<string, TraceRow>();
  for (const r of trace) rowOf.set(r.id, r);
  const started = startedWithoutRow(run, rowOf);
  const workflowDir = path.dirname(path.dirname(path.dirname(run.dir)));
  const redact = options.redact ?? ((text: string) => text);

  // Jobs: the plan's order; a traced job the plan does not know (an old record) is added at the end.
  const plannedIds = new Set(planned.map((p) => p.id));
  const all: PlannedJobRecord[] = [...planned];
  for (const r of trace) if (!plannedIds.has(r.id)) all.push({ id: r.id, rule: r.rule, wildcards: r.wildcards, dependsOn: [], level: 0, status: 'run', reason: '', threads: 1, command: r.command, log: r.log });
  const index = new Map<string, number>();
  all.forEach((j, i) => index.set(j.id, i));

  const jobs: ReportJob[] = all.map((p) => {
    const r = rowOf.get(p.id);
    const state: JobState = r !== undefined ? (r.outcome as JobState) : p.status === 'skip' ? 'skipped' : started.has(p.id) ? (run.incomplete || meta.status === 'running' ? 'running' : 'interrupted') : 'not started';
    const failed = state === 'failed' || state === 'timed out';
    const startMs = r?.startedAt ? Date.parse(r.startedAt) - t0 : (started.get(p.id) ?? null);
    const cpu = r && r.cpuUserSeconds !== null && r.cpuSystemSeconds !== null ? r.cpuUserSeconds + r.cpuSystemSeconds : null;
    const logFile = relative(workflowDir, r?.log ?? p.log);
    const job: ReportJob = {
      id: p.id,
      rule: p.rule,
      wildcards: p.wildcards,
      state,
      deps: p.dependsOn.map((d) => index.get(d)).filter((i): i is number => i !== undefined),
      level: p.level,
      start: startMs,
      end: r?.endedAt ? Date.parse(r.endedAt) - t0 : null,
      slot: r?.slot ?? null,
      attempts: r?.attempts ?? 0,
      exit: r ? (r.exitCode !== null ? String(r.exitCode) : r.signal) : null,
      message: r?.message ?? null,
      cpu,
      cpuUser: r?.cpuUserSeconds ?? null,
      cpuSystem: r?.cpuSystemSeconds ?? null,
      rss: r?.peakRssBytes ?? null,
      read: r?.readBytes ?? null,
      written: r?.writtenBytes ?? null,
      executorId: r?.executorId ?? null,
      command: p.command || r?.command || '',
      log: logFile,
      ruleLog: r?.ruleLog ?? p.ruleLog ?? null,
      logTail: state === 'skipped' || state === 'not started' ? [] : (r?.logTail ?? jobLogTail(workflowDir, logFile, r?.ruleLog ?? p.ruleLog ?? null, failed).map(redact)),
    };
    if (r?.slurm !== undefined) job.slurm = r.slurm;
    return job;
  });
  assignSlots(jobs);

  const { rules, ruleEdges } = ruleGraph(jobs);
  const ends = jobs.map((j) => j.end).filter((e): e is number => e !== null);
  const durationMs = meta.endedAt !== undefined ? Date.parse(meta.endedAt) - t0 : ends.length > 0 ? Math.max(...ends) : null;
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    title: options.title ?? meta.workflow.title ?? `${meta.workflow.name}: run ${meta.id}`,
    generatedAt: (options.now ?? new Date()).toISOString(),
    status: run.incomplete ? 'incomplete' : meta.status,
    run: meta,
    durationMs,
    slots: jobs.reduce((m, j) => (j.slot !== null && j.slot + 1 > m ? j.slot + 1 : m), 0),
    jobs,
    rules,
    ruleEdges,
  };
}

/** Jobs of an incomplete or interrupted run that started but have no trace row: ms from the start. */
function startedWithoutRow(run: LoadedRun, rows: ReadonlyMap<string, TraceRow>): Map<string, number> {
  const out = new Map<string, number>();
  if (run.meta.status !== 'running' && run.meta.status !== 'interrupted') return out;
  const t0 = Date.parse(run.meta.startedAt);
  for (const e of readEvents(run.dir)) {
    if ((e.kind === 'start' || e.kind === 'submitted') && typeof e.id === 'string' && !rows.has(e.id) && !out.has(e.id)) out.set(e.id, Date.parse(e.t) - t0);
  }
  return out;
}

/** Jobs from older records have no slot: interval partitioning by start time (a min-heap of lane ends). */
function assignSlots(jobs: ReportJob[]): void {
  const timed = jobs.filter((j) => j.start !== null && j.slot === null);
  if (timed.length === 0) return;
  timed.sort((a, b) => a.start! - b.start!);
  const used = new Set(jobs.map((j) => j.slot).filter((s): s is number => s !== null));
  let next = used.size === 0 ? 0 : Math.max(...used) + 1;
  const heap: [number, number][] = []; // [end, slot]
  const push = (x: [number, number]) => {
    heap.push(x);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p]![0] <= heap[i]![0]) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l]![0] < heap[m]![0]) m = l;
        if (r < heap.length && heap[r]![0] < heap[m]![0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };
  for (const j of timed) {
    const end = j.end ?? j.start!;
    if (heap.length > 0 && heap[0]![0] <= j.start!) {
      const [, slot] = pop();
      j.slot = slot;
    } else j.slot = next++;
    push([end, j.slot]);
  }
}

/** Rules in layers (longest path over rule-to-rule edges), ordered within a layer by first appearance. */
function ruleGraph(jobs: readonly ReportJob[]): { rules: ReportRule[]; ruleEdges: [number, number][] } {
  const names: string[] = [];
  const ruleIndex = new Map<string, number>();
  const byRule: ReportJob[][] = [];
  for (const j of jobs) {
    let i = ruleIndex.get(j.rule);
    if (i === undefined) {
      i = names.length;
      ruleIndex.set(j.rule, i);
      names.push(j.rule);
      byRule.push([]);
    }
    byRule[i]!.push(j);
  }
  const edgeKeys = new Set<number>();
  const edges: [number, number][] = [];
  const n = names.length;
  for (const j of jobs) {
    const to = ruleIndex.get(j.rule)!;
    for (const d of j.deps) {
      const from = ruleIndex.get(jobs[d]!.rule)!;
      if (from === to) continue;
      const key = from * n + to;
      if (edgeKeys.has(key)) continue;
      edgeKeys.add(key);
      edges.push([from, to]);
    }
  }
  // Longest-path layers (Kahn's order); a cycle cannot occur in a plan, but a bad record must not hang.
  const indeg = new Array<number>(n).fill(0);
  const out: number[][] = names.map(() => []);
  for (const [a, b] of edges) {
    indeg[b]! += 1;
    out[a]!.push(b);
  }
  const layer = new Array<number>(n).fill(0);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue.push(i);
  for (let q = 0; q < queue.length; q++) {
    const a = queue[q]!;
    for (const b of out[a]!) {
      if (layer[a]! + 1 > layer[b]!) layer[b] = layer[a]! + 1;
      if (--indeg[b]! === 0) queue.push(b);
    }
  }
  const perLayer = new Map<number, number>();
  const rules: ReportRule[] = names.map((name, i) => {
    const js = byRule[i]!;
    const counts: Partial<Record<JobState, number>> = {};
    for (const j of js) counts[j.state] = (counts[j.state] ?? 0) + 1;
    const order = perLayer.get(layer[i]!) ?? 0;
    perLayer.set(layer[i]!, order + 1);
    const cpus = js.map((j) => j.cpu).filter((v): v is number => v !== null);
    const rss = js.map((j) => j.rss).filter((v): v is number => v !== null);
    const walls = js.filter((j) => j.start !== null && j.end !== null).map((j) => (j.end! - j.start!) / 1000);
    return {
      name,
      layer: layer[i]!,
      order,
      jobs: js.length,
      counts,
      state: ruleState(counts),
      cpu: { ...stats(cpus), total: cpus.reduce((a, b) => a + b, 0) },
      rss: stats(rss),
      wall: stats(walls),
    };
  });
  return { rules, ruleEdges: edges };
}

function ruleState(c: Partial<Record<JobState, number>>): JobState {
  for (const s of ['failed', 'timed out', 'running', 'interrupted', 'blocked'] as const) if (c[s]) return s;
  if (c.done) return 'done';
  if (c['not started']) return 'not started';
  return 'skipped';
}

function stats(values: number[]): { median: number | null; max: number | null } {
  if (values.length === 0) return { median: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, max: sorted[sorted.length - 1]! };
}

function relative(dir: string, file: string): string {
  if (file === '' || !path.isAbsolute(file)) return file;
  const rel = path.relative(dir, file);
  return rel.startsWith('..') ? file : rel;
}

