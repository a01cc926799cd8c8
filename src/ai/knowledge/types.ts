// The compiled knowledge index (dist/knowledge-index.json): the built-in skills' front matter and
// term postings, and the pipeline graph. Written at build time by compile.ts, read by load.ts.

/** The fields a skill is searched by, in posting order. */
export const FIELDS = ['name', 'tool', 'domain', 'description', 'body'] as const;
export type Field = (typeof FIELDS)[number];

export interface IndexedSkill {
  name: string;
  description: string;
  domain: string;
  /** metadata.primary_tool, or '' when the skill names none. */
  tool: string;
  /** metadata.tool_type, or ''. */
  toolType: string;
  /** How many public pipelines of the graph run this skill's tool (0 when none). */
  pipelines: number;
  /** Number of terms in each field (FIELDS order), for length normalisation. */
  lengths: number[];
}

export interface GraphNode {
  id: string;
  kind: 'source' | 'step';
  domain: string;
  tools: string[];
  aliases: string[];
  label: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  data: string[];
  pipelines: string[];
}

export interface KnowledgeIndex {
  /** Format version of this file; load.ts refuses another. */
  format: 1;
  skills: IndexedSkill[];
  /** Average field lengths over all skills (FIELDS order). */
  averageLengths: number[];
  /**
   * term → flat postings [skill, packed, skill, packed, ...]; packed holds the term's frequency in
   * each field (see packFrequencies), so one number per skill and term.
   */
  postings: Record<string, number[]>;
  /** The pipeline graph, as written in knowledge-graph/ (validated at build time). */
  graph: { nodes: GraphNode[]; edges: GraphEdge[]; standalone: { tool: string; why: string }[] };
}

/** Bits per field in a packed frequency: name, tool, domain 3 bits each (≤ 7), description and body 6 (≤ 63). */
const BITS = [3, 3, 3, 6, 6];
const SHIFTS = BITS.map((_, i) => BITS.slice(0, i).reduce((a, b) => a + b, 0));

/** Pack per-field term frequencies into one integer (each capped: BM25 saturates long before). */
export function packFrequencies(freq: readonly number[]): number {
  let packed = 0;
  freq.forEach((f, i) => {
    packed += Math.min(f, 2 ** BITS[i]! - 1) * 2 ** SHIFTS[i]!;
  });
  return packed;
}

export function unpackFrequencies(packed: number): number[] {
  return BITS.map((bits, i) => Math.floor(packed / 2 ** SHIFTS[i]!) % 2 ** bits);
}
