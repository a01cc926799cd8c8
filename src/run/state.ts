// The run state: what each job's last run was. Three things under <workflow dir>/.oxo-flow/state/:
//   jobs/<journal id>.jsonl  the journal of a run (or of a `--touch`): one line per record, appended;
//   index.jsonl              every job's current record, folded from the journals of finished runs;
//   jobs/<hash>.json         one file per job, written by versions before the journal (read, then folded).
// A record says what ran (a hash of the command) and whether it finished: a `running` record left
// behind means the runner died while the job ran, so its outputs are not to be trusted. A record is
// appended at once (a runner killed with -9 leaves it in the file); records that must survive a power
// loss too (a job's start, before it can write anything, and its end, before it counts as done) are
// synced with group commit: every record waiting shares one fdatasync, off the main thread. After a
// crash an unsynced end is lost and the job's `running` record stands: the job reruns (fail closed).
// A record that cannot be read counts as a failed run of its job, which then reruns (with a notice).
// Reading is one index plus the few journals not yet folded, and the index is parsed lazily, line by
// line as jobs are asked for: a start-up costs about the same with 10,000 old records as with none.
// Compaction (compact(), under the project lock) writes the index crash-safely (temporary file, fsync,
// rename, fsync of the folder) and only then removes what it folded; folding twice gives the same index.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fdatasync, fdatasyncSync, fsync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { JobSpec } from '../workflow/plan/index.js';
import { jobHash } from '../workflow/plan/job-hash.js';
import { processStartTime } from './process-group.js';
import { indexText, StateIndex } from './state-index.js';

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

const JOURNAL = '.jsonl';

/**
 * How long a record nobody waits for yet may wait for its sync (group commit: the records appended
 * meanwhile share it). After a power loss, jobs that ended in the last LATER_MS run again.
 */
const LATER_MS = 50;

/**
 * The records by job id. Records of the index stay in the file until a job asks for its own (`get`),
 * so a plan of 10 jobs decodes 10 records, not the 10,000 the index may hold. A per-job file of an
 * older version that exists but cannot be read has lost its job id with its content; its file name is
 * the hash of the id, so `get` still finds it and answers with a `failed` stand-in (dry-run and run
 * both rerun that job). An index that cannot be read answers so for every job it does not know.
 */
export class RecordMap extends Map<string, JobRecord> {
  #index: StateIndex | undefined;
  /** Ids whose index record is superseded by nothing (an unreadable per-job file that is newer). */
  readonly #hidden = new Set<string>();
  readonly #damaged: boolean;

  constructor(
    readonly unreadable: ReadonlySet<string> = new Set(),
    index?: StateIndex,
    damaged = false,
  ) {
    super();
    this.#index = index;
    this.#damaged = damaged;
  }

  override get(id: string): JobRecord | undefined {
    const found = super.get(id) ?? this.#fromIndex(id);
    if (found !== undefined || !this.isUnreadable(id)) return found;
    return standIn(id);
  }

