// Jobs → a dependency graph. An input equal to another job's output is an edge, depends_on adds
// edges, one output from two jobs is E006, and so is a cycle (reported as a path). Levels are the
// longest path from a source, computed by an iterative topological sort: no recursion, any size.
// Loops that run once per job or per path are indexed: this code mostly runs before V8 optimises it,
// and there a for-of allocates an iterator result for every element, which a large plan pays in GC.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Rule, Workflow } from '../model.js';
import { agree, type ExpandedJob } from '../expand/expand-jobs.js';
import { locate } from '../expand/dimensions.js';

export interface Dag {
  /** deps[i]: indices of the jobs job i waits for (no duplicates). */
  deps: number[][];
  /** Longest path from a source: 0 for jobs that wait for nothing. */
  levels: number[];
  /** Every job index, dependencies before dependents (by level, then input order). */
  order: number[];
  /** Normalised output path → producing job index. */
  producers: Map<string, number>;
}

/** The dependencies of a job that waits for nothing: one shared list, never written to. */
const NO_DEPS: number[] = Object.freeze([]) as unknown as number[];

// What pathKey changes: a leading `./`, `//`, `/./` or `/../` anywhere, or a trailing `/`.
// One regex pass, since pathKey runs several times for every path of a plan.
const NEEDS_NORMALISING = /^\.\/|\/\/|\/\.\.?\/|.\/$/;

/**
 * Paths compare after removing `./`, doubled slashes and a trailing slash, so `./a/b` and `a/b` are
 * one file, and an input `index` is the output directory `index/`.
 */
