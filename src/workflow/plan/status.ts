// Why each job will run or be skipped: the one place that decides. From file existence and
// modification times, the run state (unfinished jobs, changed commands, --forcerun) and temp outputs,
// visited in dependency order so "upstream will run" is known before a job is decided. Per-job loops
// are indexed: before V8 optimises them, a for-of allocates an iterator result per element.
import type { Dag } from '../dag/build-dag.js';
import { pathKey } from '../dag/build-dag.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import { jobHash } from './job-hash.js';
import type { JobReason, JobStatus, PlanFs, PlanState } from './types.js';
import type { Environment } from '../model.js';

/** Shared by every job with no missing input; frozen so that no caller can add to it by mistake. */
const NONE_MISSING = Object.freeze([]) as unknown as string[];

export interface JobDecision {
  readonly status: JobStatus;
  readonly reason: JobReason;
  readonly detail?: string;
  readonly missingInputs: string[];
  /** Temp outputs (path keys) that are gone but not needed: set only on a skip. */
  readonly tempGone?: readonly string[];
}

export interface StatusInput {
  jobs: readonly ExpandedJob[];
  dag: Dag;
  /** The jobs of this plan (targets and what they need); undefined: every job. */
  keep: Uint8Array | undefined;
  /** Jobs named as targets: their outputs are wanted even when temp. */
  targets: ReadonlySet<number>;
  whenFalse: ReadonlySet<string>;
  fs: PlanFs;
  resolve: (p: string) => string;
  state?: PlanState;
  /** `[defaults] environment`: the environment of a rule that declares none (it is in the job's hash). */
  defaultEnvironment?: Environment;
}

// The decisions that carry nothing job-specific, shared by every job they fit: a fresh 12,000-job plan
// is 12,000 times "never completed", and one object each is memory the collector must copy.
const NEVER_COMPLETED: JobDecision = Object.freeze({ status: 'run', reason: 'never completed', missingInputs: NONE_MISSING });
const UP_TO_DATE: JobDecision = Object.freeze({ status: 'skip', reason: 'up to date', missingInputs: NONE_MISSING });
const WHEN_FALSE: JobDecision = Object.freeze({ status: 'skip', reason: 'when false', missingInputs: NONE_MISSING });

/** How many folders existsInListing remembers by name (see there). */
const RECENT_FOLDERS = 4;

export function decideStatuses(input: StatusInput): (JobDecision | undefined)[] {
  const { jobs, dag, keep, fs, resolve } = input;
  // Existence mostly comes from directory listings (below), which need no per-path record. A stat is
  // paid only for a path no listing answers, or when a time is compared, which happens only for jobs
  // whose outputs all exist; its answer (mtime, or null when absent) is kept per path.
  const stats = new Map<string, number | null>();
  const statOf = (p: string, key: string): number | null => {
    let state = stats.get(key);
    if (state === undefined) {
      state = fs.stat(resolve(p))?.mtimeMs ?? null;
      stats.set(key, state);
    }
    return state;
  };
  const exists = (p: string, key = pathKey(p)): boolean => existsInListing(key) ?? statOf(p, key) !== null;
  const mtime = (p: string): number | undefined => {
    const key = pathKey(p);
    if (existsInListing(key) === false) return undefined;
    return statOf(p, key) ?? undefined;
  };
  // A fresh project has thousands of outputs in a few folders that do not exist yet: one look at each
  // folder answers "missing" for all of them, instead of one failed stat per file.
  const listings = new Map<string, Set<string> | null>();
  // The folders of the last few answers: consecutive paths mostly share one (a rule's inputs, its
  // outputs), and comparing a path's start finds it without cutting out and hashing the folder name.
  const recent: { dir: string; names: Set<string> | null }[] = [];
  // Keyed by the directory as written (the workflow's relative paths), so a path is resolved only
  // when its directory is listed for the first time or a stat is needed. A listing holds each entry
  // as the key of its path (`dir/name`), so a path is looked up as it is, never cut.
  const existsInListing = (key: string): boolean | undefined => {
    const slash = key.lastIndexOf('/');
    if (slash === key.length - 1) return undefined; // "dir/": let stat answer
    for (let r = 0; r < recent.length; r++) {
      const seen = recent[r]!;
      if (seen.dir.length === slash && key.startsWith(seen.dir)) return seen.names === null ? false : seen.names.has(key);
    }
    const names = folderListing(key, slash);
    return names === undefined ? undefined : names === null ? false : names.has(key);
  };
  /** The listing of the folder of `key` (its last slash at `slash`), remembered; undefined when it cannot be listed. */
  const folderListing = (key: string, slash: number): Set<string> | null | undefined => {
    const dir = slash < 0 ? '.' : slash === 0 ? '/' : key.slice(0, slash);
    let names = listings.get(dir);
    if (names === undefined) {
      const full = resolve(dir);
      const listed = fs.list(full);
      if (listed === undefined) {
        if (fs.stat(full) !== undefined) return undefined;
        names = null;
      } else {
        const prefix = slash < 0 ? '' : slash === 0 ? '/' : `${dir}/`;
        names = new Set();
        for (let n = 0; n < listed.length; n++) names.add(prefix + listed[n]!);
      }
      listings.set(dir, names);
    }
    if (slash > 0) {
      if (recent.length === RECENT_FOLDERS) recent.pop();
      recent.unshift({ dir, names });
    }
    return names;
  };
  const ctx: Context = {
    jobs,
    dag,
    exists,
    mtime,
    forced: new Set(input.state?.forcerun ?? []),
    records: input.state?.records,
    defaultEnvironment: input.defaultEnvironment,
    targets: input.targets,
    tempReaders: tempReaders(jobs, dag),
    mustRun: new Map(),
    virtual: new Map(),
  };
  // A removed temp output is provisionally fine; when a job that runs turns out to read one, its
  // producer must run after all, which can make more jobs run: repeat until nothing changes. Each
  // round only turns skips into runs, so it ends; without temp outputs there is one round.
  for (;;) {
    const decisions = decideOnce(ctx, keep, input.whenFalse);
    if (ctx.tempReaders === undefined || !needTempProducers(ctx, keep, decisions)) return decisions;
  }
}

