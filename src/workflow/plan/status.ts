// Why each job will run or be skipped, from file existence and modification times alone, visited in
// dependency order so "upstream will run" is known before a job is decided. Per-job loops are indexed:
// before V8 optimises them, a for-of allocates an iterator result per element (GC on large plans).
import type { Dag } from '../dag/build-dag.js';
import { pathKey } from '../dag/build-dag.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import type { JobReason, JobStatus, PlanFs } from './types.js';

/** Shared by every job with no missing input; frozen so that no caller can add to it by mistake. */
const NONE_MISSING = Object.freeze([]) as unknown as string[];

export interface JobDecision {
  readonly status: JobStatus;
  readonly reason: JobReason;
  readonly detail?: string;
  readonly missingInputs: string[];
}

// The decisions that carry nothing job-specific, shared by every job they fit: a fresh 12,000-job plan
// is 12,000 times "never completed", and one object each is memory the collector must copy.
const NEVER_COMPLETED: JobDecision = Object.freeze({ status: 'run', reason: 'never completed', missingInputs: NONE_MISSING });
const UP_TO_DATE: JobDecision = Object.freeze({ status: 'skip', reason: 'up to date', missingInputs: NONE_MISSING });
const WHEN_FALSE: JobDecision = Object.freeze({ status: 'skip', reason: 'when false', missingInputs: NONE_MISSING });

export function decideStatuses(
  jobs: readonly ExpandedJob[],
  dag: Dag,
  keep: Uint8Array | undefined,
  whenFalse: ReadonlySet<string>,
  fs: PlanFs,
  resolve: (p: string) => string,
): (JobDecision | undefined)[] {
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
  const exists = (p: string): boolean => {
    const key = pathKey(p);
    return existsInListing(key) ?? statOf(p, key) !== null;
  };
  const mtime = (p: string): number | undefined => {
    const key = pathKey(p);
    if (existsInListing(key) === false) return undefined;
    return statOf(p, key) ?? undefined;
  };
  // A fresh project has thousands of outputs in a few folders that do not exist yet: one look at each
  // folder answers "missing" for all of them, instead of one failed stat per file.
  const listings = new Map<string, Set<string> | null>();
  // Keyed by the directory as written (the workflow's relative paths), so a path is resolved only
  // when its directory is listed for the first time or a stat is needed.
  const existsInListing = (key: string): boolean | undefined => {
    const slash = key.lastIndexOf('/');
    if (slash === key.length - 1) return undefined; // "dir/": let stat answer
    const dir = slash < 0 ? '.' : slash === 0 ? '/' : key.slice(0, slash);
    let names = listings.get(dir);
    if (names === undefined) {
      const full = resolve(dir);
      const listed = fs.list(full);
      names = listed === undefined ? (fs.stat(full) === undefined ? null : undefined) : new Set(listed);
      if (names === undefined) return undefined;
      listings.set(dir, names);
    }
    return names === null ? false : names.has(key.slice(slash + 1));
  };
  const decisions: (JobDecision | undefined)[] = new Array(jobs.length);
  for (let o = 0; o < dag.order.length; o++) {
    const i = dag.order[o]!;
    if (keep !== undefined && !keep[i]) continue;
    const j = jobs[i]!;
    // Most jobs miss nothing: they share one empty list instead of allocating their own.
    let missingInputs: string[] = NONE_MISSING;
    for (let k = 0; k < j.inputs.length; k++) {
      const input = j.inputs[k]!;
      if (exists(input)) continue;
      const producer = dag.producers.get(pathKey(input));
      if (producer === undefined || decisions[producer]?.reason === 'when false') {
        if (missingInputs === NONE_MISSING) missingInputs = [];
        missingInputs.push(input);
      }
    }
    if (whenFalse.has(j.rule.name)) {
      decisions[i] = WHEN_FALSE;
      continue;
    }
    decisions[i] = decide(j, dag.deps[i]!, decisions, jobs, exists, mtime, missingInputs);
  }
  return decisions;
}

function decide(
  j: ExpandedJob,
  deps: readonly number[],
  decisions: readonly (JobDecision | undefined)[],
  jobs: readonly ExpandedJob[],
  exists: (p: string) => boolean,
  mtime: (p: string) => number | undefined,
  missingInputs: string[],
): JobDecision {
  if (j.outputs.length === 0) return { status: 'run', reason: 'never completed', detail: 'declares no outputs, so it always runs', missingInputs };
  let firstMissing: string | undefined;
  let existing = 0;
  for (let k = 0; k < j.outputs.length; k++) {
    const out = j.outputs[k]!;
    if (exists(out)) existing += 1;
    else firstMissing ??= out;
  }
  if (existing === 0) return missingInputs === NONE_MISSING ? NEVER_COMPLETED : { status: 'run', reason: 'never completed', missingInputs };
  if (firstMissing !== undefined) return { status: 'run', reason: 'outputs missing', detail: firstMissing, missingInputs };
  for (let k = 0; k < deps.length; k++) {
    const d = deps[k]!;
    if (decisions[d]?.status === 'run') return { status: 'run', reason: 'upstream will run', detail: jobs[d]!.id, missingInputs };
  }
  // Every output exists and nothing upstream runs: now the times matter.
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
    const m = mtime(j.inputs[k]!);
    if (m !== undefined && m > newestInput) {
      newestInput = m;
      newestInputPath = j.inputs[k]!;
    }
  }
  if (newestInput > oldestOutput) {
    return { status: 'run', reason: 'input newer', detail: `${newestInputPath} is newer than ${oldestOutputPath}`, missingInputs };
  }
  return missingInputs === NONE_MISSING ? UP_TO_DATE : { status: 'skip', reason: 'up to date', missingInputs };
}
