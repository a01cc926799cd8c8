// A local run: recover what a crashed run left, prepare environments, then let the scheduler start
// the jobs, each one bracketed by state records: `running` is on disk before its process starts, and
// `done` only after it exited 0 and every declared output exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { RunEvent, JobResult, RunReport } from './events.js';
import { runAttempt, type AttemptResult } from './local.js';
import { directoriesAtFileOutputs, existingOutputs, makeParentDirs, missingOutputs, protect, removeFile, removePartialOutputs } from './outputs.js';
import type { PreparedJob } from './preflight.js';
import { groupAlive, stopGroup } from './process-group.js';
import { schedule, type Limits } from './scheduler.js';
import { startRecord, type StateStore } from './state.js';
import type { Preparation } from './environment.js';
import { tempOutputs, type JobSpec } from '../workflow/plan/index.js';

export interface LocalRunOptions {
  workflowDir: string;
  store: StateStore;
  limits: Limits;
  keepGoing: boolean;
  env: NodeJS.ProcessEnv;
  graceMs: number;
  signal: AbortSignal;
  onEvent(event: RunEvent): void;
  /** Every job of the plan (skipped ones too), for deciding temp outputs; default: the jobs run. */
  planJobs?: readonly JobSpec[];
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

  // The plan decides when each temp output goes (src/workflow/plan/temp-outputs.ts).
  const temp = tempOutputs(options.planJobs ?? jobs.map((j) => j.spec));
  const runOne = async (job: PreparedJob): Promise<boolean> => {
    const result = await runJob(job, options);
    results.set(job.id, result);
    if (result.outcome === 'done') {
      options.onEvent({ kind: 'done', id: job.id, seconds: result.seconds ?? 0 });
      for (const p of temp.done(job.id)) removeFile(p, dir);
      return true;
    }
    if (result.outcome !== 'interrupted') options.onEvent({ kind: 'failed', id: job.id, message: result.message ?? result.outcome, log: result.log });
    return false;
  };
  const sched = await schedule(jobs, options.limits, runOne, { keepGoing: options.keepGoing, signal: options.signal });
  if (!options.signal.aborted) for (const p of temp.atEnd()) removeFile(p, dir);
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
      onStart: (pgid) => store.write({ ...record, pgid }),
    });
    if (last.interrupted) break;
    if (last.code === 0 && !last.timedOut) {
      const missing = missingOutputs(spec.outputs, dir);
      const folders = missing.length === 0 ? directoriesAtFileOutputs(spec.outputs, dir) : [];
      if (folders.length > 0) message = `did not write file ${folders.join(', ')}: a directory is there (declare a directory output with a trailing /, e.g. ${folders[0]}/)`;
      else if (missing.length === 0) {
        if (spec.protectedOutputs !== undefined) protect(spec.protectedOutputs, dir);
        const seconds = (Date.now() - started) / 1000;
        store.write({ ...record, status: 'done', endedAt: new Date().toISOString() });
        return { ...base, outcome: 'done', attempts: attempt, seconds };
      }
      if (folders.length === 0) message = `exited 0 but did not write ${missing.join(', ')}`;
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
