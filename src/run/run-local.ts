// A local run: recover what a crashed run left, prepare environments, then let the scheduler start
// the jobs, each one bracketed by state records: `running` is on disk before its process starts, and
// `done` only after it exited 0 and every declared output exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { RunEvent, JobResult, RunReport } from './events.js';
import { runAttempt, type AttemptResult } from './local.js';
import { existingOutputs, makeParentDirs, missingOutputs, protect, removeFile, removePartialOutputs } from './outputs.js';
import type { PreparedJob } from './preflight.js';
import { groupAlive, stopGroup } from './process-group.js';
import { schedule, type Limits } from './scheduler.js';
import { startRecord, type StateStore } from './state.js';
import type { Preparation } from './environment.js';

export interface LocalRunOptions {
  workflowDir: string;
  store: StateStore;
  limits: Limits;
  keepGoing: boolean;
  env: NodeJS.ProcessEnv;
  graceMs: number;
  signal: AbortSignal;
  onEvent(event: RunEvent): void;
}

export async function runLocal(jobs: readonly PreparedJob[], preparations: readonly Preparation[], options: LocalRunOptions): Promise<RunReport> {
  const dir = options.workflowDir;
  await recoverCrashed(jobs, options);
  const results = new Map<string, JobResult>();
  for (const p of preparations) {
    if (options.signal.aborted) break;
    if (existsSync(p.creates)) continue;
    options.onEvent({ kind: 'note', message: p.label });
    const r = spawnSync(p.argv[0]!, p.argv.slice(1), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) {
      // Every job of that environment fails with the reason; nothing else is affected.
      const message = `${p.label} failed: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-3).join(' ')}`;
      options.onEvent({ kind: 'note', message });
    }
  }

  const temp = tempTracker(jobs);
  const runOne = async (job: PreparedJob): Promise<boolean> => {
    const result = await runJob(job, options);
    results.set(job.id, result);
    if (result.outcome === 'done') {
      options.onEvent({ kind: 'done', id: job.id, seconds: result.seconds ?? 0 });
      for (const p of temp.consumed(job)) removeFile(p, dir);
      return true;
    }
    if (result.outcome !== 'interrupted') options.onEvent({ kind: 'failed', id: job.id, message: result.message ?? result.outcome, log: result.log });
    return false;
  };
  const sched = await schedule(jobs, options.limits, runOne, { keepGoing: options.keepGoing, signal: options.signal });
  for (const job of jobs) {
    if (results.has(job.id)) continue;
    const blockedBy = sched.blocked.get(job.id);
    if (blockedBy !== undefined) {
      options.onEvent({ kind: 'blocked', id: job.id, blockedBy });
      results.set(job.id, { id: job.id, rule: job.spec.rule, outcome: 'blocked', blockedBy, attempts: 0, log: job.logPath });
    } else {
      results.set(job.id, { id: job.id, rule: job.spec.rule, outcome: 'not started', attempts: 0, log: job.logPath });
    }
  }
  return { results: jobs.map((j) => results.get(j.id)!), interrupted: options.signal.aborted };
}

