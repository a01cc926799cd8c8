// The answers of `ai lookup skill|pipeline` and of the lookup_skill / lookup_pipeline tools, built
// once: a JSON document, the plain text a person or a model reads, and at most one problem (a
// stable KN code). The CLI and the tools only choose how to deliver them.
import { findNode, graphStats, shortestPaths, transitions, type NodeLookup } from './graph.js';
import { searchSkills, whyMatched } from './search.js';
import type { GraphEdge, GraphNode, KnowledgeIndex } from './types.js';

export interface Problem {
  code: 'KN003' | 'KN004' | 'KN005' | 'KN006' | 'KN007' | 'KN008';
  message: string;
  hint?: string;
}

export interface Answer {
  json: Record<string, unknown>;
  text: string;
  problem?: Problem;
}

const DESCRIPTION_WIDTH = 110;
const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

export function skillAnswer(index: KnowledgeIndex, query: string, limit = 5): Answer {
  const { clauses, hits } = searchSkills(index, query, limit);
  const base = { query, clauses: clauses.map((c) => ({ text: c.text, ...(c.expansion ? { expansion: c.expansion } : {}) })), skill_count: index.skills.length };
  if (clauses.length === 0)
    return { json: { ...base, results: [] }, text: '', problem: { code: 'KN007', message: `the query ${JSON.stringify(query)} has no words to search for` } };
  const results = hits.map((h, i) => ({
    rank: i + 1,
    name: h.name,
    alias: `builtin/${h.name}`,
    domain: h.domain,
    tool: h.tool,
    tool_type: h.toolType,
    description: h.description,
    score: h.score,
    matched: h.matched,
    why: whyMatched(h),
  }));
  if (results.length === 0)
    return { json: { ...base, results }, text: '', problem: { code: 'KN006', message: `no built-in skill matched ${JSON.stringify(query)} (of ${index.skills.length})` } };
  const expansions = clauses.filter((c) => c.expansion).map((c) => `${c.text} = ${c.expansion}`);
  const lines = [`Built-in skills matching the query (${results.length} shown of ${index.skills.length}${expansions.length > 0 ? `; read ${expansions.join(', ')}` : ''}):`];
  for (const r of results) {
    lines.push(`${String(r.rank).padStart(2)}. ${r.name}  [${r.domain || 'no domain'}]  tool: ${r.tool || '-'}  score ${r.score.toFixed(2)}`);
    lines.push(`    ${cut(r.description, DESCRIPTION_WIDTH)}`);
    lines.push(`    matched ${r.why}`);
  }
  lines.push('', 'Show one with `oxo-flow ai skills show builtin/NAME`; activate it with skills = ["NAME"].');
  return { json: { ...base, results }, text: lines.join('\n') };
}

export interface PipelineQuery {
  from?: string;
  to?: string;
  stats?: boolean;
  /** Most paths listed. */
  limit?: number;
}

const nodeJson = (n: GraphNode) => ({ id: n.id, label: n.label, domain: n.domain, tools: n.tools, aliases: n.aliases, kind: n.kind });
const edgeJson = (e: GraphEdge) => ({ from: e.from, to: e.to, data: e.data, pipelines: e.pipelines });

function lookupProblem(name: string, found: Exclude<NodeLookup, { found: true }>): Problem {
  if (found.reason === 'ambiguous') {
    // The example is the step named after the tool when there is one (samtools → samtools-sort-index).
    const key = name.trim().toLowerCase();
    const example = found.candidates.find((c) => c.id.startsWith(key)) ?? found.candidates[0]!;
    return {
      code: 'KN004',
      message: `"${name}" is a tool of ${found.candidates.length} steps: ${found.candidates.map((c) => c.id).join(', ')}`,
      hint: `name one of them, e.g. ${example.id}`,
    };
  }
  return { code: 'KN003', message: `no step of the pipeline graph is named "${name}"`, ...(found.suggestion ? { hint: `did you mean "${found.suggestion}"?` } : {}) };
}

/** The built-in skills whose primary tool a node runs. */
function skillsOf(index: KnowledgeIndex, node: GraphNode): string[] {
  const tools = new Set(node.tools.map((t) => t.toLowerCase()));
  return index.skills.filter((s) => tools.has(s.tool.toLowerCase())).map((s) => s.name);
}