export function pathKey(p: string): string {
  if (!NEEDS_NORMALISING.test(p)) return p;
  const n = path.posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

export function buildDag(workflow: Workflow, jobs: readonly ExpandedJob[]): { dag?: Dag; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const producers = new Map<string, number>();
  const clashes = new Map<string, Clash>();
  addProducers(jobs, producers, clashes);
  addLogProducers(jobs, producers);
  for (const c of clashes.values()) diagnostics.push(clashDiagnostic(workflow, jobs, c));
  const dependsOn = workflow.rules.some((r) => r.dependsOn.length > 0);
  const levels = new Array<number>(jobs.length).fill(0);
  const flat = dependencies(jobs, producers, levels, dependsOn);
  // depends_on adds to the lists, so they are made now; otherwise when first read (see depsLists).
  let lists = dependsOn ? depsLists(flat, true) : undefined;
  if (lists !== undefined) addDependsOn(workflow, jobs, lists, diagnostics);
  if (diagnostics.length > 0) return { diagnostics };
  const deps = () => (lists ??= depsLists(flat, false));
  if (!flat.earlierOnly) {
    const sorted = sortLevels(deps(), levels);
    if (sorted !== undefined) {
      diagnostics.push(cycleDiagnostic(workflow, jobs, deps(), sorted));
      return { diagnostics };
    }
  }
  const order = byLevel(levels);
  return {
    dag: {
      get deps() {
        return deps();
      },
      levels,
      order,
      producers,
    },
    diagnostics,
  };
}

/** Two jobs that write one path: the first pair seen for two rules, and how many paths they share. */
interface Clash {
  first: number;
  second: number;
  path: string;
  count: number;
}

// The loops below run once per job or path. Each is a function of its own: V8 compiles a hot loop
// together with the whole function around it, so a small function costs little to compile.

/** Each output's producer; a second producer of a path is a clash (one per pair of rules). */
function addProducers(jobs: readonly ExpandedJob[], producers: Map<string, number>, clashes: Map<string, Clash>): void {
  for (let i = 0; i < jobs.length; i++) {
    const outputs = jobs[i]!.outputs;
    for (let k = 0; k < outputs.length; k++) {
      const out = outputs[k]!;
      const key = pathKey(out);
      const other = producers.get(key);
      if (other === undefined) {
        producers.set(key, i);
        continue;
      }
      if (other === i) continue;
      const pairKey = `${jobs[other]!.rule.name}\u0000${jobs[i]!.rule.name}`;
      const seen = clashes.get(pairKey);
      if (seen) seen.count += 1;
      else clashes.set(pairKey, { first: other, second: i, path: out, count: 1 });
    }
  }
}

/**
 * A rule's log is a file it makes too: another rule may read it (a QC step over the aligner's log).
 * A log never clashes: one written by several jobs has no single producer, so nobody waits on it.
 */
function addLogProducers(jobs: readonly ExpandedJob[], producers: Map<string, number>): void {
  let logOwners: Map<string, number> | undefined;
  for (let i = 0; i < jobs.length; i++) {
    const log = jobs[i]!.log;
    if (log === undefined) continue;
    const key = pathKey(log);
    logOwners ??= new Map();
    const owner = logOwners.get(key);
    if (owner === undefined) {
      if (producers.has(key)) continue; // also a declared output: its producer stands
      logOwners.set(key, i);
      producers.set(key, i);
    } else if (owner !== i && owner !== -1) {
      logOwners.set(key, -1);
      producers.delete(key);
    }
  }
}

function clashDiagnostic(workflow: Workflow, jobs: readonly ExpandedJob[], c: Clash): Diagnostic {
  const a = jobs[c.first]!;
  const b = jobs[c.second]!;
  const more = c.count > 1 ? ` (and ${c.count - 1} more output${c.count > 2 ? 's' : ''})` : '';
  const who = a.rule === b.rule ? `jobs ${a.id} and ${b.id} of rule ${a.rule.name}` : `rules ${a.rule.name} and ${b.rule.name}`;
  const guarded = [a, b].find((j) => j.protectedOutputs.some((p) => pathKey(p) === pathKey(c.path)));
  if (guarded !== undefined && a.rule !== b.rule) {
    const other = guarded === a ? b : a;
    return diagnostic('E040', `rule ${other.rule.name} writes ${c.path}, a protected_output of rule ${guarded.rule.name}`, {
      ...locate(workflow, other.rule, 'output'),
      rule: other.rule.name,
      hint: 'a protected output is written once, by its own rule; write to another path',
    });
  }
  return diagnostic('E006', `${who} both produce ${c.path}${more}`, {
    ...locate(workflow, b.rule, 'output'),
    rule: b.rule.name,
    hint: 'each output must have exactly one producer: rename one of the outputs, or add the wildcard that tells the jobs apart',
  });
}

/** Who waits for whom, flat: job i waits for list[start[i]] … list[start[i + 1] - 1]. */
interface FlatDeps {
  start: Int32Array;
  list: Int32Array;
  /** Every edge points to an earlier job, and `levels` holds the levels. */
  earlierOnly: boolean;
}

/**
 * The jobs each job waits for (its inputs' producers, each once) and, while every edge points to an
 * earlier job, each job's level. Jobs are made rule by rule in file order, so a job mostly waits for
 * jobs made before it; while that holds, each job's level is known as its dependencies are found
 * (theirs are final), with no second pass. Any other edge (a later job, itself, depends_on) makes
 * `earlierOnly` false, and the graph is sorted instead. Written into two flat arrays, not one array
 * per job: a plan that never asks for a job's list (a dry-run of a fresh project) makes none.
 */
function dependencies(jobs: readonly ExpandedJob[], producers: ReadonlyMap<string, number>, levels: number[], dependsOn: boolean): FlatDeps {
  let total = 0;
  for (let i = 0; i < jobs.length; i++) total += jobs[i]!.inputs.length;
  const start = new Int32Array(jobs.length + 1);
  const list = new Int32Array(total);
  // lastAdded[p] === i when job i already waits for p: dedupes without a Set per job.
  const lastAdded = new Int32Array(jobs.length).fill(-1);
  let n = 0;
  let earlierOnly = !dependsOn;
  for (let i = 0; i < jobs.length; i++) {
    start[i] = n;
    let level = 0;
    const inputs = jobs[i]!.inputs;
    for (let k = 0; k < inputs.length; k++) {
      const p = producers.get(pathKey(inputs[k]!));
      if (p === undefined || lastAdded[p] === i) continue;
      lastAdded[p] = i;
      list[n++] = p;
      if (p >= i) earlierOnly = false;
      else if (levels[p]! >= level) level = levels[p]! + 1;
    }
    levels[i] = level;
  }
  start[jobs.length] = n;
  return { start, list, earlierOnly };
}

/**
 * Dag.deps: one list per job, each at its exact size. A job that waits for nothing shares one empty
 * list, unless `own` (depends_on adds to the lists).
 */
function depsLists(flat: FlatDeps, own: boolean): number[][] {
  const { start, list } = flat;
  const n = start.length - 1;
  const deps: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const from = start[i]!;
    const to = start[i + 1]!;
    if (from === to) deps[i] = own ? [] : NO_DEPS;
    else if (to - from === 1) deps[i] = [list[from]!];
    else {
      const d: number[] = [];
      for (let k = from; k < to; k++) d.push(list[k]!);
      deps[i] = d;
    }
  }
  return deps;
}