async function runJob(job: PreparedJob, options: LocalRunOptions): Promise<JobResult> {
  const { workflowDir: dir, store } = options;
  const spec = job.spec;
  const started = Date.now();
  const preexisting = existingOutputs(spec.outputs, dir);
  const record = startRecord(spec, 'local', preexisting, job.logPath, started);
  store.write(record);
  makeParentDirs(spec.log === undefined ? spec.outputs : [...spec.outputs, spec.log], dir);
  const attempts = job.retries + 1;
  const base = { id: spec.id, rule: spec.rule, log: job.logPath, ...(spec.log !== undefined ? { ruleLog: spec.log } : {}) };
  let last: AttemptResult | undefined;
  let message = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (options.signal.aborted) break;
    options.onEvent(attempt === 1 ? { kind: 'start', id: spec.id, attempt, attempts } : { kind: 'retry', id: spec.id, attempt, attempts, message });
    const shown = `# $ ${spec.shownCommand.replace(/\n/g, '\n#   ')}\n`;
    last = await runAttempt(job.launch(spec.command), {
      cwd: dir,
      logPath: job.logPath,
      header: `# oxo-flow: ${spec.id}, attempt ${attempt} of ${attempts}, ${new Date().toISOString()}\n${shown}`,
      env: options.env,
      ...(job.timeLimitSeconds !== undefined ? { timeLimitMs: job.timeLimitSeconds * 1000 } : {}),
      graceMs: options.graceMs,
      signal: options.signal,
      onStart: (pgid) => {
        store.write({ ...record, pgid });
        options.onEvent({ kind: 'spawned', id: spec.id, attempt, pgid });
      },
    });
    options.onEvent({ kind: 'exited', id: spec.id, attempt, code: last.code, signal: last.signal });
    if (last.interrupted) break;
    if (last.code === 0 && !last.timedOut) {
      const missing = missingOutputs(spec.outputs, dir);
      if (missing.length === 0) {
        if (spec.protectedOutputs !== undefined) protect(spec.protectedOutputs, dir);
        const seconds = (Date.now() - started) / 1000;
        store.write({ ...record, status: 'done', endedAt: new Date().toISOString() });
        return { ...base, outcome: 'done', attempts: attempt, seconds };
      }
      message = `exited 0 but did not write ${missing.join(', ')}`;
    } else if (last.spawnError !== undefined) {
      message = `could not start: ${last.spawnError}`;
    } else if (last.timedOut) {
      message = `ran past its time limit of ${job.timeLimitSeconds}s and was stopped`;
    } else {
      message = last.code !== null ? `exit ${last.code}` : `killed by ${last.signal}`;
    }
    // A failed attempt's outputs are not to be trusted, not even by the next attempt.
    removePartialOutputs(spec.outputs, preexisting, dir);
  }
  removePartialOutputs(spec.outputs, preexisting, dir);
  store.write({ ...record, status: 'failed', endedAt: new Date().toISOString() });
  const seconds = (Date.now() - started) / 1000;
  if (last?.interrupted || (last === undefined && options.signal.aborted)) return { ...base, outcome: 'interrupted', attempts, seconds };
  return { ...base, outcome: last?.timedOut ? 'timed out' : 'failed', message, attempts, seconds };
}

/**
 * A runner that died (kill -9, a crash, a lost machine) leaves `running` records: their job may still
 * be running in its own process group, and its outputs may be half-written. Stop the group and remove
 * those outputs before the job runs again.
 */
async function recoverCrashed(jobs: readonly PreparedJob[], options: LocalRunOptions): Promise<void> {
  const records = options.store.records();
  for (const job of jobs) {
    const r = records.get(job.id);
    if (r === undefined || r.status !== 'running' || r.executor !== 'local') continue;
    if (r.pgid !== undefined && groupAlive(r.pgid)) await stopGroup(r.pgid, options.graceMs);
    removePartialOutputs(job.spec.outputs, r.preexisting, options.workflowDir);
    options.store.write({ ...r, status: 'failed', endedAt: new Date().toISOString() });
  }
}

/** temp_output paths are removed once every job of this run that reads them is done. */
function tempTracker(jobs: readonly PreparedJob[]): { consumed(job: PreparedJob): string[] } {
  const temps = new Set(jobs.flatMap((j) => j.spec.tempOutputs));
  const readers = new Map<string, number>();
  if (temps.size > 0) for (const j of jobs) for (const i of j.spec.inputs) if (temps.has(i)) readers.set(i, (readers.get(i) ?? 0) + 1);
  return {
    consumed(job) {
      if (temps.size === 0) return [];
      const gone: string[] = [];
      for (const i of job.spec.inputs) {
        const left = readers.get(i);
        if (left === undefined) continue;
        readers.set(i, left - 1);
        if (left === 1) gone.push(i);
      }
      return gone;
    },
  };
}
