// The answers of `ai lookup skill|pipeline` and of the lookup_skill / lookup_pipeline tools, built
// once: a JSON document, the plain text a person or a model reads, and at most one problem (a
// stable KN code). The CLI and the tools only choose how to deliver them.
import { findNode, graphStats, routes, transitions, type NodeLookup } from './graph.js';
import { searchSkills, spellingSuggestions, whyMatched } from './search.js';
import type { GraphEdge, GraphNode, KnowledgeIndex } from './types.js';

export interface Problem {
  code: 'KN003' | 'KN004' | 'KN005' | 'KN006' | 'KN007' | 'KN008' | 'KN010';
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
  let search = searchSkills(index, query, limit);
  // A word no skill contains may be a typo: when the query as typed answers poorly, search again
  // with the nearest words of the library, and say so.
  const typos = spellingSuggestions(index, query);
  let corrected: string | undefined;
  if (typos.length > 0 && (search.weak || search.hits.length === 0)) {
    corrected = typos.reduce((q, t) => q.replace(new RegExp(`\\b${t.word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi'), t.suggestion), query);
    search = searchSkills(index, corrected, limit);
  }
  const { clauses, hits, weak, unanswered } = search;
  const base = {
    query,
    ...(corrected !== undefined ? { corrected_query: corrected } : {}),
    ...(typos.length > 0 ? { did_you_mean: Object.fromEntries(typos.map((t) => [t.word, t.suggestion])) } : {}),
    clauses: clauses.map((c) => ({ text: c.text, ...(c.expansion ? { expansion: c.expansion } : {}) })),
    skill_count: index.skills.length,
  };
  if (clauses.length === 0)
    return { json: { ...base, weak: true, results: [] }, text: '', problem: { code: 'KN007', message: `the query ${JSON.stringify(query)} has no words to search for` } };
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
  const json = { ...base, weak, unanswered, results };
  if (results.length === 0) return { json, text: '', problem: { code: 'KN006', message: `no built-in skill matched ${JSON.stringify(query)} (of ${index.skills.length})` } };
  const expansions = clauses.filter((c) => c.expansion).map((c) => `${c.text} = ${c.expansion}`);
  const lines: string[] = [];
  if (corrected !== undefined) lines.push(`Searched for "${corrected}" (did you mean ${typos.map((t) => `"${t.suggestion}" for "${t.word}"`).join(', ')}?)`);
  lines.push(`Built-in skills matching the query (${results.length} shown of ${index.skills.length}${expansions.length > 0 ? `; read ${expansions.join(', ')}` : ''}):`);
  if (weak)
    lines.push(
      `Weak match: no built-in skill answers ${unanswered.length > 0 ? unanswered.map((u) => `"${u}"`).join(', ') : 'the query'}; treat these as distant, not as the tool for the task.`,
    );
  for (const r of results) {
    lines.push(`${String(r.rank).padStart(2)}. ${r.name}  [${r.domain || 'no domain'}]  tool: ${r.tool || '-'}  score ${r.score.toFixed(2)}`);
    lines.push(`    ${cut(r.description, DESCRIPTION_WIDTH)}`);
    lines.push(`    matched ${r.why}`);
  }
  lines.push('', 'Read one with the read_skill tool (name "builtin/NAME") or `oxo-flow ai skills show builtin/NAME`; activate it with skills = ["NAME"].');
  return { json, text: lines.join('\n') };
}

export interface PipelineQuery {
  from?: string;
  to?: string;
  stats?: boolean;
  /** Most paths listed. */
  limit?: number;
  /** Keep to the pipelines of this assay. */
  assay?: string;
  /** Also list routes that join steps of different pipelines. */
  mixed?: boolean;
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
    const known = new Set(Object.values(graph.assays ?? {}));
    if (q.assay !== undefined && !known.has(q.assay))
      return { json: { action: 'path' }, text: '', problem: { code: 'KN010', message: `no pipeline of the graph serves the assay "${q.assay}"`, hint: `assays: ${[...known].sort().join(', ')}` } };
    const found = routes(graph, from.id, to.id, { limit: q.limit ?? 5, ...(q.assay !== undefined ? { assay: q.assay } : {}), ...(q.mixed ? { mixed: true } : {}) });
    const paths = found.routes;
    const json = {
      action: 'path',
      from: nodeJson(from),
      to: nodeJson(to),
      assay: found.inferredAssay ?? null,
      other_assays: found.otherAssays,
      steps: paths[0]?.edges.length ?? null,
      paths: paths.map((r) => ({ nodes: [from.id, ...r.edges.map((e) => e.to)], pipelines: r.pipelines, assays: r.assays, mixed: r.mixed, edges: r.edges.map(edgeJson) })),
    };
    if (paths.length === 0)
      return { json, text: '', problem: { code: 'KN005', message: `no path from ${from.id} to ${to.id} in the pipeline graph${q.assay ? ` for the assay ${q.assay}` : ''}`, ...(q.assay ? { hint: 'leave out --assay to search every assay' } : {}) } };
    const head = found.inferredAssay !== undefined && !paths[0]!.mixed ? `${from.id} → ${to.id} (${found.inferredAssay}): ` : `${from.id} → ${to.id}: `;
    const lines = [`${head}${paths.length} route${paths.length === 1 ? '' : 's'}, best practice first`];
    paths.forEach((r, i) => {
      const by = r.mixed ? 'mixed: joins steps of different pipelines, check it before use' : `as run by ${r.pipelines.join(', ')}`;
      lines.push('', `route ${i + 1}: ${[from.id, ...r.edges.map((e) => e.to)].join(' → ')}  (${by})`);
      for (const e of r.edges) lines.push(`  ${e.from} → ${e.to}: ${e.data.join(', ')}  (${e.pipelines.join(', ')})`);
    });
    if (found.otherAssays.length > 0 && q.assay === undefined) lines.push('', `Other assays with a route: ${found.otherAssays.join(', ')} (--assay NAME).`);
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
