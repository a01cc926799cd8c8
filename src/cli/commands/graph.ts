// `oxo-flow graph`: the rule graph (or the job graph with --expanded) as ascii, dot or mermaid on
// stdout; --json gives {nodes, edges}.
import { workflowGraph } from '../../workflow/dag/rule-graph.js';
import type { CliContext } from '../context.js';
import { drawGraph, type GraphFormat } from '../graph-formats.js';
import { diskFs, loadChecked, type PlanOptions, projectFlags, splitWorkflowArg } from '../plan-input.js';
import { outcomeOf, type CommandResult } from '../result.js';

export interface GraphOptions extends PlanOptions {
  format?: GraphFormat;
  expanded?: boolean;
}

export async function graph(opts: GraphOptions, ctx: CliContext): Promise<CommandResult> {
  const { workflow: arg, overrides } = splitWorkflowArg(opts, ctx.cwd);
  const loaded = await loadChecked(arg, ctx, overrides, projectFlags(opts));
  if (!loaded.ok) return { outcome: loaded.outcome, json: { workflow: loaded.shown ?? arg ?? null, nodes: [], edges: [] }, diagnostics: loaded.diagnostics };
  const expanded = Boolean(opts.expanded);
  const settings = { expanded, overrides, list: diskFs.list, ...(opts.samples !== undefined ? { samples: opts.samples } : {}) };
  const { graph: g, diagnostics } = workflowGraph(loaded.workflow, settings);
  const all = [...loaded.diagnostics, ...diagnostics];
  if (g === undefined) return { outcome: outcomeOf(all), json: { workflow: loaded.shown, nodes: [], edges: [] }, diagnostics: all };
  return {
    outcome: 'ok',
    json: { workflow: loaded.shown, expanded, nodes: g.nodes, edges: g.edges },
    diagnostics: all,
    stdout: drawGraph(g, opts.format ?? 'ascii', loaded.workflow.meta.name),
  };
}
