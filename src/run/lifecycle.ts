// The job lifecycle, written once for every executor: recover what a dead run left, prepare
// environments (once each, on this host, before any job is started or submitted), then let the
// scheduler start jobs; each job: remove its old outputs → record `running` (durably, before it can
// write anything) → start → watch → time limit → retry → check and touch outputs → record the end.
// Any error on the way (a full disk, an unwritable state directory, a command too long to start)
// fails that job with a code: nothing is swallowed, and the run's exit code says so.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Preparation } from './environment.js';
import type { JobResult, RunEvent, RunReport } from './events.js';
import type { Ended, Executor, Started } from './executors/types.js';
import { openJobLog } from './job-log.js';
import { checkOutputs, makeParentDirs, protect, removeFile, removePartialOutputs } from './outputs.js';
import type { PreparedJob } from './preflight.js';
import { findJobGroups, proveOwnGroup, RUN_ID_VAR, stopGroup } from './process-group.js';
import { schedule, type Limits } from './scheduler.js';
import { startRecord, type JobRecord, jobHash, type StateStore } from './state.js';
import { tempOutputs, type JobSpec } from '../workflow/plan/index.js';
import { JOB_JSON_VAR } from '../workflow/render/script-job.js';

export interface RunJob extends PreparedJob {
  /** `resources.gpu` of the rule (clusters ask for it). */
  gpu?: number;
  /** The key of the environment preparation this job needs, if any. */
  preparation?: string;
}

export interface LifecycleOptions {
  workflowDir: string;
  store: StateStore;
  executor: Executor;
  limits: Limits;
  keepGoing: boolean;
  env: NodeJS.ProcessEnv;
  runId: string;
  graceMs: number;
  /** Ctrl-C: stop the running jobs (gracefully), record them, report. */
  signal: AbortSignal;
  /** A second Ctrl-C: SIGKILL (or cancel) every job left at once, and record it, synchronously. */
  hardSignal?: AbortSignal;
  /** Told the report as it stands, synchronously, right after a second Ctrl-C stopped everything. */
  onHardStop?(report: RunReport): void;
  onEvent(event: RunEvent): void;
  /** Every job of the plan (skipped ones too), for when temp outputs go; default: the jobs run. */
  planJobs?: readonly JobSpec[];
}

interface Live {
  job: RunJob;
  record: JobRecord;
  started?: Started;
}

/**
 * A start record written ahead, while the job waits for a slot: its sync is then done by the time
 * the slot frees, so no disk flush sits between one job's end and the next one's start. `previous`
 * is what the state said of the job before, restored (withdraw) if the job never starts.
 */
interface Ahead {
  record: JobRecord;
  durable: Promise<void>;
  previous: JobRecord | undefined;
}

