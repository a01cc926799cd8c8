// The Slurm executor: every job that will run is submitted at once with sbatch, each with `afterok`
// dependencies on the Slurm jobs of its upstream jobs, so Slurm itself keeps the order. The runner
// then polls squeue (and sacct -c for jobs squeue has forgotten) with back-off, writes the same state
// records as a local run, cancels dependents of a failed job, cancels everything it submitted on
// Ctrl-C, and on a re-run adopts submitted jobs that are still alive instead of submitting them again.
import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { slurmTime } from './duration.js';
import type { JobResult, RunEvent, RunReport } from './events.js';
import { existingOutputs, makeParentDirs, missingOutputs, protect, removePartialOutputs } from './outputs.js';
import type { PreparedJob } from './preflight.js';
import { sleep } from './process-group.js';
import { jobHash, startRecord, type JobRecord, type StateStore } from './state.js';
import { shellQuote } from '../workflow/render/shell-quote.js';

export interface SlurmOptions {
  workflowDir: string;
  store: StateStore;
  keepGoing: boolean;
  partition?: string;
  account?: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  onEvent(event: RunEvent): void;
}

const ACTIVE = new Set(['PENDING', 'CONFIGURING', 'RUNNING', 'COMPLETING', 'REQUEUED', 'RESIZING', 'SUSPENDED', 'STAGE_OUT', 'SIGNALING', 'REQUEUE_HOLD', 'REQUEUE_FED', 'RESV_DEL_HOLD', 'STOPPED']);

/** sbatch, squeue and scancel must be on PATH and the controller must answer. */
export function slurmAvailable(env: NodeJS.ProcessEnv): { ok: true } | { ok: false; why: string } {
  const r = spawnSync('sinfo', ['-h', '-o', '%P'], { env, encoding: 'utf8', timeout: 20_000 });
  if (r.error !== undefined) return { ok: false, why: `\`sinfo\` cannot be started (${r.error.message})` };
  if (r.status !== 0) return { ok: false, why: `\`sinfo\` failed: ${r.stderr.trim().split('\n')[0] ?? ''}` };
  for (const p of ['sbatch', 'squeue', 'scancel']) {
    const v = spawnSync(p, ['--version'], { env, encoding: 'utf8' });
    if (v.error !== undefined) return { ok: false, why: `\`${p}\` is not on PATH` };
  }
  return { ok: true };
}

interface Tracked {
  job: PreparedJob;
  record: JobRecord;
  slurmId: string;
  finished: boolean;
}

