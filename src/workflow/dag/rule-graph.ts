// The graph that `oxo-flow graph` draws: rules (default) or jobs (--expanded) as nodes, with edges
// taken from the job DAG so the drawing shows exactly what the planner would schedule.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { expandWorkflow } from '../expand/expand-workflow.js';
import type { Workflow } from '../model.js';

export interface GraphNode {
  id: string;
  rule: string;
  level: number;
}

export interface Graph {
  nodes: GraphNode[];
  edges: { from: string; to: string }[];
}

export interface GraphSettings {
  expanded: boolean;
  overrides?: readonly string[];
  samples?: readonly string[];
  list?: (dir: string) => string[] | undefined;
}

/**
 * Rule-level drawings need no sample list: a wildcard without a source gets one stand-in value.
 * Job-level drawings need real values, so a missing source is E021 as in dry-run.
 */
export function workflowGraph(workflow: Workflow, settings: GraphSettings): { graph?: Graph; diagnostics: Diagnostic[] } {
  const result = expandWorkflow(workflow, {
    ...(settings.overrides !== undefined ? { overrides: settings.overrides } : {}),
    ...(settings.samples !== undefined ? { samples: settings.samples } : {}),
    ...(settings.list !== undefined ? { list: settings.list } : {}),
    standIns: !settings.expanded,
  });
  if (result.expanded === undefined) return { diagnostics: result.diagnostics };
  const { jobs, dag } = result.expanded;
  const expanded = { diagnostics: result.diagnostics };

  if (settings.expanded) {
    const nodes = dag.order.map((i) => ({ id: jobs[i]!.id, rule: jobs[i]!.rule.name, level: dag.levels[i]! }));
    const edges: Graph['edges'] = [];
    for (const i of dag.order) for (const d of dag.deps[i]!) edges.push({ from: jobs[d]!.id, to: jobs[i]!.id });
    return { graph: { nodes, edges }, diagnostics: expanded.diagnostics };
  }
  // A rule sits at the deepest level of any of its jobs; edges are deduplicated rule pairs.
  const level = new Map<string, number>();
  for (let i = 0; i < jobs.length; i++) {
    const name = jobs[i]!.rule.name;
    level.set(name, Math.max(level.get(name) ?? 0, dag.levels[i]!));
  }
  const nodes = workflow.rules
    .filter((r) => level.has(r.name))
    .map((r) => ({ id: r.name, rule: r.name, level: level.get(r.name)! }))
    .sort((a, b) => a.level - b.level);
  const seen = new Set<string>();
  const edges: Graph['edges'] = [];
  for (let i = 0; i < jobs.length; i++) {
    for (const d of dag.deps[i]!) {
      const from = jobs[d]!.rule.name;
      const to = jobs[i]!.rule.name;
      const key = `${from}\u0000${to}`;
      if (from === to || seen.has(key)) continue;
      seen.add(key);
      edges.push({ from, to });
    }
  }
  return { graph: { nodes, edges }, diagnostics: expanded.diagnostics };
}
