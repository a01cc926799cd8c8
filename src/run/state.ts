// The run state: one small JSON file per job under <workflow dir>/.oxo-flow/state/jobs/, each written
// crash-safely (a temporary file, fsync, rename, fsync of the directory), so a runner killed at any
// instant, or a machine that loses power, leaves every record either in its old or its new form,
// never half-written. A record says what ran (a hash of the command), and whether it finished: a
// `running` record left behind means the runner died while the job ran, so its outputs are not to be
// trusted. The store fails closed: a record that cannot be read counts as a failed run of its job,
// which then reruns (with a notice), rather than as "no record", which would trust the files alone.
import { createHash } from 'node:crypto';
import { closeSync, fsync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { JobSpec } from '../workflow/plan/index.js';
import { jobHash } from '../workflow/plan/job-hash.js';

export type RecordStatus = 'running' | 'done' | 'failed';

export interface JobRecord {
  version: 1;
  id: string;
  rule: string;
  /** jobHash() of the job as it ran. */
  hash: string;
  status: RecordStatus;
  startedAt: string;
  endedAt?: string;
  /** Outputs that existed before this job started (kept for records written by older versions). */
  preexisting: string[];
  /** Process group of a local job, while it runs. */
  pgid?: number;
  /** The group leader's start time (clock ticks since boot, /proc/PID/stat field 22): proves a pgid was ours. */
  procStart?: number;
  /** The run that wrote the record: its jobs carry it as OXO_FLOW_RUN_ID. */
  runId?: string;
  /** Scheduler job id of a submitted job (Slurm or Grid Engine). */
  slurmJobId?: string;
  /** Where a cluster job writes its exit status (so a later run can adopt a job still queued). */
  exitFile?: string;
  executor: string;
  log: string;
}

/** The record a job gets as it starts, before its process exists: a crash from here on reads as unfinished. */
export function startRecord(spec: JobSpec, executor: JobRecord['executor'], preexisting: string[], log: string, started = Date.now(), runId?: string): JobRecord {
  const r: JobRecord = { version: 1, id: spec.id, rule: spec.rule, hash: jobHash(spec), status: 'running', startedAt: new Date(started).toISOString(), preexisting, executor, log };
  if (runId !== undefined) r.runId = runId;
  return r;
}

/** Where a workflow keeps its run state and logs. */
export function stateDir(workflowDir: string): string {
  return path.join(workflowDir, '.oxo-flow');
}

/** The hash a record carries; defined by the plan, which compares it. */
export { jobHash } from '../workflow/plan/job-hash.js';

/**
 * The records by job id. A record file that exists but cannot be read has lost its job id with its
 * content; its file name is the hash of the id, so `get` still finds it and answers with a `failed`
 * stand-in: dry-run and run both then rerun that job.
 */
export class RecordMap extends Map<string, JobRecord> {
  constructor(readonly unreadable: ReadonlySet<string> = new Set()) {
    super();
  }

  override get(id: string): JobRecord | undefined {
    const found = super.get(id);
    if (found !== undefined || this.unreadable.size === 0 || !this.unreadable.has(fileName(id))) return found;
    return { version: 1, id, rule: '', hash: '', status: 'failed', startedAt: new Date(0).toISOString(), preexisting: [], executor: 'unknown', log: '' };
  }

  /** True when the job's record file exists but could not be read. */
  isUnreadable(id: string): boolean {
    return super.get(id) === undefined && this.unreadable.has(fileName(id));
  }
}

export class StateStore {
  readonly jobsDir: string;
  readonly logsDir: string;
  #records: RecordMap | undefined;
  #dirReady = false;
  #batch: Pending[] = [];
  #flushing = false;
  #seq = 0;

  /**
   * `sync` false skips fsync altogether (OXO_FLOW_FSYNC=0): records stay atomic against a killed
   * runner, but not against a power loss. For throwaway scratch projects; fsync costs about 10 ms a
   * job on a busy disk (docs/benchmarks.md).
   */
  constructor(
    readonly workflowDir: string,
    readonly sync = true,
  ) {
    this.jobsDir = path.join(stateDir(workflowDir), 'state', 'jobs');
    this.logsDir = path.join(stateDir(workflowDir), 'logs');
  }

  /** Every record on disk, by job id (read once; later writes keep the map current). */
  records(): RecordMap {
    if (this.#records !== undefined) return this.#records;
    let names: string[] = [];
    try {
      names = readdirSync(this.jobsDir);
    } catch {
      names = [];
    }
    const unreadable = new Set<string>();
    const parsed: JobRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const r = JSON.parse(readFileSync(path.join(this.jobsDir, name), 'utf8')) as JobRecord;
        if (r && r.version === 1 && typeof r.id === 'string' && typeof r.status === 'string') parsed.push(r);
        else unreadable.add(name);
      } catch {
        unreadable.add(name);
      }
    }
    const out = new RecordMap(unreadable);
    for (const r of parsed) out.set(r.id, r);
    this.#records = out;
    return out;
  }

  /**
   * Crash-safely replace a job's record. Throws (with the errno code: ENOSPC, EACCES, EROFS,
   * ENAMETOOLONG…) when it cannot be written; the temporary file never outlives a failure. `durable`
   * (the default) syncs the file and its directory, so the record survives a power loss too: needed
   * for the `running` record, which must be on disk before the job can write anything.
   */
  write(record: JobRecord, options: { durable?: boolean } = {}): void {
    const durable = this.sync && (options.durable ?? true);
    const file = path.join(this.jobsDir, fileName(record.id));
    const temp = `${file}.${process.pid}.tmp`;
    const fd = this.#writeTemp(temp, record);
    try {
      if (durable) fsyncSync(fd);
      closeSync(fd);
      renameSync(temp, file);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    if (durable) syncDir(this.jobsDir);
    this.records().set(record.id, record);
  }

  /**
   * Durably replace a job's record, with group commit: the temporary file is written now; fsync, rename
   * and the directory's fsync happen together for every record waiting, off the main thread, so jobs
   * that start at about the same time share one disk flush and the runner goes on meanwhile. Resolves
   * once the record is on disk and in place; rejects (ENOSPC…) with the temporary file removed.
   */
  writeDurable(record: JobRecord): Promise<void> {
    if (!this.sync) {
      this.write(record, { durable: false });
      return Promise.resolve();
    }
    const file = path.join(this.jobsDir, fileName(record.id));
    const temp = `${file}.${process.pid}.${this.#seq++}.tmp`;
    let opened: number;
    try {
      opened = this.#writeTemp(temp, record);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      this.#batch.push({ record, file, temp, fd: opened, resolve, reject });
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  /** Write a record to its temporary file and return the open descriptor; nothing is left behind on failure. */
  #writeTemp(temp: string, record: JobRecord): number {
    if (!this.#dirReady) {
      mkdirSync(this.jobsDir, { recursive: true });
      this.#dirReady = true;
    }
    let fd: number | undefined;
    try {
      fd = openSync(temp, 'w');
      const data = Buffer.from(JSON.stringify(record));
      let at = 0;
      while (at < data.length) at += writeSync(fd, data, at);
      return fd;
    } catch (err) {
      if (fd !== undefined) closeSync(fd);
      rmSync(temp, { force: true });
      throw err;
    }
  }

  async #flush(): Promise<void> {
    while (this.#batch.length > 0) {
      const batch = this.#batch.splice(0);
      const synced = await Promise.allSettled(batch.map((b) => fsyncAsync(b.fd)));
      const placed: Pending[] = [];
      batch.forEach((b, i) => {
        closeSync(b.fd);
        const r = synced[i]!;
        try {
          if (r.status === 'rejected') throw r.reason;
          renameSync(b.temp, b.file);
          placed.push(b);
        } catch (err) {
          rmSync(b.temp, { force: true });
          b.reject(err);
        }
      });
      if (placed.length === 0) continue;
      await syncDirAsync(this.jobsDir);
      for (const b of placed) {
        this.records().set(b.record.id, b.record);
        b.resolve();
      }
    }
    this.#flushing = false;
  }

  /** The per-job log file of the runner (the job's stdout and stderr). */
  logPath(jobId: string): string {
    return path.join(this.logsDir, logName(jobId));
  }
}

/**
 * A log's file name from the job id: readable, never longer than a file system allows (255 bytes),
 * and never shared by two ids: when characters had to be replaced, a hash of the id tells apart ids
 * that read the same afterwards (`a b` and `a_b`).
 */
export function logName(jobId: string): string {
  const safe = jobId.replace(/[^A-Za-z0-9_.=,-]+/g, '_');
  if (Buffer.byteLength(safe) <= 160 && !safe.startsWith('.')) {
    return safe === jobId ? `${safe}.log` : `${safe}-${createHash('sha256').update(jobId).digest('hex').slice(0, 8)}.log`;
  }
  return `${safe.slice(0, 100).replace(/^\./, '_')}-${createHash('sha256').update(jobId).digest('hex').slice(0, 16)}.log`;
}

interface Pending {
  record: JobRecord;
  file: string;
  temp: string;
  fd: number;
  resolve(): void;
  reject(err: unknown): void;
}

function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/** syncDir, on libuv's threads. */
function syncDirAsync(dir: string): Promise<void> {
  return new Promise((resolve) => {
    let fd: number;
    try {
      fd = openSync(dir, 'r');
    } catch {
      resolve();
      return;
    }
    fsync(fd, () => {
      closeSync(fd);
      resolve();
    });
  });
}

/** The rename is durable only once the directory itself is synced (not every file system allows it). */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // A directory that cannot be opened or synced (some network file systems): the rename stands.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Job ids hold brackets, `=` and sample names: a hash keeps file names short and safe. */
function fileName(jobId: string): string {
  return `${createHash('sha256').update(jobId).digest('hex').slice(0, 32)}.json`;
}
