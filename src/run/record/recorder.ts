// The run recorder: fed the runner's events (src/run/events.ts) by the run command, it keeps the
// run record (see types.ts). It never sits on a job's path: events are bookkeeping in memory, file
// writes are queued (append.ts), and the only synchronous writes are run.json at the start and the
// end. A finished job's trace row is appended to trace.jsonl as it finishes, so a runner killed with -9
// leaves every finished job's row, and a run.json still `running` that `oxo-flow runs` calls
// incomplete. trace.tsv, the same rows as a table, is written once, as the run ends (or as the recorder
// is closed on an error path); for a runner that never got there, `runs` and `report` write it from
// trace.jsonl (store.ts ensureTraceTsv).
import { spawnSync } from 'node:child_process';
import { hostname, platform, arch, availableParallelism, totalmem, userInfo } from 'node:os';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { redactorFor } from '../../ai/secrets.js';
import type { Workflow } from '../../workflow/model.js';
import type { Plan } from '../../workflow/plan/index.js';
import type { JobResult, RunEvent, RunReport } from '../events.js';
import type { PreparedJob } from '../preflight.js';
import { Appender } from './append.js';
import { environments, maskedConfig, readVersionsYml, sampleSheets, sha256File, toolVersions } from './provenance.js';
import { isoTime } from './iso-time.js';
import { jobLogTail } from './log-tail.js';
import { ResourceSampler, type Usage } from './sampler.js';
import { ensureDir, newRunId, runsDir, writeAtomic } from './store.js';
import { RECORD_VERSION, traceTable, type PlannedJobRecord, type RunMeta, type RunStatus, type TraceRow } from './types.js';

export interface RecorderStart {
  workflow: Workflow;
  plan: Plan;
  /** The jobs this run executes. */
  jobs: readonly PreparedJob[];
  /** local, slurm, sge... */
  executor: string;
  limits?: { jobs: number; cores: number; memoryMb: number };
  oxoFlowVersion: string;
  /** Already masked (provenance.ts maskedCommandLine). */
  commandLine: string[];
  overrides: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Values never written (credentials, sensitive config): replaced by *** in every file. */
  secrets: ReadonlySet<string>;
  /** The clock, in milliseconds (default Date.now). */
  now?: () => number;
  /** Sampling interval of the resource sampler (default 100 ms). */
  sampleMs?: number;
  /** The run id its jobs and their state records carry (OXO_FLOW_RUN_ID). */
  jobRunId?: string;
}

interface Live {
  id: string;
  startedAt?: number;
  attempts: number;
  exitCode: number | null;
  signal: string | null;
  executorId: string | null;
  slot: number | null;
  usage: Usage[];
  written: boolean;
  /** The last attempt wrote nothing and left no log: no tail to read. */
  silent: boolean;
}

/** Events whose facts the job's trace row carries (exit code, signal, CPU, outcome, message, end time). */
const ENDS: ReadonlySet<RunEvent['kind']> = new Set(['exited', 'done', 'failed', 'blocked']);

export class RunRecorder {
  readonly id: string;
  readonly dir: string;
  readonly #meta: RunMeta;
  readonly #now: () => number;
  readonly #sampler: ResourceSampler;
  readonly #specs = new Map<string, PreparedJob>();
  readonly #live = new Map<string, Live>();
  readonly #rows: TraceRow[] = [];
  readonly #rowOf = new Map<string, TraceRow>();
  readonly #events: Appender;
  readonly #trace: Appender;
  readonly #log: Appender;
  readonly #scrub: (text: string) => string;
  readonly #versionFiles: string[];
  readonly #versionCommands: ReturnType<typeof firstOfEachRule>;
  readonly #workflowDir: string;
  readonly #env: NodeJS.ProcessEnv;
  /** Free job slots, for the timeline: a job takes the lowest free one as it starts. */
  readonly #slots: boolean[] = [];
  #closed = false;
  #amended = false;