export async function runSlurm(jobs: readonly PreparedJob[], options: SlurmOptions): Promise<RunReport> {
  const { workflowDir: dir, store } = options;
  const results = new Map<string, JobResult>();
  const tracked = new Map<string, Tracked>();
  const user = userInfo().username;
  const names = new Map<string, string>();
  const states = queueStates(user, options.env, names);
  const dependents = new Map<string, string[]>();
  for (const j of jobs) for (const d of j.dependsOn) dependents.set(d, [...(dependents.get(d) ?? []), j.id]);
  const jobIds = new Set(jobs.map((j) => j.id));
  const adopted = new Set<string>();
  const base = (j: PreparedJob) => ({ id: j.id, rule: j.spec.rule, log: j.logPath, ...(j.spec.log !== undefined ? { ruleLog: j.spec.log } : {}) });

  // Submit (or adopt) in dependency order, so every upstream Slurm id is known.
  for (const job of jobs) {
    if (options.signal.aborted) break;
    const spec = job.spec;
    const old = store.records().get(spec.id);
    // Adopt only when every upstream job of this run was adopted too: a resubmitted upstream job has
    // a new id, and the old afterok would never be satisfied.
    const upstreamAdopted = spec.dependsOn.every((d) => !jobIds.has(d) || adopted.has(d));
    // A runner killed between writing the record and hearing sbatch's answer left no id: the job name finds it.
    const oldId = old?.slurmJobId ?? (old?.status === 'running' ? names.get(jobName(spec.id)) : undefined);
    if (upstreamAdopted && old?.executor === 'slurm' && old.status === 'running' && oldId !== undefined && old.hash === jobHash(spec)) {
      const state = states.get(oldId) ?? finalState(oldId, options.env);
      if (state !== undefined && (ACTIVE.has(state) || state === 'COMPLETED')) {
        const record = { ...old, slurmJobId: oldId };
        tracked.set(spec.id, { job, record, slurmId: oldId, finished: false });
        adopted.add(spec.id);
        options.onEvent({ kind: 'submitted', id: spec.id, slurmJobId: oldId, adopted: true });
        continue;
      }
    }
    if (old?.status === 'running' && old.executor === 'slurm') {
      // Not adopted: make sure the old Slurm job cannot still write, then clear what it left.
      if (oldId !== undefined) spawnSync('scancel', [oldId], { env: options.env });
      removePartialOutputs(spec.outputs, old.preexisting, dir);
    }
    const after = spec.dependsOn.map((d) => tracked.get(d)?.slurmId).filter((x): x is string => x !== undefined);
    const blockedBy = spec.dependsOn.find((d) => results.get(d)?.outcome === 'failed');
    if (blockedBy !== undefined) {
      results.set(spec.id, { ...base(job), outcome: 'blocked', blockedBy, attempts: 0 });
      continue;
    }
    const record = startRecord(spec, 'slurm', existingOutputs(spec.outputs, dir), job.logPath);
    store.write(record);
    makeParentDirs([...spec.outputs, job.logPath, ...(spec.log ? [spec.log] : [])], dir);
    const submitted = submit(job, after, options);
    if (!submitted.ok) {
      store.write({ ...record, status: 'failed', endedAt: new Date().toISOString() });
      results.set(spec.id, { ...base(job), outcome: 'failed', message: `sbatch refused it: ${submitted.message}`, attempts: 0 });
      options.onEvent({ kind: 'failed', id: spec.id, message: `sbatch refused it: ${submitted.message}`, log: job.logPath });
      continue;
    }
    const withId = { ...record, slurmJobId: submitted.id };
    store.write(withId);
    tracked.set(spec.id, { job, record: withId, slurmId: submitted.id, finished: false });
    options.onEvent({ kind: 'submitted', id: spec.id, slurmJobId: submitted.id, adopted: false });
  }

  const cancel = (ids: string[]) => {
    if (ids.length > 0) spawnSync('scancel', ids, { env: options.env });
  };
  const settle = (t: Tracked, result: JobResult) => {
    t.finished = true;
    results.set(t.job.id, result);
  };
  let stopAll = false;
  let delay = 250;
  while ([...tracked.values()].some((t) => !t.finished)) {
    if (options.signal.aborted || stopAll) {
      const live = [...tracked.values()].filter((t) => !t.finished);
      cancel(live.map((t) => t.slurmId));
      await waitGone(live.map((t) => t.slurmId), user, options.env);
      for (const t of live) {
        removePartialOutputs(t.job.spec.outputs, t.record.preexisting, dir);
        store.write({ ...t.record, status: 'failed', endedAt: new Date().toISOString() });
        settle(t, { ...base(t.job), outcome: options.signal.aborted ? 'interrupted' : 'not started', attempts: 1, slurmJobId: t.slurmId });
      }
      break;
    }
    await sleep(delay);
    const now = queueStates(user, options.env);
    let changed = false;
    for (const t of tracked.values()) {
      if (t.finished) continue;
      const state = now.get(t.slurmId) ?? finalState(t.slurmId, options.env) ?? 'UNKNOWN';
      if (ACTIVE.has(state)) continue;
      changed = true;
      const spec = t.job.spec;
      const missing = state === 'COMPLETED' ? missingOutputs(spec.outputs, dir) : [];
      if (state === 'COMPLETED' && missing.length === 0) {
        if (spec.protectedOutputs !== undefined) protect(spec.protectedOutputs, dir);
        store.write({ ...t.record, status: 'done', endedAt: new Date().toISOString() });
        const seconds = (Date.now() - Date.parse(t.record.startedAt)) / 1000;
        settle(t, { ...base(t.job), outcome: 'done', attempts: 1, seconds, slurmJobId: t.slurmId });
        options.onEvent({ kind: 'done', id: spec.id, seconds });
        continue;
      }
      const blockedBy = [...tracked.values()].find((u) => spec.dependsOn.includes(u.job.id) && results.get(u.job.id)?.outcome !== 'done' && u.finished);
      removePartialOutputs(spec.outputs, t.record.preexisting, dir);
      store.write({ ...t.record, status: 'failed', endedAt: new Date().toISOString() });
      if (state === 'CANCELLED' && blockedBy !== undefined) {
        settle(t, { ...base(t.job), outcome: 'blocked', blockedBy: blockedBy.job.id, attempts: 0, slurmJobId: t.slurmId });
        options.onEvent({ kind: 'blocked', id: spec.id, blockedBy: blockedBy.job.id });
        continue;
      }
      const message = state === 'COMPLETED' ? `finished but did not write ${missing.join(', ')}` : `Slurm job ${t.slurmId} ended ${state}`;
      settle(t, { ...base(t.job), outcome: state === 'TIMEOUT' ? 'timed out' : 'failed', message, attempts: 1, slurmJobId: t.slurmId });
      options.onEvent({ kind: 'failed', id: spec.id, message, log: t.job.logPath });
      // Its dependents can never run: cancel them now rather than leave them pending.
      const down = downstream(spec.id, dependents).map((id) => tracked.get(id)).filter((u): u is Tracked => u !== undefined && !u.finished);
      cancel(down.map((u) => u.slurmId));
      if (!options.keepGoing) stopAll = true;
    }
    delay = changed ? 250 : Math.min(delay * 1.5, 5000);
  }

  const report: JobResult[] = [];
  for (const job of jobs) {
    let r = results.get(job.id);
    if (r === undefined) {
      const failedUp = job.dependsOn.find((d) => results.get(d) !== undefined && results.get(d)!.outcome !== 'done');
      r = failedUp !== undefined ? { ...base(job), outcome: 'blocked', blockedBy: failedUp, attempts: 0 } : { ...base(job), outcome: 'not started', attempts: 0 };
    }
    report.push(r);
  }
  return { results: report, interrupted: options.signal.aborted };
}

