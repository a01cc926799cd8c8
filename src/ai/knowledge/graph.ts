// Queries over the pipeline graph: find a node by id, alias or tool; the transitions into and out
// of a node; the shortest paths between two nodes with the data types on each edge; counts.
import { nearestName } from '../../diagnostics/nearest-name.js';
import type { Graph, GraphEdge, GraphNode } from './types.js';

export type NodeLookup =
  | { found: true; node: GraphNode; via: 'id' | 'alias' | 'tool' }
  | { found: false; reason: 'ambiguous'; candidates: GraphNode[] }
  | { found: false; reason: 'unknown'; suggestion?: string };

/** Case-insensitive: a node id, then an alias, then a tool that exactly one node runs. */
export function findNode(graph: Graph, name: string): NodeLookup {
  const key = name.trim().toLowerCase();
  const byId = graph.nodes.find((n) => n.id === key);
  if (byId) return { found: true, node: byId, via: 'id' };
  const byAlias = graph.nodes.find((n) => n.aliases.includes(key));
  if (byAlias) return { found: true, node: byAlias, via: 'alias' };
  const byTool = graph.nodes.filter((n) => n.tools.some((t) => t.toLowerCase() === key));
  if (byTool.length === 1) return { found: true, node: byTool[0]!, via: 'tool' };
  if (byTool.length > 1) return { found: false, reason: 'ambiguous', candidates: byTool };
  const suggestion = nearestName(key, graph.nodes.flatMap((n) => [n.id, ...n.aliases, ...n.tools.map((t) => t.toLowerCase())]));
  return suggestion === undefined ? { found: false, reason: 'unknown' } : { found: false, reason: 'unknown', suggestion };
}

export function transitions(graph: Graph, id: string): { incoming: GraphEdge[]; outgoing: GraphEdge[] } {
  // Most-used transitions first (by how many pipelines draw them), then by name.
  const order = (a: GraphEdge, b: GraphEdge, end: 'from' | 'to') => b.pipelines.length - a.pipelines.length || (a[end] < b[end] ? -1 : 1);
  return {
    incoming: graph.edges.filter((e) => e.to === id).sort((a, b) => order(a, b, 'from')),
    outgoing: graph.edges.filter((e) => e.from === id).sort((a, b) => order(a, b, 'to')),
  };
}

/**
 * Every shortest directed path from one node to another (breadth-first), at most `limit` of them,
 * each as its edges in order. Empty when `to` cannot be reached.
 */
export function shortestPaths(graph: Graph, from: string, to: string, limit = 5): GraphEdge[][] {
  const out = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) out.set(e.from, [...(out.get(e.from) ?? []), e]);
  // Distances from `from`; then walk back from `to` over edges that shorten the distance by one.
  const dist = new Map<string, number>([[from, 0]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const e of out.get(at) ?? []) if (!dist.has(e.to)) (dist.set(e.to, dist.get(at)! + 1), queue.push(e.to));
  }
  if (!dist.has(to) || from === to) return [];
  const into = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) if (dist.has(e.from) && dist.get(e.to) === dist.get(e.from)! + 1) into.set(e.to, [...(into.get(e.to) ?? []), e]);
  const paths: GraphEdge[][] = [];
  const walk = (node: string, suffix: GraphEdge[]) => {
    if (paths.length >= limit) return;
    if (node === from) return void paths.push(suffix);
    // Well-trodden edges first, so the first paths listed are the common ones.
    const edges = [...(into.get(node) ?? [])].sort((a, b) => b.pipelines.length - a.pipelines.length || (a.from < b.from ? -1 : 1));
    for (const e of edges) walk(e.from, [e, ...suffix]);
  };
  walk(to, []);
  return paths;
}

export function graphStats(graph: Graph): { nodes: number; steps: number; sources: number; edges: number; domains: number; pipelines: { name: string; edges: number }[] } {
  const pipelines = new Map<string, number>();
  for (const e of graph.edges) for (const p of e.pipelines) pipelines.set(p, (pipelines.get(p) ?? 0) + 1);
  return {
    nodes: graph.nodes.length,
    steps: graph.nodes.filter((n) => n.kind === 'step').length,
    sources: graph.nodes.filter((n) => n.kind === 'source').length,
    edges: graph.edges.length,
    domains: new Set(graph.nodes.filter((n) => n.kind === 'step').map((n) => n.domain)).size,
    pipelines: [...pipelines].map(([name, edges]) => ({ name, edges })).sort((a, b) => b.edges - a.edges || (a.name < b.name ? -1 : 1)),
  };
}

