// A batch scheduler as an executor. What Slurm, Grid Engine and any other scheduler share is here:
// the batch script, exit-status files, one poller for all jobs, cancelling and adopting. What differs
// (the submit, queue and cancel commands and their flags) is a driver (slurm.ts, sge.ts).
//
// The batch script runs the same argument list a local run starts, each word quoted (no second shell
// re-reads the command), then writes the command's exit status to a file next to the state. The runner
// watches those files (cheap, no load on the scheduler) and asks the scheduler's queue only every
// poll interval, to notice jobs that ended without writing one (cancelled, out of time, node lost).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { shellQuote } from '../../workflow/render/shell-quote.js';
import type { PreparedJob } from '../preflight.js';
import type { SectionOptions } from '../profile.js';
import { stateDir, type JobRecord } from '../state.js';
import type { Ended, Executor, ExecutorContext, StartRequest, Started } from './types.js';

export interface SubmitRequest {
  /** The scheduler's job name (checked by checkName before anything is submitted). */
  name: string;
  /** The runner's log of the job: absolute, and relative to the workflow directory (the scheduler appends to it). */
  logPath: string;
  logRel: string;
  /** The workflow directory: the submit command runs there, and the job starts there. */
  cwd: string;
  script: string;
  threads: number;
  memoryMb?: number;
  timeLimitSeconds?: number;
  gpu?: number;
  /** The profile's section for this job's rule, with command-line overrides. */
  options: SectionOptions;
  env: NodeJS.ProcessEnv;
}

export interface ClusterDriver {
  /** Executor name (`--executor NAME`) and profile section. */
  name: string;
  label: string;
  /** The code for "not available" and for "a job failed". */
  codes: { unavailable: 'RUN030' | 'RUN033'; failed: 'RUN032' | 'RUN034' };
  available(env: NodeJS.ProcessEnv): { ok: true } | { ok: false; why: string };
  /** Why the scheduler would refuse this job name, or undefined. */
  checkName(name: string): string | undefined;
  submit(request: SubmitRequest): { ok: true; id: string } | { ok: false; message: string };
  /** Id → state of the jobs the queue still lists, or undefined when the queue could not be read. */
  queue(env: NodeJS.ProcessEnv): Map<string, string> | undefined;
  /** True for a queue state that will not end by itself (Grid Engine's Eqw): the job is failed and cancelled. */
  stuck(state: string): boolean;
  cancel(ids: readonly string[], env: NodeJS.ProcessEnv): void;
  /** What the scheduler's accounting says of an ended job, for the message (may be undefined). */
  finalState(id: string, env: NodeJS.ProcessEnv): string | undefined;
}

/** A scheduler's job name for a job: bounded, plain characters, stable across runs. */
export function clusterJobName(jobId: string, rule: string): string {
  const plain = rule.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40);
  return `oxo-${plain}-${createHash('sha256').update(jobId).digest('hex').slice(0, 10)}`;
}

/** Time the scheduler gives beyond the rule's time_limit: the runner stops the job itself at the limit. */
export const LIMIT_SLACK_SECONDS = 60;

interface Watch {
  id: string;
  exitFile: string;
  startedFile: string;
  isRunning: boolean;
  goneSince?: number;
  /** Cancelled by us: settled as soon as the queue no longer lists it (asked every tick meanwhile). */
  cancelled?: number;
  onRunning(): void;
  onEnded(e: Ended): void;
}