  constructor(start: RecorderStart) {
    this.#now = start.now ?? Date.now;
    const now = new Date(this.#now());
    this.id = newRunId(now);
    this.dir = path.join(runsDir(start.workflow.dir), this.id);
    ensureDir(this.dir);
    // Every file of the record is JSON or TSV text: the redactor also masks a secret's escaped form.
    this.#scrub = redactorFor([...start.secrets]);
    this.#workflowDir = start.workflow.dir;
    this.#env = start.env;
    this.#sampler = new ResourceSampler(start.sampleMs !== undefined ? { intervalMs: start.sampleMs } : {});
    for (const j of start.jobs) this.#specs.set(j.spec.id, j);

    const wf = start.workflow;
    let user: string | undefined;
    try {
      user = userInfo().username;
    } catch {
      user = undefined;
    }
    this.#versionCommands = firstOfEachRule(start.jobs, wf);
    this.#meta = {
      version: RECORD_VERSION,
      id: this.id,
      status: 'running',
      startedAt: now.toISOString(),
      oxoFlowVersion: start.oxoFlowVersion,
      workflow: { name: wf.meta.name, file: path.relative(wf.dir, wf.file) || wf.file, sha256: sha256File(wf.file) ?? '', ...(wf.report?.title !== undefined ? { title: wf.report.title } : {}) },
      config: maskedConfig(wf, start.overrides),
      sampleSheets: sampleSheets(wf),
      commandLine: start.commandLine,
      host: { name: hostname(), platform: platform(), arch: arch(), cpus: availableParallelism(), memoryBytes: totalmem(), node: process.version, ...(user !== undefined ? { user } : {}) },
      pid: process.pid,
      ...(start.jobRunId !== undefined ? { jobRunId: start.jobRunId } : {}),
      cwd: start.cwd,
      executor: start.executor,
      ...(start.limits !== undefined ? { limits: start.limits } : {}),
      environments: environments(wf),
      tools: [],
      versionsFiles: [],
      counts: { planned: start.plan.summary.jobs, toRun: start.jobs.length, done: 0, failed: 0, blocked: 0, interrupted: 0, notStarted: 0 },
    };
    this.#versionFiles = versionsCandidates(start.jobs, wf.dir);
    this.#writeMeta();
    writeFileSync(path.join(this.dir, 'jobs.json'), this.#scrub(JSON.stringify(plannedJobs(start.plan, this.#specs))));
    this.#events = new Appender(path.join(this.dir, 'events.jsonl'), this.#scrub);
    this.#trace = new Appender(path.join(this.dir, 'trace.jsonl'), this.#scrub);
    this.#log = new Appender(path.join(this.dir, 'log.txt'), (t) => this.#scrub(stripAnsi(t)));
  }

  /**
   * Run the rules' version commands (together) and record what they print. Call it before the first
   * job starts: their processes are reaped by this one, and must not count as a job's (sampler.ts).
   */
  async recordTools(): Promise<void> {
    if (this.#versionCommands.length === 0) return;
    this.#meta.tools = await toolVersions(this.#versionCommands, { cwd: this.#workflowDir, env: this.#env });
    this.#writeMeta();
  }

  /** The run's own log: give it to a plain (non-terminal, colourless) progress as its stream. */
  get logStream(): { write(text: string): boolean } {
    return {
      write: (text: string) => {
        this.#log.write(text);
        return true;
      },
    };
  }

  log(text: string): void {
    this.#log.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  event(e: RunEvent): void {
    if (this.#closed) return;
    const t = this.#now();
    // The line is {"t": …, …the event}: the event's own JSON with the time put first. A job's end
    // (its exit, done, failed, blocked) is its trace row, written at the same moment: not a line here too.
    if (!ENDS.has(e.kind)) this.#events.write(`{"t":"${isoTime(t)}",${JSON.stringify(e).slice(1)}\n`);
    if (e.kind === 'note') return;
    const live = this.#liveOf(e.id);
    switch (e.kind) {
      case 'start':
        live.startedAt ??= t;
        live.attempts = e.attempt;
        live.slot ??= this.#takeSlot();
        break;
      case 'retry':
        live.attempts = e.attempt;
        break;
      case 'spawned':
        live.executorId = String(e.pgid);
        this.#sampler.begin(`${e.id}#${e.attempt}`, e.pgid);
        break;
      case 'exited':
        live.exitCode = e.code;
        live.signal = e.signal;
        live.silent = e.silent === true;
        live.usage.push(this.#sampler.end(`${e.id}#${e.attempt}`, e.cpu));
        break;
      case 'submitted':
        live.executorId = e.slurmJobId;
        live.startedAt ??= t;
        live.attempts = Math.max(1, live.attempts);
        live.slot ??= this.#takeSlot();
        break;
      case 'done':
        this.#finishJob(live, 'done', null, t);
        break;
      case 'failed':
        this.#finishJob(live, 'failed', e.message, t);
        break;
      case 'blocked':
        this.#finishJob(live, 'blocked', `needs ${e.blockedBy}, which failed`, t);
        break;
    }
  }

  /** The run ended: rows for the jobs that never finished, Slurm's figures, tool versions, run.json. */
  finish(report: RunReport, status: Exclude<RunStatus, 'running'>, exitCode: number): void {
    if (this.#closed) return;
    const t = this.#now();
    for (const r of report.results) {
      const live = this.#liveOf(r.id);
      if (!live.written) this.#finishJob(live, r.outcome, r.message ?? null, t, r);
      else this.#amend(r);
    }
    let rewrite = false;
    if (this.#meta.executor === 'slurm') rewrite = this.#addSacct(this.#env);
    this.#meta.versionsFiles = this.#versionFiles.flatMap((f) => {
      const versions = readVersionsYml(f);
      return versions === undefined ? [] : [{ path: path.relative(this.#workflowDir, f) || f, versions }];
    });
    const c = this.#meta.counts;
    for (const row of this.#rows) {
      if (row.outcome === 'done') c.done++;
      else if (row.outcome === 'failed' || row.outcome === 'timed out') c.failed++;
      else if (row.outcome === 'blocked') c.blocked++;
      else if (row.outcome === 'interrupted') c.interrupted++;
      else if (row.outcome === 'not started') c.notStarted++;
    }
    this.#meta.status = status;
    this.#meta.exitCode = exitCode;
    this.#meta.endedAt = isoTime(t);
    this.#closeFiles();
    if (rewrite || this.#amended) writeAtomic(path.join(this.dir, 'trace.jsonl'), this.#scrub(this.#rows.map((r) => `${JSON.stringify(r)}\n`).join('')));
    this.#writeTraceTsv();
    this.#writeMeta();
  }

  /** The trace rows so far, in the order jobs finished. */
  rows(): readonly TraceRow[] {
    return this.#rows;
  }

  /**
   * Flush and close the files; run.json is left as it is (an error path: it stays `running`), and
   * trace.tsv gets the rows so far. finish() writes trace.tsv itself, after the last changes to rows.
   */
  close(): void {
    if (this.#closed) return;
    this.#closeFiles();
    try {
      this.#writeTraceTsv();
    } catch {
      // An error path already: `runs` and `report` write it from trace.jsonl (store.ts ensureTraceTsv).
    }
  }

  #closeFiles(): void {
    this.#closed = true;
    this.#sampler.close();
    this.#events.close();
    this.#trace.close();
    this.#log.close();
  }

  /** trace.tsv, whole, from the rows: written once, when the rows are final. */
  #writeTraceTsv(): void {
    writeAtomic(path.join(this.dir, 'trace.tsv'), this.#scrub(traceTable(this.#rows)));
  }


  /** The runner's final word on a job whose row is written (e.g. a failed job's exact outcome). */
  #amend(r: JobResult): void {
    const row = this.#rowOf.get(r.id);
    if (row === undefined) return;
    if (row.outcome !== r.outcome || row.attempts !== r.attempts) {
      row.outcome = r.outcome;
      row.attempts = r.attempts;
      this.#amended = true;
    }
  }

  #liveOf(id: string): Live {
    let live = this.#live.get(id);
    if (live === undefined) {
      live = { id, attempts: 0, exitCode: null, signal: null, executorId: null, slot: null, usage: [], written: false, silent: false };
      this.#live.set(id, live);
    }
    return live;
  }

  #takeSlot(): number {
    let i = this.#slots.indexOf(false);
    if (i < 0) {
      i = this.#slots.length;
      this.#slots.push(true);
    } else this.#slots[i] = true;
    return i;
  }

  #finishJob(live: Live, outcome: string, message: string | null, t: number, result?: JobResult): void {
    if (live.written) return;
    live.written = true;
    if (live.slot !== null) this.#slots[live.slot] = false;
    const job = this.#specs.get(live.id);
    const spec = job?.spec;
    const u = live.usage.length === 1 ? live.usage[0]! : attemptsTogether(live.usage);
    const row: TraceRow = {
      id: live.id,
      rule: spec?.rule ?? result?.rule ?? live.id.replace(/\[.*$/, ''),
      wildcards: spec?.wildcards ?? {},
      outcome,
      attempts: result?.attempts ?? live.attempts,
      exitCode: live.exitCode,
      signal: live.signal,
      message,
      startedAt: live.startedAt !== undefined ? isoTime(live.startedAt) : null,
      endedAt: live.startedAt !== undefined ? isoTime(t) : null,
      wallSeconds: live.startedAt !== undefined ? (t - live.startedAt) / 1000 : null,
      cpuUserSeconds: u.userSeconds,
      cpuSystemSeconds: u.systemSeconds,
      peakRssBytes: u.peakRssBytes,
      readBytes: u.readBytes,
      writtenBytes: u.writtenBytes,
      cpuMethod: u.cpuMethod,
      executor: this.#meta.executor,
      executorId: live.executorId,
      slot: live.slot,
      log: job?.logPath ?? result?.log ?? '',
      ruleLog: spec?.log ?? result?.ruleLog ?? null,
      command: job?.shownCommand ?? '',
    };
    if (outcome !== 'not started' && outcome !== 'blocked') {
      row.logTail = outcome === 'done' && live.silent ? [] : jobLogTail(this.#workflowDir, row.log, row.ruleLog, outcome === 'failed' || outcome === 'timed out');
    }
    this.#rows.push(row);
    this.#rowOf.set(row.id, row);
    this.#trace.write(`${JSON.stringify(row)}\n`);
  }

  #writeMeta(): void {
    writeAtomic(path.join(this.dir, 'run.json'), `${this.#scrub(JSON.stringify(this.#meta, null, 2))}\n`);
  }

  /** sacct's figures for each Slurm job, when accounting answers; true when any row changed. */
  #addSacct(env: NodeJS.ProcessEnv): boolean {
    const ids = this.#rows.map((r) => r.executorId).filter((v): v is string => v !== null && /^\d+(_\d+)?$/.test(v));
    if (ids.length === 0) return false;
    // The accounting database first; without one, the job completion log (`sacct -c`: state, elapsed, exit).
    let figures = new Map<string, NonNullable<TraceRow['slurm']>>();
    for (const extra of [[], ['-c']]) {
      const r = spawnSync('sacct', [...extra, '-n', '-P', '-j', ids.join(','), '-o', 'JobID,State,Elapsed,TotalCPU,MaxRSS,ExitCode'], { env, encoding: 'utf8', timeout: 20_000 });
      if (r.status === 0 && typeof r.stdout === 'string') {
        figures = parseSacct(r.stdout);
        if (figures.size > 0) break;
      }
    }
    let changed = false;
    for (const row of this.#rows) {
      const f = row.executorId !== null ? figures.get(row.executorId) : undefined;
      if (f === undefined) continue;
      row.slurm = f;
      changed = true;
    }
    return changed;
  }
}

/** A job's attempts as one: CPU and I/O add up, the peak is the largest attempt's; the methods are joined (`exact+sampled`). */
function attemptsTogether(usage: readonly Usage[]): Pick<Usage, 'userSeconds' | 'systemSeconds' | 'peakRssBytes' | 'readBytes' | 'writtenBytes'> & { cpuMethod: string } {
  const sum = (pick: (u: Usage) => number | null) => {
    let total: number | null = null;
    for (const u of usage) {
      const v = pick(u);
      if (v !== null) total = (total ?? 0) + v;
    }
    return total;
  };
  let peak: number | null = null;
  for (const u of usage) if (u.peakRssBytes !== null && (peak === null || u.peakRssBytes > peak)) peak = u.peakRssBytes;
  const methods = [...new Set(usage.map((u) => u.cpuMethod))];
  return {
    userSeconds: sum((u) => u.userSeconds),
    systemSeconds: sum((u) => u.systemSeconds),
    peakRssBytes: peak,
    readBytes: sum((u) => u.readBytes),
    writtenBytes: sum((u) => u.writtenBytes),
    cpuMethod: methods.length === 0 ? 'none' : methods.join('+'),
  };
}

/** `sacct -P` rows: the job's own line has State, Elapsed, TotalCPU and ExitCode; steps carry MaxRSS. */
export function parseSacct(text: string): Map<string, NonNullable<TraceRow['slurm']>> {
  const out = new Map<string, NonNullable<TraceRow['slurm']>>();
  for (const line of text.split('\n')) {
    const [jobId, state, elapsed, totalCpu, maxRss, exitCode] = line.split('|');
    if (jobId === undefined || jobId === '' || state === undefined) continue;
    const base = jobId.split('.')[0]!;
    const f = out.get(base) ?? {};
    if (jobId === base) {
      f.state = state;
      if (elapsed) f.elapsed = elapsed;
      if (totalCpu) f.totalCpu = totalCpu;
      if (exitCode) f.exitCode = exitCode;
    }
    if (maxRss) f.maxRss = larger(f.maxRss, maxRss);
    out.set(base, f);
  }
  return out;
}

function larger(a: string | undefined, b: string): string {
  const bytes = (s: string) => {
    const m = /^([\d.]+)([KMGT]?)$/.exec(s);
    if (!m) return 0;
    return Number(m[1]) * 1024 ** ' KMGT'.indexOf(m[2] || ' ');
  };
  return a === undefined || bytes(b) > bytes(a) ? b : a;
}

function firstOfEachRule(jobs: readonly PreparedJob[], workflow: Workflow): { rule: string; command: string; argv: string[]; env?: Record<string, string> }[] {
  const out: { rule: string; command: string; argv: string[]; env?: Record<string, string> }[] = [];
  const seen = new Set<string>();
  for (const rule of workflow.rules) {
    if (rule.versionCommand === undefined || seen.has(rule.name)) continue;
    const job = jobs.find((j) => j.spec.rule === rule.name);
    seen.add(rule.name);
    const launch = job !== undefined ? job.launch(rule.versionCommand) : { argv: ['/bin/sh', '-c', rule.versionCommand] };
    out.push({ rule: rule.name, command: rule.versionCommand, argv: launch.argv, ...(launch.env !== undefined ? { env: launch.env } : {}) });
  }
  return out;
}

/** versions.yml at the top of the workflow directory, and any declared output named *versions.yml. */
function versionsCandidates(jobs: readonly PreparedJob[], dir: string): string[] {
  const out = new Set<string>([path.join(dir, 'versions.yml')]);
  for (const j of jobs) for (const o of j.spec.outputs) if (/(^|[/_.-])versions\.ya?ml$/.test(o)) out.add(path.resolve(dir, o));
  return [...out];
}

function plannedJobs(plan: Plan, running: ReadonlyMap<string, PreparedJob>): PlannedJobRecord[] {
  return plan.jobs.map((j) => {
    const prepared = running.get(j.id);
    const rec: PlannedJobRecord = {
      id: j.id,
      rule: j.rule,
      wildcards: j.wildcards,
      dependsOn: j.dependsOn,
      level: j.level,
      status: prepared !== undefined ? 'run' : 'skip',
      reason: j.reason,
      threads: j.threads,
      command: prepared?.shownCommand ?? j.shownCommand,
      log: prepared?.logPath ?? '',
    };
    if (j.memoryMb !== undefined) rec.memoryMb = j.memoryMb;
    if (j.log !== undefined) rec.ruleLog = j.log;
    return rec;
  });
}

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}