export async function runJobs(jobs: readonly RunJob[], preparations: readonly Preparation[], options: LifecycleOptions): Promise<RunReport> {
  const { store, executor } = options;
  const diagnostics: Diagnostic[] = [];
  const results = new Map<string, JobResult>();
  const live = new Map<string, Live>();
  const ids = new Set(jobs.map((j) => j.id));
  const adopted = new Set<string>();
  const ahead = new Map<string, Ahead>();

  options.hardSignal?.addEventListener('abort', () => {
    // Synchronous on purpose: the process exits right after this listener.
    for (const l of live.values()) {
      l.started?.killNow();
      try {
        store.write({ ...l.record, status: 'failed', endedAt: new Date().toISOString() }, { durable: false });
      } catch {
        // The state cannot be written: the record stays `running`, which reruns the job too.
      }
    }
    withdrawAhead(store, ahead);
    if (options.onHardStop) {
      const now = (job: RunJob): JobResult => {
        const done = results.get(job.id);
        if (done !== undefined) return done;
        const l = live.get(job.id);
        if (l !== undefined) return { ...base(job), outcome: 'interrupted', attempts: 1, ...(l.record.slurmJobId ? { slurmJobId: l.record.slurmJobId } : {}) };
        return { ...base(job), outcome: 'not started', attempts: 0 };
      };
      options.onHardStop({ results: jobs.map(now), interrupted: true, diagnostics });
    }
  });

  for (const job of jobs) {
    if (store.records().isUnreadable(job.id)) diagnostics.push(diagnostic('RUN043', `the state record of ${job.id} cannot be read; the job runs again`, { rule: job.spec.rule }));
  }
  await recoverLocal(jobs, options, diagnostics);

  const failedPreparations = new Map<string, string>();
  for (const p of preparations) {
    if (options.signal.aborted) break;
    if (existsSync(p.creates)) continue;
    options.onEvent({ kind: 'note', message: p.label });
    const r = spawnSync(p.argv[0]!, p.argv.slice(1), { cwd: options.workflowDir, env: options.env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) {
      const why = `${p.label} failed: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ')}`;
      failedPreparations.set(p.key, why);
      options.onEvent({ kind: 'note', message: why });
    }
  }

  // The plan decides when each temp output goes (src/workflow/plan/temp-outputs.ts).
  const temp = tempOutputs(options.planJobs ?? jobs.map((j) => j.spec));
  const removeTemp = (p: string) => {
    try {
      removeFile(p, options.workflowDir);
    } catch (err) {
      options.onEvent({ kind: 'note', message: `could not remove the temp output ${p}: ${(err as Error).message}` });
    }
  };
  // Locally, with syncs on, the start records of the jobs next in line are written ahead (see Ahead).
  // A record written ahead says `running` before the job runs, which only ever reruns a job: a crash
  // before it starts leaves it `running` (it reruns, as it was going to), and a run that ends without
  // starting it takes the record back. A cluster job's start costs far more than a sync.
  // They are written a few at a time (when half of those written are used), so that one sync covers
  // several, and the job ends appended meanwhile share it.
  const lookahead = 4 * Math.max(1, options.limits.jobs);
  const upcoming =
    executor.cluster || !store.sync
      ? undefined
      : (next: readonly RunJob[]) => {
          if (ahead.size > lookahead / 2) return;
          for (const job of next) {
            if (ahead.has(job.id) || (job.preparation !== undefined && failedPreparations.has(job.preparation))) continue;
            const previous = store.records().get(job.id);
            const record = startRecord(job.spec, executor.name, [], job.logPath, Date.now(), options.runId);
            let durable: Promise<void>;
            try {
              durable = store.appendDurable(record);
            } catch {
              // Not appended (a full disk): the job's own start tries again and fails with the reason.
              continue;
            }
            // Awaited by the job's start, which fails with the reason (RUN042) if the sync failed.
            durable.catch(() => undefined);
            ahead.set(job.id, { record, durable, previous });
          }
        };
  const committing: Promise<void>[] = [];
  const runOne = async (job: RunJob): Promise<boolean> => {
    const prepFailed = job.preparation !== undefined ? failedPreparations.get(job.preparation) : undefined;
    const takeAhead = () => {
      const written = ahead.get(job.id);
      ahead.delete(job.id);
      return written;
    };
    const result =
      prepFailed !== undefined
        ? { ...base(job), outcome: 'failed' as const, code: 'RUN047', message: prepFailed, attempts: 0 }
        : await runJob(job, options, live, canAdopt(job, ids, adopted) ? adopted : undefined, takeAhead());
    if ('durable' in result) {
      // Its `done` record is appended and syncs with the next group commit: the job's slot is free now.
      // A job that needs this one becomes ready only now, so its start record (written ahead or not)
      // comes after this end in the one journal, and it starts only once that record is synced, which
      // syncs this end before it. Temp inputs go once the end is on disk; a sync that fails fails the
      // job (RUN042).
      const { durable, ...done } = result;
      results.set(job.id, done);
      options.onEvent({ kind: 'done', id: job.id, seconds: done.seconds ?? 0 });
      committing.push(
        durable.then(
          () => {
            for (const p of temp.done(job.id)) removeTemp(p);
          },
          (err: unknown) => {
            const failed: JobResult = { ...done, outcome: 'failed', code: 'RUN042', message: `could not record its end: ${errText(err)}` };
            results.set(job.id, failed);
            options.onEvent({ kind: 'failed', id: job.id, message: failed.message!, log: failed.log, code: 'RUN042' });
          },
        ),
      );
      return true;
    }
    results.set(job.id, result);
    if (result.outcome !== 'interrupted') options.onEvent({ kind: 'failed', id: job.id, message: result.message ?? result.outcome, log: result.log, ...(result.code ? { code: result.code } : {}) });
    return false;
  };
  const limits = executor.cluster ? { jobs: options.limits.jobs, cores: Number.POSITIVE_INFINITY, memoryMb: Number.POSITIVE_INFINITY } : options.limits;
  let sched: Awaited<ReturnType<typeof schedule>>;
  try {
    sched = await schedule(jobs, limits, runOne, { keepGoing: options.keepGoing, signal: options.signal, ...(upcoming !== undefined ? { upcoming, lookahead } : {}) });
  } finally {
    await executor.close();
    diagnostics.push(...(executor.notes?.() ?? []));
  }
  // Every end record on disk before the run reports; start records written ahead for jobs that
  // never started (the run stopped first) taken back.
  store.hurry();
  await Promise.all(committing);
  await Promise.all([...ahead.values()].map((a) => a.durable.catch(() => undefined)));
  withdrawAhead(store, ahead);
  // Temp outputs this run made and no job of it read go at the end.
  if (!options.signal.aborted) for (const p of temp.atEnd()) removeTemp(p);
  for (const job of jobs) {
    if (results.has(job.id)) continue;
    const blockedBy = sched.blocked.get(job.id);
    if (blockedBy !== undefined) {
      options.onEvent({ kind: 'blocked', id: job.id, blockedBy });
      results.set(job.id, { ...base(job), outcome: 'blocked', blockedBy, attempts: 0 });
    } else {
      results.set(job.id, { ...base(job), outcome: 'not started', attempts: 0 });
    }
  }
  return { results: jobs.map((j) => results.get(j.id)!), interrupted: options.signal.aborted, diagnostics };
}

/** Start records written ahead for jobs that did not start: what the state said of them before stands again. */
function withdrawAhead(store: StateStore, ahead: Map<string, Ahead>): void {
  for (const [id, a] of ahead) {
    try {
      store.withdraw(id, a.previous);
    } catch {
      // Not written (a full disk): the record written ahead stands, and the job reruns (fail closed).
    }
  }
  ahead.clear();
}

function base(job: RunJob): Pick<JobResult, 'id' | 'rule' | 'log' | 'ruleLog'> {
  return { id: job.spec.id, rule: job.spec.rule, log: job.logPath, ...(job.spec.log !== undefined ? { ruleLog: job.spec.log } : {}) };
}

/** A leftover cluster job may be adopted only when nothing it needs runs again in this run. */
function canAdopt(job: RunJob, ids: ReadonlySet<string>, adopted: ReadonlySet<string>): boolean {
  return job.dependsOn.every((d) => !ids.has(d) || adopted.has(d));
}

function errCode(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code !== undefined ? `${e.code}: ` : '';
}

function errText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const message = (e?.message ?? String(err)).replace(/^[A-Z0-9]+: /, '');
  return `${errCode(err)}${message}`;
}

