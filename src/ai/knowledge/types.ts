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

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Tools of built-in skills that are not a step of the graph, and why. */
  standalone: { tool: string; why: string }[];
  /** The assay of each pipeline or guide that edges credit (knowledge-graph/pipelines.tsv). */
  assays?: Record<string, string>;
}

/**
 * dist/knowledge-index.json as written. Shaped for a fast cold start: JSON.parse builds few objects,
 * because each term's postings and the whole graph stay strings until a query needs them.
 */
export interface IndexFile {
  /** Format version of this file; load.ts refuses another. */
  format: 2;
  skills: IndexedSkill[];
  /** Average field lengths over all skills (FIELDS order). */
  averageLengths: number[];
  /** term → postings "skill.packed skill.packed ..." in base 36 (see packFrequencies). */
  postings: Record<string, string>;
  /** The pipeline graph (a Graph) as JSON text. */
  graph: string;
}

/** The index as queries use it (openKnowledge): postings decoded and the graph parsed on first use. */
export interface KnowledgeIndex {
  skills: IndexedSkill[];
  averageLengths: number[];
  /** Flat [skill, packed, skill, packed, ...] for a term, or undefined when no skill has it. */
  postings(term: string): number[] | undefined;
  readonly graph: Graph;
}

/** Encode one term's postings for the file. */
export function encodePostings(flat: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < flat.length; i += 2) parts.push(`${flat[i]!.toString(36)}.${flat[i + 1]!.toString(36)}`);
  return parts.join(' ');
}

export function openKnowledge(file: IndexFile): KnowledgeIndex {
  const decoded = new Map<string, number[]>();
  let graph: Graph | undefined;
  return {
    skills: file.skills,
    averageLengths: file.averageLengths,
    postings(term) {
      const hit = decoded.get(term);
      if (hit !== undefined) return hit;
      if (!Object.hasOwn(file.postings, term)) return undefined;
      const flat = file.postings[term]!.split(' ').flatMap((pair) => pair.split('.').map((x) => parseInt(x, 36)));
      decoded.set(term, flat);
      return flat;
    },
    get graph() {
      return (graph ??= JSON.parse(file.graph) as Graph);
    },
  };
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