/**
 * Longest-path levels by an iterative topological sort (Kahn's), written into `levels`. Returns
 * undefined, or on a cycle the count of unmet dependencies per job (nonzero: on or behind a cycle).
 */
function sortLevels(deps: readonly (readonly number[])[], levels: number[]): Int32Array | undefined {
  const { start, list } = dependentsOf(deps);
  const waiting = new Int32Array(deps.length);
  for (let i = 0; i < deps.length; i++) {
    waiting[i] = deps[i]!.length;
    levels[i] = 0;
  }
  const queue: number[] = [];
  for (let i = 0; i < deps.length; i++) if (waiting[i] === 0) queue.push(i);
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head]!;
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      const d = list[k]!;
      if (levels[i]! + 1 > levels[d]!) levels[d] = levels[i]! + 1;
      waiting[d]! -= 1;
      if (waiting[d] === 0) queue.push(d);
    }
  }
  return queue.length < deps.length ? waiting : undefined;
}

/**
 * The jobs that wait for each job, in index order, in two flat arrays: those of d are
 * list[start[d]] … list[start[d + 1] - 1]. (One small array per job would be 12,000 objects for
 * the collector to copy in a large plan.)
 */
function dependentsOf(deps: readonly (readonly number[])[]): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(deps.length + 1);
  for (let i = 0; i < deps.length; i++) {
    const own = deps[i]!;
    for (let k = 0; k < own.length; k++) start[own[k]! + 1]! += 1;
  }
  for (let d = 0; d < deps.length; d++) start[d + 1]! += start[d]!;
  const list = new Int32Array(start[deps.length]!);
  const filled = start.slice(0, deps.length);
  for (let i = 0; i < deps.length; i++) {
    const own = deps[i]!;
    for (let k = 0; k < own.length; k++) list[filled[own[k]!]!++] = i;
  }
  return { start, list };
}

/** Job indices by level, then index: a counting sort, since levels are small integers. */
function byLevel(levels: readonly number[]): number[] {
  const order = new Array<number>(levels.length);
  // Rules in data-flow order (the usual file) make jobs whose levels never go down: already sorted.
  let sorted = 0;
  while (sorted < levels.length && (sorted === 0 || levels[sorted]! >= levels[sorted - 1]!)) {
    order[sorted] = sorted;
    sorted += 1;
  }
  if (sorted === levels.length) return order;
  const count: number[] = [];
  for (let i = 0; i < levels.length; i++) count[levels[i]!] = (count[levels[i]!] ?? 0) + 1;
  // next[l]: where the next job of level l goes.
  const next: number[] = [];
  let at = 0;
  for (let l = 0; l < count.length; l++) {
    next[l] = at;
    at += count[l] ?? 0;
  }
  for (let i = 0; i < levels.length; i++) order[next[levels[i]!]!++] = i;
  return order;
}