function describeNode(index: KnowledgeIndex, n: GraphNode): string {
  const skills = skillsOf(index, n);
  return `${n.id}: ${n.label} [${n.domain}]${n.tools.length > 0 ? `; tools: ${n.tools.join(', ')}` : ''}${skills.length > 0 ? `; skills: ${skills.join(', ')}` : ''}`;
}

const edgeLine = (arrow: string, other: string, e: GraphEdge) => `  ${arrow} ${other.padEnd(22)} ${e.data.join(', ').padEnd(28)} (${e.pipelines.join(', ')})`;

export function pipelineAnswer(index: KnowledgeIndex, q: PipelineQuery): Answer {
  const graph = index.graph;
  if (q.stats || (q.from === undefined && q.to === undefined)) {
    if (!q.stats)
      return { json: {}, text: '', problem: { code: 'KN008', message: 'say which step: --from NODE (what follows), --to NODE (what precedes), both (the shortest paths), or --stats' } };
    const s = graphStats(graph);
    const text = [
      `Pipeline graph: ${s.steps} analysis steps and ${s.sources} data sources (${s.nodes} nodes), ${s.edges} transitions, ${s.domains} domains.`,
      `Drawn from ${s.pipelines.length} pipelines and guides; most edges: ${s.pipelines.slice(0, 8).map((p) => `${p.name} (${p.edges})`).join(', ')}.`,
    ].join('\n');
    return { json: { action: 'stats', ...s }, text };
  }

  const resolve = (name: string) => ({ name, found: findNode(graph, name) });
  const ends = [q.from, q.to].filter((x): x is string => x !== undefined).map(resolve);
  for (const e of ends) if (!e.found.found) return { json: { action: q.from && q.to ? 'path' : 'transitions' }, text: '', problem: lookupProblem(e.name, e.found) };
  const node = (name: string | undefined) => {
    const e = ends.find((x) => x.name === name);
    return e?.found.found ? e.found.node : undefined;
  };
  const from = node(q.from);
  const to = node(q.to);

  if (from && to) {
    const paths = shortestPaths(graph, from.id, to.id, q.limit ?? 5);
    const json = { action: 'path', from: nodeJson(from), to: nodeJson(to), steps: paths[0]?.length ?? null, paths: paths.map((p) => ({ nodes: [from.id, ...p.map((e) => e.to)], edges: p.map(edgeJson) })) };
    if (paths.length === 0)
      return { json, text: '', problem: { code: 'KN005', message: `no path from ${from.id} to ${to.id} in the pipeline graph` } };
    const lines = [`${from.id} → ${to.id}: ${paths.length} shortest path${paths.length === 1 ? '' : 's'} of ${paths[0]!.length} transition${paths[0]!.length === 1 ? '' : 's'}`];
    paths.forEach((p, i) => {
      lines.push('', `path ${i + 1}: ${[from.id, ...p.map((e) => e.to)].join(' → ')}`);
      for (const e of p) lines.push(`  ${e.from} → ${e.to}: ${e.data.join(', ')}  (${e.pipelines.join(', ')})`);
    });
    return { json, text: lines.join('\n') };
  }

  const n = (from ?? to)!;
  const t = transitions(graph, n.id);
  const lines = [describeNode(index, n)];
  if (from) {
    lines.push(t.outgoing.length > 0 ? `usually followed by (${t.outgoing.length}):` : 'nothing follows it in the graph (an end point)');
    for (const e of t.outgoing) lines.push(edgeLine('→', e.to, e));
  }
  if (to || t.incoming.length > 0) {
    lines.push(t.incoming.length > 0 ? `usually preceded by (${t.incoming.length}):` : 'nothing precedes it in the graph (a data source)');
    for (const e of t.incoming) lines.push(edgeLine('←', e.from, e));
  }
  return {
    json: { action: 'transitions', node: { ...nodeJson(n), skills: skillsOf(index, n) }, outgoing: t.outgoing.map(edgeJson), incoming: t.incoming.map(edgeJson) },
    text: lines.join('\n'),
  };
}