/** A job's result; a `done` one carries the sync of its end record (group commit), still under way. */
type Ran = JobResult | (JobResult & { outcome: 'done'; durable: Promise<void> });

async function runJob(job: RunJob, options: LifecycleOptions, live: Map<string, Live>, adopted: Set<string> | undefined, ahead: Ahead | undefined): Promise<Ran> {
  const { workflowDir: dir, store, executor } = options;
  const spec = job.spec;
  const started = Date.now();
  const attempts = job.retries + 1;
  let record: JobRecord | undefined;
  let stage = 'prepare';
  try {
    // A leftover cluster job of a dead runner, still queued or finished: watch it instead of resubmitting.
    let adoptedStart: Started | undefined;
    const old = store.records().get(spec.id);
    if (old !== undefined && old.status === 'running' && old.executor === executor.name && executor.cluster) {
      if (adopted !== undefined && old.hash === jobHash(spec)) adoptedStart = executor.adopt?.(old, job);
      if (adoptedStart === undefined) executor.forget?.(old);
    }
    if (adoptedStart === undefined) {
      // Outputs of a job are removed before it runs again: tools that refuse to overwrite (mkdir,
      // ln -s, some aligners' output folders) then work, and a stale output never sits next to good ones.
      stage = 'remove its old outputs';
      removePartialOutputs(spec.outputs, [], dir);
      stage = 'record its start';
      if (ahead !== undefined) {
        // Written ahead: usually on disk already. The record naming its process gives the real start.
        await ahead.durable;
        record = { ...ahead.record, startedAt: new Date(started).toISOString() };
      } else {
        record = startRecord(spec, executor.name, [], job.logPath, started, options.runId);
        await store.writeDurable(record);
      }
    } else {
      record = old!;
      adopted!.add(spec.id);
    }
    stage = 'create the folders of its outputs';
    makeParentDirs(spec.log === undefined ? [...spec.outputs, job.logPath] : [...spec.outputs, spec.log, job.logPath], dir);
    // A script rule's job file, beside its log and kept like it (rewritten when the job runs again).
    // Sensitive config values read *** there; the script gets them in its environment only.
    if (job.jobJsonPath !== undefined && spec.jobJson !== undefined) {
      stage = 'write its job file';
      writeFileSync(job.jobJsonPath, spec.jobJson, { mode: 0o600 });
    }
    const entry: Live = { job, record };
    live.set(spec.id, entry);
    let message = '';
    let code = FAILED;
    let timedOut = false;
    let logOffset = 0;
    let attempt = 1;
    let interrupted = false;
    /** Bytes of the log's own header while the log holds nothing else (one attempt, no output yet). */
    let headerBytes = 0;
    /** The first attempt's header: a log the helper dropped (a silent exit 0) is written back if the job is not done after all. */
    let firstHeader = '';
    try {
      for (; attempt <= attempts; attempt++) {
        if (options.signal.aborted) break;
        options.onEvent(attempt === 1 ? { kind: 'start', id: spec.id, attempt, attempts } : { kind: 'retry', id: spec.id, attempt, attempts, message });
        let s: Started;
        if (adoptedStart !== undefined && attempt === 1) {
          s = adoptedStart;
          options.onEvent({ kind: 'submitted', id: spec.id, slurmJobId: s.clusterId ?? '', adopted: true });
        } else {
          // The log starts afresh with the job's first attempt; later attempts append after it. The
          // local executor opens it itself (its helper does); for the others it is opened here.
          const header = `# oxo-flow: ${spec.id}, attempt ${attempt} of ${attempts}, ${new Date().toISOString()}\n# $ ${job.shownCommand.replace(/\n/g, '\n#   ')}\n`;
          const fresh = attempt === 1;
          headerBytes = fresh ? Buffer.byteLength(header) : 0;
          if (fresh) firstHeader = header;
          let fd: number | undefined;
          if (executor.writesLogs !== true) {
            stage = 'open its log';
            const opened = openJobLog(job.logPath, header, fresh);
            fd = opened.fd;
            logOffset = opened.offset;
          }
          try {
            stage = 'start';
            const launch = job.launch(spec.command);
            // The one place a job's environment is built: the run's, the backend's, the values its script
            // refers to (issue 17: values reach jobs as OXO_… variables, never as shell code), the run id.
            // A cluster job gets it through the submit command's environment (sbatch --export=ALL, qsub -V).
            const env = { ...options.env, ...(launch.env ?? {}), ...(spec.env ?? {}), ...(job.jobJsonPath !== undefined ? { [JOB_JSON_VAR]: path.resolve(dir, job.jobJsonPath) } : {}), [RUN_ID_VAR]: options.runId };
            s = executor.start({ job, launch, env, logPath: job.logPath, logHeader: header, logFresh: fresh, ...(fd !== undefined ? { logFd: fd } : {}), attempt, runId: options.runId });
          } finally {
            if (fd !== undefined) closeSync(fd);
          }
          // The light spawner tells the process group a moment after the start (src/run/spawner/).
          entry.started = s;
          if (s.spawned !== undefined) await s.spawned;
          if (s.logOffset !== undefined) logOffset = s.logOffset;
          stage = 'record its process';
          const withIds: JobRecord = { ...record };
          if (s.pgid !== undefined) withIds.pgid = s.pgid;
          if (s.procStart !== undefined) withIds.procStart = s.procStart;
          if (s.clusterId !== undefined) withIds.slurmJobId = s.clusterId;
          if (s.exitFile !== undefined) withIds.exitFile = s.exitFile;
          record = withIds;
          entry.record = record;
          // Not synced: after a power loss no process of it is left to find.
          try {
            store.write(record, { durable: false });
          } catch (err) {
            // The job must not run on unrecorded: stop it, then fail it with the reason.
            await s.cancel();
            throw err;
          }
          if (s.clusterId !== undefined) options.onEvent({ kind: 'submitted', id: spec.id, slurmJobId: s.clusterId, adopted: false });
          // For the run record's resource sampling (src/run/record/sampler.ts).
          if (s.pgid !== undefined && s.clusterId === undefined) options.onEvent({ kind: 'spawned', id: spec.id, attempt, pgid: s.pgid });
        }
        entry.started = s;
        stage = 'watch it';
        const ended = await watch(s, job, options);
        if (s.pgid !== undefined && s.clusterId === undefined) options.onEvent({ kind: 'exited', id: spec.id, attempt, code: ended.code, signal: ended.signal ?? null, ...(ended.cpu ? { cpu: ended.cpu } : {}), ...(ended.logDropped ? { silent: true as const } : {}) });
        timedOut = ended.limitHit || Boolean(ended.timedOut);
        // The helper removed the log of a silent first attempt that exited 0 (nothing but the header
        // was in it): a job that is not done after all keeps its log, as every failed job does.
        const keepLog = () => {
          if (ended.logDropped !== true) return;
          try {
            writeFileSync(job.logPath, firstHeader);
          } catch {
            // A full disk: the failure is reported all the same, its log's header is in the run record.
          }
        };
        if (ended.interrupted) {
          interrupted = true;
          keepLog();
          break;
        }
        if (ended.code === 0 && !timedOut && ended.spawnError === undefined) {
          stage = 'check its outputs';
          const { missing, folders } = checkOutputs(spec.outputs, dir, started);
          if (missing.length === 0 && folders.length === 0) {
            if (spec.protectedOutputs.length > 0) protect(spec.protectedOutputs, dir);
            stage = 'record its end';
            // Done only once the record is on disk (group commit, shared with the records appended
            // meanwhile): after a crash, an end that was not synced reruns the job.
            const durable = store.appendDurable({ ...record, status: 'done', endedAt: new Date().toISOString() }, { later: true });
            live.delete(spec.id);
            if (headerBytes > 0 && ended.logDropped !== true) dropEmptyLog(job.logPath, headerBytes, ended.logBytes);
            return { ...base(job), outcome: 'done', attempts: attempt, seconds: (Date.now() - started) / 1000, logOffset, ...(record.slurmJobId ? { slurmJobId: record.slurmJobId } : {}), durable };
          }
          message =
            folders.length > 0
              ? `did not write file ${folders.join(', ')}: a directory is there (declare a directory output with a trailing /, e.g. ${folders[0]}/)`
              : `exited 0 but did not write ${missing.join(', ')}`;
          code = 'RUN021';
        } else if (ended.spawnError !== undefined) {
          message = `could not start: ${ended.spawnError}`;
          code = 'RUN042';
        } else if (timedOut) {
          message = `ran past its time limit of ${job.timeLimitSeconds}s and was stopped`;
          code = 'RUN022';
        } else if (ended.code !== null) {
          message = `exit ${ended.code}`;
          code = FAILED;
        } else {
          message = ended.state ?? `killed by ${ended.signal}`;
          code = executor.lostCode;
        }
        keepLog();
        // A failed attempt's outputs are not to be trusted, not even by the next attempt.
        stage = 'remove what the failed attempt wrote';
        removePartialOutputs(spec.outputs, [], dir);
        if (code === 'RUN042') break; // Starting again would fail the same way.
      }
    } finally {
      live.delete(spec.id);
    }
    stage = 'remove what it wrote';
    removePartialOutputs(spec.outputs, [], dir);
    stage = 'record its end';
    store.write({ ...record, status: 'failed', endedAt: new Date().toISOString() }, { durable: false });
    const seconds = (Date.now() - started) / 1000;
    const done = Math.min(attempt, attempts);
    const clusterId = record.slurmJobId ? { slurmJobId: record.slurmJobId } : {};
    if (interrupted || (options.signal.aborted && message === '')) return { ...base(job), outcome: 'interrupted', attempts: done, seconds, logOffset, ...clusterId };
    return { ...base(job), outcome: code === 'RUN022' ? 'timed out' : 'failed', code, message, attempts: done, seconds, logOffset, ...clusterId };
  } catch (err) {
    // Preparing, starting or recording went wrong: the job fails with the reason, and what it may have
    // written goes. Recording the failure may fail the same way; the `running` record then stays,
    // which reruns the job too.
    live.delete(spec.id);
    try {
      removePartialOutputs(spec.outputs, [], dir);
    } catch {
      // Reported below with the first error.
    }
    if (record !== undefined) {
      try {
        store.write({ ...record, status: 'failed', endedAt: new Date().toISOString() }, { durable: false });
      } catch {
        // See above.
      }
    }
    const submit = (err as NodeJS.ErrnoException).code === 'SUBMIT';
    const message = submit ? (err as Error).message : `could not ${stage}: ${errText(err)}`;
    return { ...base(job), outcome: 'failed', code: submit ? 'RUN046' : 'RUN042', message, attempts: 0, seconds: (Date.now() - started) / 1000 };
  }
}

