// `-t TARGET`: a rule name, a job id or an output path; the plan keeps the targets and everything
// upstream of them (never downstream).
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import { nearestName } from '../../diagnostics/nearest-name.js';
import { pathKey, type Dag } from './build-dag.js';

export function resolveTargets(
  jobs: readonly ExpandedJob[],
  dag: Dag,
  targets: readonly string[],
  ruleNames: readonly string[],
): { selected: number[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const selected: number[] = [];
  const rules = new Set(ruleNames);
  let ids: Map<string, number> | undefined;
  for (const target of targets) {
    if (rules.has(target)) {
      for (let i = 0; i < jobs.length; i++) if (jobs[i]!.rule.name === target) selected.push(i);
      continue;
    }
    const producer = dag.producers.get(pathKey(target));
    if (producer !== undefined) {
      selected.push(producer);
      continue;
    }
    ids ??= new Map(jobs.map((j, i) => [j.id, i]));
    const byId = ids.get(target);
    if (byId !== undefined) {
      selected.push(byId);
      continue;
    }
    const near = nearestName(target, ruleNames);
    diagnostics.push(
      diagnostic('CLI013', `target "${target}" is not a rule, a job id, or an output of any job${near ? ` (did you mean ${near}?)` : ''}`, {
        hint: `rules: ${ruleNames.slice(0, 10).join(', ')}${ruleNames.length > 10 ? ', …' : ''}`,
      }),
    );
  }
  return { selected, diagnostics };
}

/** The targets and every job they need, as a membership mask (iterative, any depth). */
export function upstreamClosure(dag: Dag, targets: readonly number[]): Uint8Array {
  const keep = new Uint8Array(dag.deps.length);
  const stack = [...targets];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (keep[i]) continue;
    keep[i] = 1;
    for (const d of dag.deps[i]!) if (!keep[d]) stack.push(d);
  }
  return keep;
}

/** `--omit-from`: these jobs and every job that needs them, as a membership mask. */
export function downstreamClosure(dag: Dag, from: readonly number[]): Uint8Array {
  const dependents: number[][] = dag.deps.map(() => []);
  for (let i = 0; i < dag.deps.length; i++) for (const d of dag.deps[i]!) dependents[d]!.push(i);
  const out = new Uint8Array(dag.deps.length);
  const stack = [...from];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (out[i]) continue;
    out[i] = 1;
    for (const d of dependents[i]!) if (!out[d]) stack.push(d);
  }
  return out;
}