  override has(id: string): boolean {
    return super.has(id) || (this.#index !== undefined && !this.#hidden.has(id) && this.#index.lookup(id) !== undefined);
  }

  override delete(id: string): boolean {
    const had = this.has(id);
    this.#hidden.add(id);
    super.delete(id);
    return had;
  }

  override get size(): number {
    this.#all();
    return super.size;
  }

  override entries(): MapIterator<[string, JobRecord]> {
    this.#all();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.#all();
    return super.keys();
  }

  override values(): MapIterator<JobRecord> {
    this.#all();
    return super.values();
  }

  override forEach(fn: (value: JobRecord, key: string, map: Map<string, JobRecord>) => void, thisArg?: unknown): void {
    this.#all();
    super.forEach(fn, thisArg);
  }

  override [Symbol.iterator](): MapIterator<[string, JobRecord]> {
    return this.entries();
  }

  /** True when the job's record exists but could not be read. */
  isUnreadable(id: string): boolean {
    if (this.has(id)) return false;
    return this.#damaged || (this.unreadable.size > 0 && this.unreadable.has(fileName(id)));
  }

  /** Records decoded or written so far (not those still only in the index). */
  parsed(): IterableIterator<[string, JobRecord]> {
    return super.entries();
  }

  /** What compaction writes: [JSON-encoded id, record text] of every record, index lines copied as they are. */
  lines(): [string, string][] {
    const out: [string, string][] = [];
    const shadowed = super.size > 0 || this.#hidden.size > 0;
    if (this.#index !== undefined) {
      for (const [key, text] of this.#index.lines()) {
        if (shadowed) {
          const id = JSON.parse(key) as string;
          if (super.has(id) || this.#hidden.has(id)) continue;
        }
        out.push([key, text]);
      }
    }
    for (const [id, r] of super.entries()) out.push([JSON.stringify(id), JSON.stringify(r)]);
    return out;
  }

  #fromIndex(id: string): JobRecord | undefined {
    if (this.#index === undefined || this.#hidden.has(id)) return undefined;
    const text = this.#index.lookup(id);
    if (text === undefined) return undefined;
    // A damaged index line: the job's record cannot be read, so it reruns.
    const record = parseRecord(text) ?? standIn(id);
    super.set(id, record);
    return record;
  }

  #all(): void {
    if (this.#index === undefined) return;
    for (const [key] of this.#index.lines()) {
      let id: unknown;
      try {
        id = JSON.parse(key);
      } catch {
        continue;
      }
      if (typeof id === 'string' && !super.has(id)) this.#fromIndex(id);
    }
    this.#index = undefined;
  }
}

function standIn(id: string): JobRecord {
  return { version: 1, id, rule: '', hash: '', status: 'failed', startedAt: new Date(0).toISOString(), preexisting: [], executor: 'unknown', log: '' };
}

/** What a load found on disk besides the records: what compaction folds and removes. */
interface Loaded {
  records: RecordMap;
  /** Journals read, with whether the process that wrote each is gone (then it may be removed). */
  journals: { file: string; writerGone: boolean }[];
  /** Per-job files of older versions that were read (folded), or superseded when unreadable. */
  legacy: string[];
  /** Temporary files left by a killed writer of an older version. */
  temps: string[];
}

export interface Compacted {
  /** Records in the index after compaction. */
  records: number;
  journals: number;
  legacyFiles: number;
  /** Records of jobs dropped by `keep` (clean --state). */
  dropped: number;
}

export class StateStore {
  readonly jobsDir: string;
  readonly logsDir: string;
  readonly indexFile: string;
  readonly #journalId: string | undefined;
  #journalFile: string | undefined;
  #loaded: Loaded | undefined;
  #fd: number | undefined;
  #newFile = false;
  /** A write failed midway: the next record starts on a line of its own. */
  #brokenLine = false;
  #waiting: { record: JobRecord; resolve(): void; reject(err: unknown): void }[] = [];
  /** A sync is under way (on libuv's threads). */
  #committing = false;
  /** Some record waiting needs its sync now (a job waits for it to start). */
  #urgent = false;
  /** The next sync, when it is set for later (records nobody waits for yet) or for the next turn. */
  #next: { timer: NodeJS.Timeout; soon: false } | { timer: NodeJS.Immediate; soon: true } | undefined;

  /**
   * `sync` false skips fsync altogether (OXO_FLOW_FSYNC=0): records stay whole against a killed
   * runner, but not against a power loss. For throwaway scratch projects (docs/benchmarks.md).
   * `journalId` names this writer's journal (the run id); each store writes its own. Without one, a
   * name is made when the journal is first named (a store that only reads, dry-run's, never makes one:
   * randomBytes would load node:crypto for nothing).
   */
  constructor(
    readonly workflowDir: string,
    readonly sync = true,
    journalId?: string,
  ) {
    this.#journalId = journalId;
    const state = path.join(stateDir(workflowDir), 'state');
    this.jobsDir = path.join(state, 'jobs');
    this.indexFile = path.join(state, 'index.jsonl');
    this.logsDir = path.join(stateDir(workflowDir), 'logs');
  }

  /** This writer's journal file. */
  get journalFile(): string {
    if (this.#journalFile === undefined) {
      const id = this.#journalId ?? `${Date.now().toString(36)}-${process.pid}-${randomBytes(3).toString('hex')}`;
      this.#journalFile = path.join(this.jobsDir, `${id.replace(/[^A-Za-z0-9_.-]/g, '_')}${JOURNAL}`);
    }
    return this.#journalFile;
  }

  /** A store writing its own journal (the run's), sharing the records this one read. */
  forWriting(journalId: string, sync: boolean): StateStore {
    const s = new StateStore(this.workflowDir, sync, journalId);
    s.#loaded = this.#loaded;
    return s;
  }

  /** Every record, by job id (read once; later writes keep the map current). */
  records(): RecordMap {
    this.#loaded ??= load(this);
    return this.#loaded.records;
  }

  /** True when there is something to fold: a journal or a per-job file (a start-up with none costs nothing). */
  needsCompaction(): boolean {
    this.records();
    const l = this.#loaded!;
    return l.journals.some((j) => j.file !== this.journalFile) || l.legacy.length > 0 || l.temps.length > 0;
  }

  /**
   * Append a record to this store's journal. Throws (with the errno code: ENOSPC, EACCES, EROFS,
   * ENOTDIR…) when it cannot be written. `durable` (the default) also syncs it, so the record
   * survives a power loss; the lifecycle uses writeDurable instead, which shares the sync.
   */
  write(record: JobRecord, options: { durable?: boolean } = {}): void {
    this.#append(record);
    if (this.sync && (options.durable ?? true)) {
      fdatasyncSync(this.#fd!);
      if (this.#newFile) {
        syncDir(this.jobsDir);
        this.#newFile = false;
      }
    }
    this.records().set(record.id, record);
  }

  /**
   * Append a record now and resolve once it is on disk, with group commit: every record appended
   * while a sync is under way shares the next one, so jobs that start or end at about the same time
   * share one disk flush, and the runner goes on meanwhile. Rejects (ENOSPC, EIO…) when it is not.
   */
  writeDurable(record: JobRecord): Promise<void> {
    try {
      return this.appendDurable(record);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * writeDurable, but a record that cannot be appended throws at once (ENOSPC…); the promise tells
   * whether its sync succeeded. The record is in the file (and survives a killed runner) on return.
   * `later`: nobody waits for this sync yet (a job's end, a start written ahead): it may wait up to
   * LATER_MS to share a sync with what comes meanwhile; hurry() syncs everything waiting at once.
   */
  appendDurable(record: JobRecord, options: { later?: boolean } = {}): Promise<void> {
    this.#append(record);
    if (!this.sync) {
      this.records().set(record.id, record);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ record, resolve, reject });
      if (options.later !== true) this.#urgent = true;
      this.#schedule();
    });
  }

  /** Sync now what waits for a later sync (a job is about to need it, or the run ends). */
  hurry(): void {
    if (this.#waiting.length === 0) return;
    this.#urgent = true;
    this.#schedule();
  }

  /** Set the next sync: on the next turn when a record is urgent, else within LATER_MS; never two at once. */
  #schedule(): void {
    if (this.#committing || this.#waiting.length === 0) return;
    if (this.#next !== undefined) {
      if (this.#next.soon || !this.#urgent) return;
      clearTimeout(this.#next.timer);
      this.#next = undefined;
    }
    this.#next = this.#urgent ? { timer: setImmediate(() => void this.#commit()), soon: true } : { timer: setTimeout(() => void this.#commit(), LATER_MS), soon: false };
  }

  /**
   * Take back this journal's records of a job that never started (its start record was written
   * ahead, see the lifecycle): what the other sources say of it stands again, here as `previous`
   * (what records() said before). Never synced: if it is lost, the start record stands and the job
   * reruns (fail closed). Throws as write() does.
   */
  withdraw(id: string, previous: JobRecord | undefined): void {
    this.#ensureOpen();
    this.#line(`${JSON.stringify({ withdrawn: id })}\n`);
    const records = this.records();
    if (previous !== undefined) records.set(id, previous);
    else records.delete(id);
  }

  /** Close the journal (after the last write of the run). */
  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /**
   * Fold the journals of finished writers and older versions' per-job files into the index, then
   * remove them. Call it holding the project lock (src/run/lock.ts), with this store's own journal
   * closed. `keep`, when given, drops the `done` records of jobs it refuses (clean --state: jobs the
   * workflow no longer has); records of unfinished runs are always kept (they fail closed).
   */
  compact(keep?: (id: string) => boolean): Compacted {
    this.close();
    const loaded = load(this);
    const records = loaded.records;
    let dropped = 0;
    let lines = records.lines();
    if (keep !== undefined) {
      lines = lines.filter(([key, text]) => {
        if (keep(JSON.parse(key) as string) || parseRecord(text)?.status !== 'done') return true;
        dropped++;
        return false;
      });
    }
    writeDurably(this.indexFile, indexText(lines), this.sync);
    // Only now that the index holds them: a crash before this line folds them again, to the same.
    for (const j of loaded.journals) if (j.writerGone || j.file === this.journalFile) rmSync(j.file, { force: true });
    for (const f of [...loaded.legacy, ...loaded.temps]) rmSync(f, { force: true });
    this.#loaded = undefined;
    shrinkIfEmpty(this.jobsDir);
    return { records: lines.length, journals: loaded.journals.length, legacyFiles: loaded.legacy.length, dropped };
  }

  /** The per-job log file of the runner (the job's stdout and stderr). */
  logPath(jobId: string): string {
    return path.join(this.logsDir, logName(jobId));
  }

  #append(record: JobRecord): void {
    this.#ensureOpen();
    this.#line(`${JSON.stringify(record)}\n`);
  }

  #ensureOpen(): void {
    if (this.#fd !== undefined) return;
    mkdirSync(this.jobsDir, { recursive: true });
    this.#fd = openSync(this.journalFile, 'a');
    this.#newFile = true;
    const start = processStartTime(process.pid);
    this.#line(`${JSON.stringify({ journal: 1, pid: process.pid, host: hostname(), ...(start !== undefined ? { procStart: start } : {}) })}\n`);
  }

  #line(text: string): void {
    const data = Buffer.from(this.#brokenLine ? `\n${text}` : text);
    let at = 0;
    try {
      while (at < data.length) at += writeSync(this.#fd!, data, at);
      this.#brokenLine = false;
    } catch (err) {
      // Part of the line may be in the file: the reader skips it, and the next record starts afresh.
      this.#brokenLine = true;
      throw err;
    }
  }

  /** One sync for every record waiting (group commit), then the next if more came meanwhile. */
  async #commit(): Promise<void> {
    this.#next = undefined;
    this.#committing = true;
    this.#urgent = false;
    const batch = this.#waiting.splice(0);
    const fd = this.#fd!;
    const newFile = this.#newFile;
    this.#newFile = false;
    try {
      await new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
      if (newFile) await syncDirAsync(this.jobsDir);
      for (const b of batch) {
        this.records().set(b.record.id, b.record);
        b.resolve();
      }
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
    this.#committing = false;
    this.#schedule();
  }
}

/**
 * Read the state: the index, the per-job files of older versions, then the journals, the newest
 * record of each job winning (the time a record was last written: its end, else its start; the
 * later source on a tie). A compaction that runs meanwhile (another process holding the lock) may
 * remove a journal between listing and reading it: then everything is read again.
 */
function load(store: StateStore): Loaded {
  for (let attempt = 0; ; attempt++) {
    const got = loadOnce(store);
    if (got !== undefined || attempt >= 5) return got ?? loadOnce(store, true)!;
  }
}

function loadOnce(store: StateStore, tolerateVanished = false): Loaded | undefined {
  let names: string[];
  try {
    names = readdirSync(store.jobsDir).sort();
  } catch {
    names = [];
  }
  const read = StateIndex.read(store.indexFile);
  const index = read === 'damaged' ? undefined : read;
  const damaged = read === 'damaged';

  const newer = new Map<string, JobRecord>();
  const offer = (r: JobRecord) => {
    const old = newer.get(r.id);
    if (old === undefined || stamp(r) >= stamp(old)) newer.set(r.id, r);
  };
  const unreadable = new Map<string, number>();
  const legacy: string[] = [];
  const temps: string[] = [];
  const journals: Loaded['journals'] = [];
  for (const name of names) {
    const file = path.join(store.jobsDir, name);
    if (name.endsWith('.tmp')) {
      temps.push(file);
      continue;
    }
    if (name.endsWith('.json')) {
      const content = readStateFile(file, tolerateVanished);
      if (content === VANISHED) return undefined;
      if (content === undefined) continue;
      const r = parseRecord(content);
      if (r !== undefined) {
        offer(r);
        legacy.push(file);
      } else unreadable.set(name, statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      continue;
    }
    if (!name.endsWith(JOURNAL)) continue;
    const content = readStateFile(file, tolerateVanished);
    if (content === VANISHED) return undefined;
    if (content === undefined) continue;
    let writerGone = true;
    let start = 0;
    // Within a journal the later line wins; a withdrawal takes back what this journal said of a job
    // (a start record written ahead for a job that then never started), leaving the other sources' word.
    const said = new Map<string, JobRecord | undefined>();
    while (start < content.length) {
      let end = content.indexOf('\n', start);
      if (end < 0) end = content.length; // cut short by a killed writer: parsed if whole, else skipped
      const line = content.slice(start, end);
      start = end + 1;
      if (line === '') continue;
      if (line.startsWith('{"journal":')) {
        writerGone = !writerAlive(line);
        continue;
      }
      if (line.startsWith(WITHDRAWN)) {
        const id = parseWithdrawal(line);
        if (id !== undefined) said.set(id, undefined);
        continue;
      }
      const r = parseRecord(line);
      if (r !== undefined) said.set(r.id, r);
    }
    for (const [id, r] of said) if (r !== undefined) newer.set(id, r);
    journals.push({ file, writerGone });
  }

  const records = new RecordMap(new Set(unreadable.keys()), index, damaged);
  for (const r of newer.values()) {
    const old = records.get(r.id);
    if (old !== undefined && !records.isUnreadable(r.id) && stamp(old) > stamp(r)) continue;
    records.set(r.id, r);
  }
  // An unreadable per-job file stands for a failed run, unless a later record of its job supersedes it.
  if (unreadable.size > 0) {
    for (const [key] of index?.lines() ?? []) {
      const id = JSON.parse(key) as string;
      if (unreadable.has(fileName(id))) records.get(id);
    }
    for (const [id, r] of [...records.parsed()]) {
      const name = fileName(id);
      const at = unreadable.get(name);
      if (at === undefined) continue;
      if (stamp(r) < at) records.delete(id);
      else legacy.push(path.join(store.jobsDir, name));
    }
  }
  return { records, journals, legacy, temps };
}

/**
 * A withdrawal line: `{"withdrawn":"<job id>"}`. Versions before it skip the line (it is no record),
 * so for them the start record written ahead stands and the job reruns: fail closed.
 */
const WITHDRAWN = '{"withdrawn":';

function parseWithdrawal(text: string): string | undefined {
  try {
    const w = JSON.parse(text) as { withdrawn?: unknown };
    return typeof w.withdrawn === 'string' ? w.withdrawn : undefined;
  } catch {
    return undefined;
  }
}

function parseRecord(text: string): JobRecord | undefined {
  try {
    const r = JSON.parse(text) as JobRecord;
    if (r && r.version === 1 && typeof r.id === 'string' && typeof r.status === 'string' && typeof r.startedAt === 'string') return r;
  } catch {
    // A damaged or cut-short record.
  }
  return undefined;
}

/** When a record was last written: its end, else its start. */
function stamp(r: JobRecord): number {
  const t = Date.parse(r.endedAt ?? r.startedAt);
  return Number.isNaN(t) ? 0 : t;
}

/** The journal's writer still runs (this host, same pid and start time): its journal stays. */
function writerAlive(headerLine: string): boolean {
  let h: { pid?: number; host?: string; procStart?: number };
  try {
    h = JSON.parse(headerLine) as typeof h;
  } catch {
    return false;
  }
  if (typeof h.pid !== 'number' || h.host !== hostname() || h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return h.procStart === undefined || processStartTime(h.pid) === h.procStart;
}

/** Replace a file crash-safely: temporary file, fsync, rename, fsync of its folder; no temporary outlives a failure. */
function writeDurably(file: string, text: string, sync: boolean): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w');
    const data = Buffer.from(text);
    let at = 0;
    while (at < data.length) at += writeSync(fd, data, at);
    if (sync) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  if (sync) syncDir(path.dirname(file));
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

/**
 * A folder that once held thousands of per-job files keeps its size after they go (ext4 never shrinks
 * a directory), and every start reads all of it: an empty one that grew past 64 KiB is made anew.
 */
function shrinkIfEmpty(dir: string): void {
  try {
    if (statSync(dir).size <= 64 * 1024) return;
    rmdirSync(dir);
    mkdirSync(dir);
  } catch {
    // Not empty (a live writer's journal), or not ours to remove: it stays as it is.
  }
}

/** A new name is durable only once its folder is synced (not every file system allows it). */
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

/** The per-job file name of older versions: a hash of the job id. */
function fileName(jobId: string): string {
  return `${createHash('sha256').update(jobId).digest('hex').slice(0, 32)}.json`;
}

const VANISHED = Symbol('vanished');

/**
 * A state file's text; undefined when it cannot be read (the scan skips it); VANISHED when it was
 * removed under the scan (a compaction) and the caller must read again, unless told to tolerate it.
 */
function readStateFile(file: string, tolerateVanished: boolean): string | undefined | typeof VANISHED {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' && !tolerateVanished ? VANISHED : undefined;
  }
}