const FAILED = 'RUN020';

/**
 * A job that succeeded without writing a byte leaves no log: its header (what ran, when) is in the
 * run record too. A log the job wrote to, or a failed job's, stays.
 */
function dropEmptyLog(file: string, headerBytes: number, size?: number): void {
  try {
    if ((size ?? statSync(file).size) === headerBytes) unlinkSync(file);
  } catch {
    // Gone already, or not removable: it stays, which costs only a file.
  }
}

/** Wait for the attempt's end; stop it at its time limit (counted from when it runs) or on Ctrl-C. */
async function watch(s: Started, job: RunJob, options: LifecycleOptions): Promise<Ended & { limitHit: boolean; interrupted: boolean }> {
  let limitHit = false;
  let interrupted = false;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    interrupted = true;
    void s.cancel();
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  if (job.timeLimitSeconds !== undefined) {
    const ms = job.timeLimitSeconds * 1000;
    void s.running.then(() => {
      timer = setTimeout(() => {
        limitHit = true;
        void s.cancel();
      }, ms);
    });
  }
  const ended = await s.ended;
  if (timer !== undefined) clearTimeout(timer);
  options.signal.removeEventListener('abort', onAbort);
  return { ...ended, limitHit, interrupted };
}

/**
 * A runner that died (kill -9, a crash, a lost machine) leaves `running` records of local jobs: their
 * group may still run, and outputs may be half-written. The group is stopped only when it provably is
 * that job's (see proveOwnGroup); otherwise it is left alone and the run says so. Its outputs are
 * removed when the job runs again.
 */