interface Context {
  jobs: readonly ExpandedJob[];
  dag: Dag;
  /** `key`: the path's pathKey, when the caller has it. */
  exists: (p: string, key?: string) => boolean;
  mtime: (p: string) => number | undefined;
  forced: ReadonlySet<string>;
  records: PlanState['records'] | undefined;
  defaultEnvironment: Environment | undefined;
  targets: ReadonlySet<number>;
  /** Temp output key → how many jobs read it; undefined when the workflow has no temp output. */
  tempReaders: Map<string, number> | undefined;
  /** Jobs whose removed temp output a running job reads, with the reason. */
  mustRun: Map<number, string>;
  /** Removed temp outputs → the time they stand for (their producer's newest input). */
  virtual: Map<string, number>;
}

function decideOnce(ctx: Context, keep: Uint8Array | undefined, whenFalse: ReadonlySet<string>): (JobDecision | undefined)[] {
  const { jobs, dag, exists } = ctx;
  const decisions: (JobDecision | undefined)[] = new Array(jobs.length);
  for (let o = 0; o < dag.order.length; o++) {
    const i = dag.order[o]!;
    if (keep !== undefined && !keep[i]) continue;
    const j = jobs[i]!;
    // Most jobs miss nothing: they share one empty list instead of allocating their own. An input a
    // job of the plan makes is never missing, so its existence is not even asked.
    let missingInputs: string[] = NONE_MISSING;
    for (let k = 0; k < j.inputs.length; k++) {
      const input = j.inputs[k]!;
      const key = pathKey(input);
      const producer = dag.producers.get(key);
      if (producer !== undefined && decisions[producer]?.reason !== 'when false') continue;
      if (exists(input, key)) continue;
      if (missingInputs === NONE_MISSING) missingInputs = [];
      missingInputs.push(input);
    }
    if (whenFalse.size > 0 && whenFalse.has(j.rule.name)) {
      decisions[i] = WHEN_FALSE;
      continue;
    }
    decisions[i] = decide(ctx, i, decisions, missingInputs);
  }
  return decisions;
}

/** Every temp output a running job reads and that is gone makes its producer run. True when one did. */
function needTempProducers(ctx: Context, keep: Uint8Array | undefined, decisions: readonly (JobDecision | undefined)[]): boolean {
  let added = false;
  for (let i = 0; i < decisions.length; i++) {
    if (decisions[i]?.status !== 'run' || (keep !== undefined && !keep[i])) continue;
    const deps = ctx.dag.deps[i]!;
    for (let k = 0; k < deps.length; k++) {
      const d = deps[k]!;
      const gone = decisions[d]?.tempGone;
      if (gone === undefined || ctx.mustRun.has(d)) continue;
      const job = ctx.jobs[i]!;
      const read = job.inputs.find((p) => gone.includes(pathKey(p)));
      if (read === undefined) continue;
      ctx.mustRun.set(d, `${read} (a removed temp_output) is needed by ${job.id}`);
      added = true;
    }
  }
  return added;
}

/** How many jobs read each temp output, or undefined when there is none. */
function tempReaders(jobs: readonly ExpandedJob[], dag: Dag): Map<string, number> | undefined {
  let temps: Set<string> | undefined;
  for (let i = 0; i < jobs.length; i++) {
    const t = jobs[i]!.tempOutputs;
    for (let k = 0; k < t.length; k++) (temps ??= new Set()).add(pathKey(t[k]!));
  }
  if (temps === undefined) return undefined;
  const readers = new Map<string, number>();
  for (const t of temps) readers.set(t, 0);
  for (let i = 0; i < jobs.length; i++) {
    const inputs = jobs[i]!.inputs;
    for (let k = 0; k < inputs.length; k++) {
      const key = pathKey(inputs[k]!);
      const n = readers.get(key);
      if (n !== undefined && dag.producers.get(key) !== i) readers.set(key, n + 1);
    }
  }
  return readers;
}

