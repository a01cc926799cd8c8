// Progressive disclosure of the built-in library: an AI command's prompt names the few built-in
// skills that match its request (name and one line each), and the model reads a body only when it
// needs it (read_skill builtin/NAME). The request is split into its steps ("paired-end RNA-seq,
// STAR + featureCounts, then DESeq2" → four) and each step gets its own best match, so an aligner,
// a counter and a statistics skill all make it, not the four best hits of one blended search.
import { findNode, shortestPaths } from '../knowledge/graph.js';
import { loadKnowledgeIndex } from '../knowledge/load.js';
import { searchSkills } from '../knowledge/search.js';
import type { GraphNode, IndexedSkill, KnowledgeIndex } from '../knowledge/types.js';
import type { Skill } from './types.js';

export interface BuiltinHint {
  name: string;
  description: string;
  /** The step of the request it answers. */
  step: string;
}

const MAX_BUILTIN_HINTS = 6;
const MAX_DESCRIPTION = 160;
const MAX_STEP_CHARS = 200;

/**
 * The steps a request names: split at commas, semicolons, "+", "->", an arrow, "then", "and",
 * "followed by". (The arrow is written as an escape: a bundle with any character past U+00FF is read
 * by Node as a two-byte string, slower to read and compile: test/architecture/bundles.test.ts.)
 */
export function requestSteps(text: string): string[] {
  return text
    .split(/[,;+\n\u2192]|->|=>|\bthen\b|\bfollowed by\b|\band\b/i)
    .map((s) => s.trim().replace(/^(with|using|via|by)\s+/i, '').slice(0, MAX_STEP_CHARS))
    .filter((s) => /[A-Za-z0-9]{2}/.test(s));
}

/**
 * The skill for a step the pipeline graph knows by name ("STAR" is the star-align step, not the
 * index build): the skills that run one of the node's tools, in the node's domain first, the one
 * named after the node before the others. Undefined when the step names no node.
 */
function graphSkills(index: KnowledgeIndex, step: string): IndexedSkill[] {
  const node = stepNode(index, step);
  return node ? nodeSkills(index, node) : [];
}

/**
 * The graph step a request step names: the words as written ("featureCounts"), hyphenated ("GATK
 * HaplotypeCaller" → gatk-haplotypecaller), or one of its words that names exactly one step
 * ("align with STAR" → star). Undefined when none does.
 */
function stepNode(index: KnowledgeIndex, step: string): GraphNode | undefined {
  const words = step.split(/\s+/).filter((w) => w !== '');
  for (const name of [step, words.join('-'), ...words]) {
    const found = findNode(index.graph, name);
    if (found.found) return found.node;
  }
  return undefined;
}

function nodeSkills(index: KnowledgeIndex, node: GraphNode): IndexedSkill[] {
  const tools = new Set(node.tools.map((t) => t.toLowerCase()));
  // Named after the step (star-align for star-align, gatk-haplotypecaller for its alias) beats the
  // node's other skills of the same tool (gatk-genotypegvcfs).
  const named = (s: IndexedSkill) => s.name === node.id || node.aliases.includes(s.name) || s.name.includes(node.id);
  const rank = (s: IndexedSkill) => (s.domain === node.domain ? 0 : 2) + (named(s) ? 0 : 1);
  return index.skills.filter((s) => tools.has(s.tool.toLowerCase())).sort((a, b) => rank(a) - rank(b));
}

/**
 * For each step, the best-ranked built-in skill not already taken (nor active), in step order, at
 * most `limit`. With a single step, its top few. No knowledge index (a build without one): none.
 */
export function suggestBuiltins(steps: readonly string[], builtins: readonly Skill[], exclude: ReadonlySet<string>, limit = MAX_BUILTIN_HINTS): BuiltinHint[] {
  let index;
  try {
    index = loadKnowledgeIndex();
  } catch {
    return [];
  }
  const available = new Map(builtins.filter((s) => s.scope === 'builtin' && s.status === 'ok').map((s) => [s.name, s]));
  const chosen: BuiltinHint[] = [];
  const taken = new Set(exclude);
  const perStep = steps.length === 1 ? Math.min(3, limit) : 1;
  const pick = (hit: { name: string; description: string }, step: string) => {
    taken.add(hit.name);
    const line = hit.description.replace(/\s+/g, ' ').trim();
    chosen.push({ name: hit.name, step, description: line.length > MAX_DESCRIPTION ? `${line.slice(0, MAX_DESCRIPTION - 1)}…` : line });
  };
  for (const step of steps) {
    let got = 0;
    for (const hit of [...graphSkills(index, step), ...searchSkills(index, step, 5).hits]) {
      if (chosen.length >= limit || got >= perStep) break;
      if (taken.has(hit.name) || !available.has(hit.name)) continue;
      got++;
      pick(hit, step);
    }
  }
  // The steps the route between two named steps passes through (bwa-mem2 … haplotypecaller passes
  // markduplicates): the graph's most-used shortest path, one skill per step on it, while room is left.
  const nodes = steps.map((step) => stepNode(index, step));
  for (let i = 0; i + 1 < nodes.length && chosen.length < limit; i++) {
    const [from, to] = [nodes[i], nodes[i + 1]];
    if (from === undefined || to === undefined) continue;
    const route = shortestPaths(index.graph, from.id, to.id, 1)[0] ?? [];
    for (const edge of route.slice(0, -1)) {
      const node = index.graph.nodes.find((n) => n.id === edge.to);
      const skill = node && nodeSkills(index, node).find((s) => !taken.has(s.name) && available.has(s.name));
      if (skill && chosen.length < limit) pick(skill, `between ${steps[i]} and ${steps[i + 1]}`);
    }
  }
  return chosen;
}

/**
 * For a review: the built-in skills whose primary tool a rule runs (the first command of its shell,
 * or a word of its name or description), no knowledge index needed, so a review does not pay for
 * reading it. Among the skills of one tool, the one whose name shares most words with the rule
 * (`salmon index` → salmon-index, not salmon-quant). At most one per rule, `limit` in all.
 */
export function builtinsByTool(lines: readonly string[], builtins: readonly Skill[], exclude: ReadonlySet<string>, limit = MAX_BUILTIN_HINTS): BuiltinHint[] {
  const byTool = new Map<string, Skill[]>();
  for (const s of builtins) {
    if (s.scope !== 'builtin' || s.status !== 'ok' || s.primaryTool === undefined) continue;
    const key = s.primaryTool.toLowerCase();
    byTool.set(key, [...(byTool.get(key) ?? []), s]);
  }
  const chosen: BuiltinHint[] = [];
  const taken = new Set(exclude);
  for (const line of lines) {
    if (chosen.length >= limit) break;
    const words = new Set(line.toLowerCase().split(/[^a-z0-9.+]+/).filter((w) => w.length > 1));
    const candidates = [...words].flatMap((w) => byTool.get(w) ?? []).filter((s) => !taken.has(s.name));
    if (candidates.length === 0) continue;
    const overlap = (s: Skill) => s.name.split('-').filter((part) => words.has(part)).length;
    const best = candidates.reduce((a, b) => (overlap(b) > overlap(a) ? b : a));
    taken.add(best.name);
    const text = (best.description ?? '').replace(/\s+/g, ' ').trim();
    chosen.push({ name: best.name, step: line, description: text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text });
  }
  return chosen;
}