async function recoverLocal(jobs: readonly RunJob[], options: LifecycleOptions, diagnostics: Diagnostic[]): Promise<void> {
  const records = options.store.records();
  // A runner killed after it started a job but before it recorded the job's group left a record with
  // no group (or one written ahead of a job that never started): such a job's group is found by its
  // log and run id, all in one look at /proc.
  const unnamed = new Map<string, string>();
  for (const job of jobs) {
    const r = records.get(job.id);
    if (r !== undefined && r.status === 'running' && r.executor === 'local' && r.pgid === undefined && r.runId !== undefined && r.log !== '') unnamed.set(r.log, r.runId);
  }
  const found = findJobGroups(unnamed);
  for (const job of jobs) {
    const r = records.get(job.id);
    if (r === undefined || r.status !== 'running' || r.executor !== 'local') continue;
    if (r.pgid === undefined) {
      const pgid = found.get(r.log);
      if (pgid !== undefined) {
        options.onEvent({ kind: 'note', message: `stopping process group ${pgid}, left running by an earlier run of ${job.id}` });
        await stopGroup(pgid, options.graceMs);
      }
      continue;
    }
    const owner = proveOwnGroup(r.pgid, r.procStart, r.runId);
    if ('own' in owner && owner.own) {
      options.onEvent({ kind: 'note', message: `stopping process group ${r.pgid}, left running by an earlier run of ${job.id}` });
      await stopGroup(r.pgid!, options.graceMs);
    } else if ('why' in owner) {
      diagnostics.push(diagnostic('RUN044', `${job.id}: a record left by an earlier run names ${owner.why}; it was not signalled`, { rule: job.spec.rule }));
    }
  }
}


