// Why each job will run or be skipped, from file existence and modification times alone, visited in
// dependency order so "upstream will run" is known before a job is decided. Per-job loops are indexed:
// before V8 optimises them, a for-of allocates an iterator result per element (GC on large plans).
import type { Dag } from '../dag/build-dag.js';
import { pathKey } from '../dag/build-dag.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import type { JobReason, JobStatus, PlanFs } from './types.js';

export interface JobDecision {
  status: JobStatus;
  reason: JobReason;
  detail?: string;
  missingInputs: string[];
}

export function decideStatuses(
  jobs: readonly ExpandedJob[],
  dag: Dag,
  keep: Uint8Array | undefined,
  whenFalse: ReadonlySet<string>,
  fs: PlanFs,
  resolve: (p: string) => string,
): (JobDecision | undefined)[] {
  const mtimes = new Map<string, number | null>();
  const mtime = (p: string): number | undefined => {
    const key = pathKey(p);
    let m = mtimes.get(key);
    if (m === undefined) {
      const full = resolve(p);
      m = existsInListing(full) === false ? null : (fs.stat(full)?.mtimeMs ?? null);
      mtimes.set(key, m);
    }
    return m ?? undefined;
  };
  // A fresh project has thousands of outputs in a few folders that do not exist yet: one look at each
  // folder answers "missing" for all of them, instead of one failed stat per file.
  const listings = new Map<string, Set<string> | null>();
  const existsInListing = (full: string): boolean | undefined => {
    const slash = full.lastIndexOf('/');
    if (slash <= 0) return undefined;
    const dir = full.slice(0, slash);
    let names = listings.get(dir);
    if (names === undefined) {
      const listed = fs.list(dir);
      names = listed === undefined ? (fs.stat(dir) === undefined ? null : undefined) : new Set(listed);
      if (names === undefined) return undefined;
      listings.set(dir, names);
    }
    return names === null ? false : names.has(full.slice(slash + 1));
  };
  const decisions: (JobDecision | undefined)[] = new Array(jobs.length);
  for (let o = 0; o < dag.order.length; o++) {
    const i = dag.order[o]!;
    if (keep !== undefined && !keep[i]) continue;
    const j = jobs[i]!;
    const missingInputs: string[] = [];
    let newestInput = -Infinity;
    let newestInputPath: string | undefined;
    for (let k = 0; k < j.inputs.length; k++) {
      const input = j.inputs[k]!;
      const m = mtime(input);
      if (m === undefined) {
        const producer = dag.producers.get(pathKey(input));
        if (producer === undefined || decisions[producer]?.reason === 'when false') missingInputs.push(input);
        continue;
      }
      if (m > newestInput) {
        newestInput = m;
        newestInputPath = input;
      }
    }
    if (whenFalse.has(j.rule.name)) {
      decisions[i] = { status: 'skip', reason: 'when false', missingInputs: [] };
      continue;
    }
    decisions[i] = decide(j, dag.deps[i]!, decisions, jobs, mtime, newestInput, newestInputPath, missingInputs);
  }
  return decisions;
}

function decide(
  j: ExpandedJob,
  deps: readonly number[],
  decisions: readonly (JobDecision | undefined)[],
  jobs: readonly ExpandedJob[],
  mtime: (p: string) => number | undefined,
  newestInput: number,
  newestInputPath: string | undefined,
  missingInputs: string[],
): JobDecision {
  if (j.outputs.length === 0) return { status: 'run', reason: 'never completed', detail: 'declares no outputs, so it always runs', missingInputs };
  let oldestOutput = Infinity;
  let oldestOutputPath = '';
  let firstMissing: string | undefined;
  let existing = 0;
  for (let k = 0; k < j.outputs.length; k++) {
    const out = j.outputs[k]!;
    const m = mtime(out);
    if (m === undefined) {
      firstMissing ??= out;
      continue;
    }
    existing += 1;
    if (m < oldestOutput) {
      oldestOutput = m;
      oldestOutputPath = out;
    }
  }
  if (existing === 0) return { status: 'run', reason: 'never completed', missingInputs };
  if (firstMissing !== undefined) return { status: 'run', reason: 'outputs missing', detail: firstMissing, missingInputs };
  for (let k = 0; k < deps.length; k++) {
    const d = deps[k]!;
    if (decisions[d]?.status === 'run') return { status: 'run', reason: 'upstream will run', detail: jobs[d]!.id, missingInputs };
  }
  if (newestInput > oldestOutput) {
    return { status: 'run', reason: 'input newer', detail: `${newestInputPath} is newer than ${oldestOutputPath}`, missingInputs };
  }
  return { status: 'skip', reason: 'up to date', missingInputs };
}
