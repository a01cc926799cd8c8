// Build time only (scripts/build-knowledge.mjs): compiles the built-in skills (front matter and
// bodies) and the pipeline graph into one index, so a lookup reads one JSON file and does no
// parsing, tokenising or stemming of the library at run time.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuiltinManifest, ManifestEntry } from '../skills/builtin-manifest.js';
import { parseMdSkill } from '../skills/parse-md-skill.js';
import { singleLine } from '../skills/prompt-text.js';
import { checkGraph, parsePipelines } from './graph-check.js';
import { parseGraph } from './graph-source.js';
import { documentTerms } from './tokenize.js';
import { encodePostings, FIELDS, packFrequencies, type GraphEdge, type GraphNode, type IndexedSkill, type IndexFile } from './types.js';

export interface Compiled {
  index: IndexFile;
  /** What discovery lists for the built-in scope (dist/builtin-skills.json); undefined when a skill has findings. */
  manifest?: BuiltinManifest;
  /** Problems that make the build fail (a broken graph, a skill that does not parse). */
  problems: string[];
}

/** A skill's metadata value, from `metadata:` (Agent Skills form) or the older top-level keys. */
function meta(parsed: { metadata?: Record<string, string>; domains: string[]; primaryTool?: string }, key: 'domain' | 'primary_tool' | 'tool_type'): string {
  const v = parsed.metadata?.[key];
  if (v !== undefined) return v;
  if (key === 'domain') return parsed.domains[0] ?? '';
  if (key === 'primary_tool') return parsed.primaryTool ?? '';
  return '';
}

/** A maintained pipeline, or a tool's published best practice: what makes a tool standard for a step. */
const counts = (p: string) => p.startsWith('nf-core/') || /best[ -]practices/.test(p);

/**
 * How many maintained pipelines (and best-practice guides) run a skill's step: the graph node the
 * skill is named after (its id or an alias), else every node that runs the skill's tool.
 */
function pipelinesOfSkill(graph: { nodes: GraphNode[]; edges: GraphEdge[] }, name: string, tool: string): number {
  const own = graph.nodes.filter((n) => n.id === name || n.aliases.includes(name));
  const key = tool.toLowerCase();
  const nodes = own.length > 0 ? own : graph.nodes.filter((n) => n.tools.some((t) => t.toLowerCase() === key));
  const ids = new Set(nodes.map((n) => n.id));
  return new Set(graph.edges.filter((e) => ids.has(e.from) || ids.has(e.to)).flatMap((e) => e.pipelines).filter(counts)).size;
}

export function compileKnowledge(root: string): Compiled {
  const problems: string[] = [];
  const skillsDir = path.join(root, 'skills-builtin');
  const entries = readdirSync(skillsDir, { withFileTypes: true }).filter((d) => !d.name.startsWith('.'));
  const names = entries.filter((d) => d.isDirectory()).map((d) => d.name).sort();
  // The manifest stands in for the files only when it covers every entry discovery would see.
  let manifest: ManifestEntry[] | undefined = entries.length === names.length ? [] : undefined;

  const skills: IndexedSkill[] = [];
  const postings = new Map<string, number[]>();
  const totals = FIELDS.map(() => 0);
  for (const dirName of names) {
    const file = path.join(skillsDir, dirName, 'SKILL.md');
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      manifest = undefined;
      continue; // a directory without SKILL.md is not a skill (discovery skips it too)
    }
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    const parsed = parseMdSkill(text, file, dirName);
    if (parsed.findings.length > 0 || parsed.description === undefined) manifest = undefined;
    else
      manifest?.push({
        name: dirName,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        description: singleLine(parsed.description),
        domains: parsed.domains,
        ...Object.fromEntries(
          (['version', 'license', 'compatibility', 'author', 'metadata', 'primaryTool', 'allowedTools'] as const).filter((k) => parsed[k] !== undefined).map((k) => [k, parsed[k]]),
        ),
      });
    const errors = parsed.findings.filter((f) => f.severity === 'error');
    if (errors.length > 0 || parsed.description === undefined || parsed.prompt === undefined) {
      problems.push(...(errors.length > 0 ? errors : [{ message: 'no description or body' }]).map((e) => `skills-builtin/${dirName}/SKILL.md: ${e.message}`));
      continue;
    }
    const skill: IndexedSkill = {
      name: dirName,
      description: parsed.description,
      domain: meta(parsed, 'domain'),
      tool: meta(parsed, 'primary_tool'),
      toolType: meta(parsed, 'tool_type'),
      pipelines: 0,
      lengths: [],
    };
    const fieldText = [skill.name.replace(/-/g, ' '), skill.tool, skill.domain.replace(/-/g, ' '), skill.description, withoutSources(parsed.prompt)];
    const freq = new Map<string, number[]>();
    fieldText.forEach((t, f) => {
      const terms = documentTerms(t);
      skill.lengths.push(terms.length);
      totals[f]! += terms.length;
      for (const term of terms) {
        const row = freq.get(term) ?? FIELDS.map(() => 0);
        row[f]! += 1;
        freq.set(term, row);
      }
    });
    const at = skills.length;
    skills.push(skill);
    for (const [term, row] of freq) postings.set(term, [...(postings.get(term) ?? []), at, packFrequencies(row)]);
  }

  const graphDir = path.join(root, 'knowledge-graph');
  const read = (name: string) => readFileSync(path.join(graphDir, name), 'utf8');
  const graph = parseGraph({ nodes: read('nodes.tsv'), edges: read('edges.tsv'), standalone: read('standalone.tsv') });
  problems.push(...graph.problems.map((p) => `knowledge-graph/${p}`));
  const facts = { io: read('node-io.tsv'), pipelines: read('pipelines.tsv'), modules: read('pipeline-modules.tsv') };
  problems.push(...checkGraph(graph, facts).map((p) => `knowledge-graph/${p}`));
  const assays = Object.fromEntries(parsePipelines(facts.pipelines));
  for (const skill of skills) skill.pipelines = pipelinesOfSkill(graph, skill.name, skill.tool);

  return {
    index: {
      format: 2,
      skills,
      averageLengths: totals.map((t) => (skills.length > 0 ? t / skills.length : 0)),
      postings: Object.fromEntries([...postings].map(([term, flat]) => [term, encodePostings(flat)])),
      graph: JSON.stringify({ nodes: graph.nodes, edges: graph.edges, standalone: graph.standalone, assays }),
    },
    problems,
    ...(manifest ? { manifest: { format: 1, skills: manifest } } : {}),
  };
}

/**
 * A skill's body as search reads it: without its Sources section. Addresses, DOIs and the pipelines
 * whose module lists hold a tool say where facts come from, not what the skill does; indexed, they
 * would rank a skill for the pipelines it cites and grow the index.
 */
function withoutSources(body: string): string {
  return body.replace(/^## Sources\n[\s\S]*?(?=^## |(?![\s\S]))/m, '');
}