function submit(job: PreparedJob, after: readonly string[], options: SlurmOptions): { ok: true; id: string } | { ok: false; message: string } {
  const spec = job.spec;
  const launch = job.launch(spec.command);
  // The batch script only execs the launch argv, each word quoted: the command reaches `sh -c`
  // exactly as a local run gives it, with no second shell interpreting it.
  const exports = Object.entries(launch.env ?? {}).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
  const script = `#!/bin/sh\n${exports}exec ${launch.argv.map(shellQuote).join(' ')}\n`;
  const args = ['--parsable', `--job-name=${jobName(spec.id)}`, `--output=${job.logPath}`, '--open-mode=append', `--chdir=${options.workflowDir}`, `--cpus-per-task=${spec.threads}`];
  if (spec.memoryMb !== undefined) args.push(`--mem=${spec.memoryMb}M`);
  if (job.timeLimitSeconds !== undefined) args.push(`--time=${slurmTime(job.timeLimitSeconds)}`);
  if (options.partition !== undefined) args.push(`--partition=${options.partition}`);
  if (options.account !== undefined) args.push(`--account=${options.account}`);
  if (after.length > 0) args.push(`--dependency=afterok:${after.join(':')}`, '--kill-on-invalid-dep=yes');
  // The values the script refers to go in sbatch's environment, which Slurm hands to the job
  // (--export=ALL, its default): never into the batch script's text.
  const r = spawnSync('sbatch', args, { input: script, env: { ...options.env, ...spec.env }, encoding: 'utf8' });
  if (r.status !== 0) return { ok: false, message: (r.stderr || r.error?.message || `exit ${r.status}`).trim() };
  const id = r.stdout.trim().split(';')[0]!;
  return /^\d+$/.test(id) ? { ok: true, id } : { ok: false, message: `unexpected sbatch answer: ${r.stdout.trim()}` };
}

/** Slurm job id → state, for this user's jobs Slurm still remembers (running and recently ended). */
function queueStates(user: string, env: NodeJS.ProcessEnv, names?: Map<string, string>): Map<string, string> {
  const r = spawnSync('squeue', ['-h', '-t', 'all', '-u', user, '-o', '%i|%T|%j'], { env, encoding: 'utf8' });
  const out = new Map<string, string>();
  if (r.status !== 0) return out;
  for (const line of r.stdout.split('\n')) {
    const [id, state, ...name] = line.trim().split('|');
    if (!id || !state) continue;
    out.set(id, state);
    // The newest live job of a name wins (ids grow).
    if (names !== undefined && ACTIVE.has(state)) names.set(name.join('|'), id);
  }
  return out;
}

function jobName(jobId: string): string {
  return `oxo-${jobId}`;
}

/** The final state of a job squeue no longer lists: sacct, then sacct -c (no accounting database). */
function finalState(id: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const extra of [[], ['-c']]) {
    const r = spawnSync('sacct', [...extra, '-n', '-P', '-X', '-j', id, '-o', 'jobid,state'], { env, encoding: 'utf8' });
    if (r.status !== 0) continue;
    for (const line of r.stdout.split('\n')) {
      const [jid, state] = line.trim().split('|');
      if (jid === id && state) return state.split(' ')[0];
    }
  }
  return undefined;
}

async function waitGone(ids: readonly string[], user: string, env: NodeJS.ProcessEnv): Promise<void> {
  const want = new Set(ids);
  for (let i = 0; i < 200; i++) {
    const now = queueStates(user, env);
    if (![...want].some((id) => ACTIVE.has(now.get(id) ?? ''))) return;
    await sleep(100);
  }
}

function downstream(id: string, dependents: ReadonlyMap<string, string[]>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const stack = [...(dependents.get(id) ?? [])];
  while (stack.length > 0) {
    const d = stack.pop()!;
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(d);
    stack.push(...(dependents.get(d) ?? []));
  }
  return out;
}