function decide(ctx: Context, i: number, decisions: readonly (JobDecision | undefined)[], missingInputs: string[]): JobDecision {
  const { jobs, exists, mtime } = ctx;
  const j = jobs[i]!;
  if (j.outputs.length === 0) return { status: 'run', reason: 'never completed', detail: 'declares no outputs, so it always runs', missingInputs };
  const must = ctx.mustRun.size === 0 ? undefined : ctx.mustRun.get(i);
  if (must !== undefined) return { status: 'run', reason: 'outputs missing', detail: must, missingInputs };
  let firstMissing: string | undefined;
  let existing = 0;
  let tempGone: string[] | undefined;
  for (let k = 0; k < j.outputs.length; k++) {
    const out = j.outputs[k]!;
    const key = pathKey(out);
    if (exists(out, key)) existing += 1;
    else if (ctx.tempReaders !== undefined && tempExcused(ctx, i, key)) (tempGone ??= []).push(key);
    else firstMissing ??= out;
  }
  if (existing === 0 && tempGone === undefined) return missingInputs === NONE_MISSING ? NEVER_COMPLETED : { status: 'run', reason: 'never completed', missingInputs };
  if (firstMissing !== undefined) return { status: 'run', reason: 'outputs missing', detail: firstMissing, missingInputs };
  // Read only now: a job with an output missing reruns whatever its record says (an absent run
  // state, or a fresh project, costs no lookup per job).
  const record = ctx.records?.get(j.id);
  // The run state: what only the records and the command line know.
  if (ctx.forced.has(j.rule.name)) return { status: 'run', reason: 'forced', detail: `--forcerun ${j.rule.name}`, missingInputs };
  if (record !== undefined) {
    if (record.status !== 'done') {
      const detail = record.status === 'running' ? 'a run stopped while this job ran' : record.status === 'failed' ? 'its last run failed' : 'its state record cannot be read';
      return { status: 'run', reason: 'incomplete', detail, missingInputs };
    }
    // The hash the runner recorded covers the job's environment, which the expanded job does not carry.
    const environment = j.rule.environment ?? ctx.defaultEnvironment;
    if (record.hash !== jobHash({ command: j.command, env: j.env, stateEnv: j.stateEnv, outputs: j.outputs, ...(environment !== undefined ? { environment } : {}) })) return { status: 'run', reason: 'command changed', detail: 'command, environment or outputs differ from the last run', missingInputs };
  }
  // Read only now, as the record is: a job with an output missing never needs its dependencies' lists.
  const deps = ctx.dag.deps[i]!;
  for (let k = 0; k < deps.length; k++) {
    const d = deps[k]!;
    if (decisions[d]?.status === 'run') return { status: 'run', reason: 'upstream will run', detail: jobs[d]!.id, missingInputs };
  }
  // Every output exists (or is a removed temp output) and nothing upstream runs: now the times matter.
  let oldestOutput = Infinity;
  let oldestOutputPath = '';
  for (let k = 0; k < j.outputs.length; k++) {
    const m = mtime(j.outputs[k]!);
    if (m !== undefined && m < oldestOutput) {
      oldestOutput = m;
      oldestOutputPath = j.outputs[k]!;
    }
  }
  let newestInput = -Infinity;
  let newestInputPath: string | undefined;
  for (let k = 0; k < j.inputs.length; k++) {
    const input = j.inputs[k]!;
    // A removed temp input stands for its producer's inputs: a newer raw file still reaches here.
    const m = mtime(input) ?? (ctx.virtual.size > 0 ? ctx.virtual.get(pathKey(input)) : undefined);
    if (m !== undefined && m > newestInput) {
      newestInput = m;
      newestInputPath = input;
    }
  }
  if (newestInput > oldestOutput) {
    return { status: 'run', reason: 'input newer', detail: `${newestInputPath} is newer than ${oldestOutputPath}`, missingInputs };
  }
  if (tempGone !== undefined) {
    if (newestInput > -Infinity) for (const t of tempGone) ctx.virtual.set(t, newestInput);
    return { status: 'skip', reason: 'up to date', detail: `temp_output ${tempGone[0]} was removed and no job that runs needs it`, missingInputs, tempGone };
  }
  return missingInputs === NONE_MISSING ? UP_TO_DATE : { status: 'skip', reason: 'up to date', missingInputs };
}

/**
 * A missing temp output is no reason to run while the jobs that read it are up to date (they decide,
 * through needTempProducers), or, when nothing reads it, once the job has finished before. A job
 * named as a target makes its temp outputs wanted.
 */
function tempExcused(ctx: Context, i: number, key: string): boolean {
  if (ctx.tempReaders === undefined || ctx.targets.has(i)) return false;
  const readers = ctx.tempReaders.get(key);
  if (readers === undefined) return false;
  return readers > 0 || ctx.records?.get(ctx.jobs[i]!.id)?.status === 'done';
}
