// Reads the pipeline graph as written in knowledge-graph/ (tab-separated text, reviewed like code)
// and checks it: every edge names existing nodes, no self-loops or duplicate edges, ids and aliases
// are unique, and every step is reachable from a source node. Pure: text in, graph and problems out.
import type { GraphEdge, GraphNode } from './types.js';

export interface GraphSource {
  nodes: GraphNode[];
  edges: GraphEdge[];
  standalone: { tool: string; why: string }[];
  /** Each problem names the file and line. An empty list means the graph is sound. */
  problems: string[];
}

const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Data lines of a TSV text (no blank or `#` lines), with their 1-based line numbers. */
function rows(text: string): { line: number; cells: string[] }[] {
  return text
    .split('\n')
    .map((l, i) => ({ line: i + 1, raw: l.replace(/\r$/, '') }))
    .filter((r) => r.raw.trim() !== '' && !r.raw.startsWith('#'))
    .map((r) => ({ line: r.line, cells: r.raw.split('\t').map((c) => c.trim()) }));
}

const list = (cell: string | undefined): string[] =>
  cell === undefined || cell === '-' || cell === '' ? [] : cell.split(',').map((x) => x.trim()).filter(Boolean);

export function parseGraph(files: { nodes: string; edges: string; standalone: string }): GraphSource {
  const problems: string[] = [];
  const nodes: GraphNode[] = [];
  const names = new Map<string, string>(); // id or alias (lower case) → where it was defined
  for (const { line, cells } of rows(files.nodes)) {
    const where = `nodes.tsv:${line}`;
    if (cells.length !== 6) {
      problems.push(`${where}: expected 6 tab-separated columns (id, kind, domain, tools, aliases, label), found ${cells.length}`);
      continue;
    }
    const [id, kind, domain, tools, aliases, label] = cells as [string, string, string, string, string, string];
    if (!ID.test(id)) problems.push(`${where}: node id "${id}" must be lower-case words joined by hyphens`);
    if (kind !== 'source' && kind !== 'step') problems.push(`${where}: kind must be "source" or "step", found "${kind}"`);
    const node: GraphNode = { id, kind: kind === 'source' ? 'source' : 'step', domain, tools: list(tools), aliases: list(aliases).map((a) => a.toLowerCase()), label };
    for (const name of new Set([id, ...node.aliases])) {
      const seen = names.get(name);
      if (seen !== undefined) problems.push(`${where}: "${name}" is already a node id or alias (${seen})`);
      names.set(name, where);
    }
    nodes.push(node);
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));

  const edges: GraphEdge[] = [];
  const seenEdges = new Map<string, string>();
  for (const { line, cells } of rows(files.edges)) {
    const where = `edges.tsv:${line}`;
    if (cells.length !== 4) {
      problems.push(`${where}: expected 4 tab-separated columns (from, to, data, pipelines), found ${cells.length}`);
      continue;
    }
    const [from, to, data, pipelines] = cells as [string, string, string, string];
    for (const end of [from, to]) if (!byId.has(end)) problems.push(`${where}: no node "${end}" in nodes.tsv`);
    if (from === to) problems.push(`${where}: self-loop on "${from}"`);
    if (byId.get(to)?.kind === 'source') problems.push(`${where}: "${to}" is a source node and cannot be the target of an edge`);
    const key = `${from}\t${to}`;
    const dup = seenEdges.get(key);
    if (dup !== undefined) problems.push(`${where}: duplicate of the edge ${from} → ${to} at ${dup}`);
    seenEdges.set(key, where);
    const edge: GraphEdge = { from, to, data: list(data), pipelines: list(pipelines) };
    if (edge.data.length === 0) problems.push(`${where}: the edge ${from} → ${to} names no data type`);
    if (edge.pipelines.length === 0) problems.push(`${where}: the edge ${from} → ${to} names no pipeline it is drawn from`);
    edges.push(edge);
  }

  // Every step must be reachable from a source: a step nothing leads to is a gap in the graph.
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const reached = new Set(nodes.filter((n) => n.kind === 'source').map((n) => n.id));
  const queue = [...reached];
  while (queue.length > 0) for (const to of next.get(queue.shift()!) ?? []) if (!reached.has(to)) (reached.add(to), queue.push(to));
  for (const n of nodes) if (!reached.has(n.id)) problems.push(`nodes.tsv: step "${n.id}" cannot be reached from any source node`);

  const standalone: { tool: string; why: string }[] = [];
  for (const { line, cells } of rows(files.standalone)) {
    if (cells.length !== 2) problems.push(`standalone.tsv:${line}: expected 2 tab-separated columns (tool, why), found ${cells.length}`);
    else standalone.push({ tool: cells[0]!, why: cells[1]! });
  }
  return { nodes, edges, standalone, problems };
}
