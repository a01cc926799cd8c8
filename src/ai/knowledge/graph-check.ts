// Holds the pipeline graph to what is known of each step and each pipeline (build time and tests):
// - every data type on an edge is one its source produces and its target consumes (node-io.tsv);
// - every pipeline an edge credits is listed with its assay (pipelines.tsv), and an nf-core pipeline
//   runs both ends of the edge: a module in its module list (pipeline-modules.tsv, taken from the
//   pipeline's repository at a recorded commit) matches each end's module patterns.
// Pure: texts and the parsed graph in, problems (file:line: what) out.
import type { GraphEdge, GraphNode } from './types.js';

export interface GraphFacts {
  /** knowledge-graph/node-io.tsv */
  io: string;
  /** knowledge-graph/pipelines.tsv */
  pipelines: string;
  /** knowledge-graph/pipeline-modules.tsv */
  modules: string;
}

interface NodeIo {
  line: number;
  consumes: Set<string>;
  produces: Set<string>;
  patterns: RegExp[];
}

function rows(text: string): { line: number; cells: string[] }[] {
  return text
    .split('\n')
    .map((raw, i) => ({ line: i + 1, raw: raw.replace(/\r$/, '') }))
    .filter((r) => r.raw.trim() !== '' && !r.raw.startsWith('#'))
    .map((r) => ({ line: r.line, cells: r.raw.split('\t').map((c) => c.trim()) }));
}

const list = (cell: string | undefined): string[] => (cell === undefined || cell === '-' || cell === '' ? [] : cell.split(',').map((x) => x.trim()).filter(Boolean));

/** A module pattern (`star/align`, `local/deseq2*`) as an anchored expression: `*` matches any text. */
const patternOf = (p: string) => new RegExp(`^${p.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** The pipelines of pipelines.tsv with their assay. */
export function parsePipelines(text: string): Map<string, string> {
  return new Map(rows(text).map(({ cells }) => [cells[0]!, cells[1] ?? ''] as [string, string]));
}

export function checkGraph(graph: { nodes: GraphNode[]; edges: GraphEdge[] }, facts: GraphFacts): string[] {
  const problems: string[] = [];
  const io = new Map<string, NodeIo>();
  for (const { line, cells } of rows(facts.io)) {
    if (cells.length !== 4) {
      problems.push(`node-io.tsv:${line}: expected 4 tab-separated columns (id, consumes, produces, modules), found ${cells.length}`);
      continue;
    }
    io.set(cells[0]!, { line, consumes: new Set(list(cells[1])), produces: new Set(list(cells[2])), patterns: list(cells[3]).map(patternOf) });
  }
  for (const n of graph.nodes) if (!io.has(n.id)) problems.push(`node-io.tsv: no line for the node "${n.id}"`);
  const ids = new Set(graph.nodes.map((n) => n.id));
  for (const [id, { line }] of io) if (!ids.has(id)) problems.push(`node-io.tsv:${line}: "${id}" is not a node of nodes.tsv`);

  const assays = new Map<string, { line: number; assay: string }>();
  for (const { line, cells } of rows(facts.pipelines)) {
    if (cells.length !== 2) problems.push(`pipelines.tsv:${line}: expected 2 tab-separated columns (pipeline, assay), found ${cells.length}`);
    else assays.set(cells[0]!, { line, assay: cells[1]! });
  }
  const modules = new Map<string, string[]>();
  for (const { line, cells } of rows(facts.modules)) {
    if (cells.length !== 4) problems.push(`pipeline-modules.tsv:${line}: expected 4 tab-separated columns (pipeline, commit, date, modules), found ${cells.length}`);
    else modules.set(cells[0]!, list(cells[3]));
  }
  const runs = (node: GraphNode, pipeline: string): boolean => {
    if (node.kind === 'source') return true;
    const patterns = io.get(node.id)?.patterns ?? [];
    return modules.get(pipeline)!.some((m) => patterns.some((p) => p.test(m)));
  };
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));

  graph.edges.forEach((e) => {
    const where = `edges.tsv: ${e.from} → ${e.to}`;
    const from = io.get(e.from);
    const to = io.get(e.to);
    for (const d of e.data) {
      if (from && !from.produces.has(d)) problems.push(`${where}: "${e.from}" does not produce "${d}" (node-io.tsv:${from.line})`);
      if (to && !to.consumes.has(d)) problems.push(`${where}: "${e.to}" does not consume "${d}" (node-io.tsv:${to.line})`);
    }
    for (const p of e.pipelines) {
      if (!assays.has(p)) problems.push(`${where}: the credit "${p}" is not listed in pipelines.tsv`);
      if (p.startsWith('nf-core/') && !modules.has(p)) problems.push(`${where}: "${p}" has no module list in pipeline-modules.tsv`);
      if (!modules.has(p)) continue;
      for (const end of [byId.get(e.from), byId.get(e.to)]) {
        if (end && !runs(end, p)) problems.push(`${where}: credits "${p}", whose module list runs nothing that matches "${end.id}" (node-io.tsv modules)`);
      }
    }
  });
  return problems;
}