export interface Route {
  /** The transitions in order. */
  edges: GraphEdge[];
  /** The pipelines and guides that run every transition of the route (empty for a mixed route). */
  pipelines: string[];
  /** Their assays. */
  assays: string[];
  /** True when no single pipeline runs the whole route: it joins steps of different pipelines. */
  mixed: boolean;
}

export interface RouteQuery {
  /** Keep to the pipelines of this assay (pipelines.tsv). */
  assay?: string;
  /** Also list routes that join the steps of different pipelines (they may mix assays). */
  mixed?: boolean;
  limit?: number;
}

/**
 * Routes from one node to another as pipelines run them: for each pipeline, the shortest path
 * over the transitions it runs (so a route never skips a step that pipeline requires, and never
 * borrows a shortcut from another assay). Routes run by more pipelines, then shorter ones, come
 * first. Without an assay, the assay of the first route is the one kept (`inferredAssay`); other
 * assays with a route are named in `otherAssays`. Mixed routes (plain shortest paths) are listed only
 * when asked, or when no pipeline runs the whole way.
 */
export function routes(graph: Graph, from: string, to: string, q: RouteQuery = {}): { routes: Route[]; inferredAssay?: string; otherAssays: string[] } {
  const assayOf = (p: string) => graph.assays?.[p] ?? '';
  const byPipeline = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) for (const p of e.pipelines) byPipeline.set(p, [...(byPipeline.get(p) ?? []), e]);
  const found = new Map<string, Route>();
  for (const [p, edges] of byPipeline) {
    if (q.assay !== undefined && assayOf(p) !== q.assay) continue;
    for (const path of shortestPaths({ ...graph, edges }, from, to, 3)) {
      const key = path.map((e) => `${e.from}>${e.to}`).join(' ');
      const r = found.get(key) ?? { edges: path, pipelines: [], assays: [], mixed: false };
      r.pipelines.push(p);
      if (!r.assays.includes(assayOf(p))) r.assays.push(assayOf(p));
      found.set(key, r);
    }
  }
  // The assay the two steps belong to: the one whose pipelines run most of the transitions into and
  // out of them (featureCounts is an RNA-seq step, though ATAC-seq pipelines run it too).
  // A data source (raw reads, the reference) feeds every assay and says nothing about which one.
  const sources = new Set(graph.nodes.filter((n) => n.kind === 'source').map((n) => n.id));
  const ends = [from, to].filter((id) => !sources.has(id));
  const weight = new Map<string, number>();
  for (const e of graph.edges)
    if (ends.includes(e.from) || ends.includes(e.to)) for (const p of e.pipelines) weight.set(assayOf(p), (weight.get(assayOf(p)) ?? 0) + 1);
  const assayWeight = (r: Route) => Math.max(...r.assays.map((a) => weight.get(a) ?? 0));
  const nfCore = (r: Route) => r.pipelines.filter((p) => p.startsWith('nf-core/')).length;
  const ranked = [...found.values()].sort(
    (a, b) =>
      assayWeight(b) - assayWeight(a) || nfCore(b) - nfCore(a) || b.pipelines.length - a.pipelines.length || a.edges.length - b.edges.length || (a.pipelines[0]! < b.pipelines[0]! ? -1 : 1),
  );
  for (const r of ranked) r.assays.sort((x, y) => (weight.get(y) ?? 0) - (weight.get(x) ?? 0) || (x < y ? -1 : 1));
  const inferredAssay = q.assay ?? ranked[0]?.assays[0];
  const kept = ranked.filter((r) => inferredAssay === undefined || r.assays.includes(inferredAssay));
  const otherAssays = [...new Set(ranked.flatMap((r) => r.assays))].filter((a) => a !== inferredAssay).sort();
  const limit = q.limit ?? 5;
  const out = kept.slice(0, limit);
  if (q.mixed || (out.length === 0 && q.assay === undefined)) {
    const seen = new Set(out.map((r) => r.edges.map((e) => `${e.from}>${e.to}`).join(' ')));
    for (const path of shortestPaths(graph, from, to, limit)) {
      const key = path.map((e) => `${e.from}>${e.to}`).join(' ');
      if (out.length >= limit + (q.mixed ? limit : 0) || seen.has(key)) continue;
      out.push({ edges: path, pipelines: [], assays: [], mixed: true });
    }
  }
  return { routes: out, ...(inferredAssay !== undefined ? { inferredAssay } : {}), otherAssays };
}