export function clusterExecutor(driver: ClusterDriver, ctx: ExecutorContext): Executor {
  const env = ctx.env;
  const watches = new Map<string, Watch>();
  const filesDir = path.join(stateDir(ctx.workflowDir), 'cluster');
  let timer: NodeJS.Timeout | undefined;
  let lastQueue = 0;
  // Cancels are sent together, one command per tick, however many jobs Ctrl-C stops.
  const toCancel = new Set<string>();
  // Files are cheap to look at; the queue is asked at the polite interval only.
  const fileTick = Math.min(1000, ctx.pollMs);

  const settle = (w: Watch, e: Ended) => {
    if (!watches.delete(w.id)) return;
    if (!w.isRunning) w.onRunning();
    w.onEnded(e);
    if (watches.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const readExit = (w: Watch): Ended | undefined => {
    let text: string;
    try {
      text = readFileSync(w.exitFile, 'utf8');
    } catch {
      return undefined;
    }
    const code = Number(text.trim());
    return Number.isInteger(code) ? { code } : { code: null, state: `wrote an unreadable exit status (${text.trim().slice(0, 20)})` };
  };
  const tick = () => {
    const now = Date.now();
    if (toCancel.size > 0) {
      driver.cancel([...toCancel], env);
      toCancel.clear();
    }
    for (const w of [...watches.values()]) {
      if (!w.isRunning && statSync(w.startedFile, { throwIfNoEntry: false }) !== undefined) {
        w.isRunning = true;
        w.onRunning();
      }
      const e = readExit(w);
      if (e !== undefined) settle(w, e);
      // A queue that never answers must not hold Ctrl-C forever.
      else if (w.cancelled !== undefined && now - w.cancelled > 60_000) settle(w, { code: null, state: `cancelled (${driver.label} job ${w.id}; the queue did not confirm it)` });
    }
    const hurry = [...watches.values()].some((w) => w.cancelled !== undefined);
    if (watches.size === 0 || (!hurry && now - lastQueue < ctx.pollMs)) return;
    lastQueue = now;
    const q = driver.queue(env);
    if (q === undefined) return; // The queue could not be asked this time: ask again next interval.
    for (const w of [...watches.values()]) {
      const state = q.get(w.id);
      if (state !== undefined && driver.stuck(state)) {
        driver.cancel([w.id], env);
        settle(w, { code: null, state: `${driver.label} job ${w.id} stopped in state ${state}` });
      } else if (state === undefined && w.cancelled !== undefined) {
        settle(w, readExit(w) ?? { code: null, state: `cancelled (${driver.label} job ${w.id})` });
      } else if (state === undefined) {
        // Gone from the queue: give its exit file a few seconds to show (network file systems).
        w.goneSince ??= now;
        if (now - w.goneSince >= 3000 + fileTick) {
          const e = readExit(w);
          const final = e === undefined ? driver.finalState(w.id, env) : undefined;
          settle(w, e ?? { code: null, state: `${driver.label} job ${w.id} ended without an exit status${final ? ` (${final})` : ''}`, ...(final && /TIMEOUT|h_rt/i.test(final) ? { timedOut: true } : {}) });
        }
      } else w.goneSince = undefined;
    }
    // While some job left the queue without an exit file, look again soon rather than at the next interval.
    if ([...watches.values()].some((w) => w.goneSince !== undefined)) lastQueue = now - ctx.pollMs + fileTick;
  };
  const watch = (id: string, exitFile: string, started: Omit<Started, 'running' | 'ended' | 'cancel' | 'killNow'>): Started => {
    let onRunning!: () => void;
    let onEnded!: (e: Ended) => void;
    const running = new Promise<void>((r) => (onRunning = r));
    const ended = new Promise<Ended>((r) => (onEnded = r));
    const w: Watch = { id, exitFile, startedFile: `${exitFile.replace(/\.exit$/, '')}.started`, isRunning: false, onRunning, onEnded };
    watches.set(id, w);
    timer ??= setInterval(tick, fileTick);
    return {
      ...started,
      running,
      ended,
      cancel: () => {
        // Settled by the tick once the queue no longer lists it, so nothing writes the outputs after they are removed.
        if (watches.has(id) && !w.cancelled) {
          w.cancelled = Date.now();
          toCancel.add(id);
        }
        return ended.then(() => undefined);
      },
      killNow: () => {
        if (watches.has(id)) driver.cancel([id], env);
      },
    };
  };

  return {
    name: driver.name,
    label: driver.label,
    cluster: true,
    lostCode: driver.codes.failed,
    available: () => driver.available(env),
    check: (jobs) => checkJobs(driver, jobs, ctx),
    start(request: StartRequest): Started {
      mkdirSync(filesDir, { recursive: true });
      const spec = request.job.spec;
      const base = path.join(filesDir, `${createHash('sha256').update(spec.id).digest('hex').slice(0, 24)}-${request.runId}-${request.attempt}`);
      const exitFile = `${base}.exit`;
      rmSync(exitFile, { force: true });
      const exports = Object.entries(request.launch.env ?? {})
        .concat([['OXO_FLOW_RUN_ID', request.runId]])
        .map(([k, v]) => `export ${k}=${shellQuote(v)}\n`)
        .join('');
      const q = shellQuote;
      const script = `#!/bin/sh\n# oxo-flow: ${spec.id.replace(/[\r\n]/g, ' ')}, attempt ${request.attempt}\n: > ${q(`${base}.started`)}\n${exports}${request.launch.argv.map(q).join(' ')}\nstatus=$?\necho "$status" > ${q(`${exitFile}.tmp`)} && mv ${q(`${exitFile}.tmp`)} ${q(exitFile)}\nexit "$status"\n`;
      const req: SubmitRequest = {
        name: clusterJobName(spec.id, spec.rule),
        logPath: request.logPath,
        logRel: path.relative(ctx.workflowDir, request.logPath),
        cwd: ctx.workflowDir,
        script,
        threads: spec.threads,
        options: ctx.profile.options(driver.name, spec.rule),
        env: request.env,
      };
      if (spec.memoryMb !== undefined) req.memoryMb = spec.memoryMb;
      if (request.job.timeLimitSeconds !== undefined) req.timeLimitSeconds = request.job.timeLimitSeconds + LIMIT_SLACK_SECONDS;
      const gpu = (request.job as PreparedJob & { gpu?: number }).gpu;
      if (gpu !== undefined && gpu > 0) req.gpu = gpu;
      const r = driver.submit(req);
      if (!r.ok) throw Object.assign(new Error(`${driver.label} refused the job: ${r.message}`), { code: 'SUBMIT' });
      return watch(r.id, exitFile, { clusterId: r.id, exitFile });
    },
    adopt(record: JobRecord): Started | undefined {
      if (record.executor !== driver.name || record.slurmJobId === undefined || record.exitFile === undefined) return undefined;
      const id = record.slurmJobId;
      const done = statSync(record.exitFile, { throwIfNoEntry: false }) !== undefined;
      if (!done) {
        // The queue may not answer at once on a busy controller: ask again before giving the job up.
        let q = driver.queue(env);
        for (let i = 0; i < 2 && q === undefined; i++) q = driver.queue(env);
        // Still no answer: watch it anyway (the poller finds out), rather than submit a second copy.
        const state = q === undefined ? 'UNKNOWN' : q.get(id);
        if (state === undefined || driver.stuck(state)) return undefined;
      }
      return watch(id, record.exitFile, { clusterId: id, exitFile: record.exitFile });
    },
    forget(record: JobRecord) {
      if (record.executor === driver.name && record.slurmJobId !== undefined) driver.cancel([record.slurmJobId], env);
    },
    close() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

/** Everything knowable before submitting: a run never stops half-way through submission on these. */
function checkJobs(driver: ClusterDriver, jobs: readonly PreparedJob[], ctx: ExecutorContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const job of jobs) {
    const name = clusterJobName(job.spec.id, job.spec.rule);
    const why = driver.checkName(name);
    if (why !== undefined) out.push(diagnostic('RUN046', `${job.spec.id}: ${driver.label} would refuse the job name ${name}: ${why}`, { rule: job.spec.rule }));
    const log = path.relative(ctx.workflowDir, job.logPath);
    if (Buffer.byteLength(path.basename(log)) > 255) out.push(diagnostic('RUN046', `${job.spec.id}: its log file name is too long for the file system`, { rule: job.spec.rule }));
  }
  return out;
}