/** depends_on = ["r"]: wait for r's final jobs (those that agree on shared wildcards). */
function addDependsOn(workflow: Workflow, jobs: readonly ExpandedJob[], deps: number[][], diagnostics: Diagnostic[]): void {
  if (workflow.rules.every((r) => r.dependsOn.length === 0)) return; // Nothing to add, and nothing to report.
  const finalByRule = new Map<string, number[]>();
  for (let i = 0; i < jobs.length; i++) {
    if (!jobs[i]!.final) continue;
    const list = finalByRule.get(jobs[i]!.rule.name) ?? [];
    list.push(i);
    finalByRule.set(jobs[i]!.rule.name, list);
  }
  const known = new Set(workflow.rules.map((r) => r.name));
  const reported = new Set<string>();
  // Index each depended-on rule's jobs by the wildcard values shared with the dependent rule, so a
  // per-sample depends_on costs one lookup per job rather than a scan of every sample.
  const index = new Map<string, Map<string, number[]>>();
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    if (j.rule.dependsOn.length === 0) continue;
    for (const name of j.rule.dependsOn) {
      if (!known.has(name)) {
        reportUnknown(workflow, j.rule, name, reported, diagnostics);
        continue;
      }
      const targets = finalByRule.get(name) ?? [];
      if (targets.length === 0) continue;
      const shared = Object.keys(jobs[targets[0]!]!.wildcards).filter((k) => k in j.wildcards).sort();
      const cacheKey = `${j.rule.name}\u0000${name}`;
      let byValues = index.get(cacheKey);
      if (byValues === undefined) {
        byValues = new Map();
        for (const t of targets) {
          const sig = shared.map((k) => jobs[t]!.wildcards[k]).join('\u0000');
          const list = byValues.get(sig) ?? [];
          list.push(t);
          byValues.set(sig, list);
        }
        index.set(cacheKey, byValues);
      }
      const sig = shared.map((k) => j.wildcards[k]).join('\u0000');
      for (const t of byValues.get(sig) ?? []) {
        if (t !== i && agree(jobs[t]!.wildcards, j.wildcards) && !deps[i]!.includes(t)) deps[i]!.push(t);
      }
    }
  }
}

function reportUnknown(workflow: Workflow, rule: Rule, name: string, reported: Set<string>, diagnostics: Diagnostic[]): void {
  const key = `${rule.name}\u0000${name}`;
  if (reported.has(key)) return;
  reported.add(key);
  diagnostics.push(diagnostic('E007', `depends_on of rule ${rule.name} names "${name}", which is not a rule`, { ...locate(workflow, rule, 'depends_on'), rule: rule.name }));
}

/** Every job left after the topological sort waits for another left-over job: walk until one repeats. */
function cycleDiagnostic(workflow: Workflow, jobs: readonly ExpandedJob[], deps: number[][], waiting: Int32Array): Diagnostic {
  let start = 0;
  while (waiting[start] === 0) start += 1;
  const seenAt = new Map<number, number>();
  const walk: number[] = [];
  let at = start;
  while (!seenAt.has(at)) {
    seenAt.set(at, walk.length);
    walk.push(at);
    at = deps[at]!.find((d) => waiting[d]! > 0)!;
  }
  // walk follows "waits for" edges; print it the way data flows: producer → consumer.
  const loop = walk.slice(seenAt.get(at)!).reverse();
  // Start the printed loop at the rule that comes first in the file, so the message is stable.
  let first = 0;
  for (let k = 1; k < loop.length; k++) if (jobs[loop[k]!]!.rule.index < jobs[loop[first]!]!.rule.index) first = k;
  loop.push(...loop.splice(0, first));
  const names = loop.map((i) => jobs[i]!.id);
  const text = [...names, names[0]].join(' → ');
  const head = jobs[loop[0]!]!;
  return diagnostic('E006', `cycle: ${text}`, {
    ...locate(workflow, head.rule),
    rule: head.rule.name,
    hint: 'a job cannot need, directly or through other jobs, a file it produces itself: break one of these links',
  });
}
