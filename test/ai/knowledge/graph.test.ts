// The pipeline graph as shipped (knowledge-graph/), its checks on broken input, and the graph queries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileKnowledge } from '../../../src/ai/knowledge/compile.js';
import { findNode, graphStats, shortestPaths, transitions } from '../../../src/ai/knowledge/graph.js';
import { checkGraph } from '../../../src/ai/knowledge/graph-check.js';
import { parseGraph } from '../../../src/ai/knowledge/graph-source.js';
import { openKnowledge } from '../../../src/ai/knowledge/types.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (name: string) => readFileSync(path.join(ROOT, 'knowledge-graph', name), 'utf8');
const shipped = parseGraph({ nodes: read('nodes.tsv'), edges: read('edges.tsv'), standalone: read('standalone.tsv') });
const graph = { nodes: shipped.nodes, edges: shipped.edges, standalone: shipped.standalone };

describe('the shipped pipeline graph', () => {
  it('parses without problems, with at least 80 steps and 300 transitions', () => {
    expect(shipped.problems).toEqual([]);
    expect(shipped.nodes.filter((n) => n.kind === 'step').length).toBeGreaterThanOrEqual(80);
    expect(shipped.edges.length).toBeGreaterThanOrEqual(300);
  });

  it('every edge names existing nodes, is no self-loop, and says what flows and where it is drawn from', () => {
    const ids = new Set(shipped.nodes.map((n) => n.id));
    for (const e of shipped.edges) {
      expect(ids.has(e.from) && ids.has(e.to), `${e.from} → ${e.to}`).toBe(true);
      expect(e.from).not.toBe(e.to);
      expect(e.data.length).toBeGreaterThan(0);
      expect(e.pipelines.length).toBeGreaterThan(0);
    }
  });

  it('every node is reachable from a data source', () => {
    const reached = new Set(shipped.nodes.filter((n) => n.kind === 'source').map((n) => n.id));
    for (let grew = true; grew; ) {
      grew = false;
      for (const e of shipped.edges) if (reached.has(e.from) && !reached.has(e.to)) (reached.add(e.to), (grew = true));
    }
    expect(shipped.nodes.filter((n) => !reached.has(n.id)).map((n) => n.id)).toEqual([]);
  });

  it("draws on the main nf-core pipelines", () => {
    const pipelines = new Set(shipped.edges.flatMap((e) => e.pipelines));
    for (const p of ['rnaseq', 'sarek', 'atacseq', 'chipseq', 'scrnaseq', 'ampliseq', 'mag', 'viralrecon', 'methylseq']) expect(pipelines.has(`nf-core/${p}`), p).toBe(true);
  });

  it("every built-in skill's primary_tool is a tool of a node, or listed as standalone", () => {
    const index = openKnowledge(compileKnowledge(ROOT).index);
    const tools = new Set([...shipped.nodes.flatMap((n) => n.tools), ...shipped.standalone.map((s) => s.tool)].map((t) => t.toLowerCase()));
    const unmapped = index.skills.filter((s) => !tools.has(s.tool.toLowerCase())).map((s) => `${s.name} (${s.tool || 'no primary_tool'})`);
    expect(unmapped).toEqual([]);
  });
});

describe('graph checks catch broken input', () => {
  const nodes = ['a\tsource\tinput\t-\t-\tA', 'b\tstep\tqc\tbtool\t-\tB', 'c\tstep\tqc\tctool\tsee\tC'].join('\n');
  it.each([
    ['an unknown node', 'a\tb\tFASTQ\tp\nb\tzz\tBAM\tp\nb\tc\tBAM\tp', /no node "zz"/],
    ['a self-loop', 'a\tb\tFASTQ\tp\nb\tb\tBAM\tp\nb\tc\tBAM\tp', /self-loop on "b"/],
    ['a duplicate edge', 'a\tb\tFASTQ\tp\na\tb\tFASTQ\tp\nb\tc\tBAM\tp', /duplicate of the edge a → b/],
    ['an unreachable step', 'a\tb\tFASTQ\tp', /"c" cannot be reached/],
    ['an edge without data types', 'a\tb\t-\tp\nb\tc\tBAM\tp', /names no data type/],
    ['an edge without pipelines', 'a\tb\tFASTQ\t-\nb\tc\tBAM\tp', /names no pipeline/],
    ['an edge into a source', 'a\tb\tFASTQ\tp\nb\tc\tBAM\tp\nc\ta\tBAM\tp', /"a" is a source node/],
  ])('%s', (_name, edges, message) => {
    const g = parseGraph({ nodes, edges, standalone: '' });
    expect(g.problems.join('\n')).toMatch(message);
  });

  it('a clean small graph has no problems, and a clashing alias is one', () => {
    expect(parseGraph({ nodes, edges: 'a\tb\tFASTQ\tp\nb\tc\tBAM\tp', standalone: '' }).problems).toEqual([]);
    expect(parseGraph({ nodes: `${nodes}\nd\tstep\tqc\t-\tb\tD`, edges: 'a\tb\tFASTQ\tp\nb\tc\tBAM\tp\nc\td\tBAM\tp', standalone: '' }).problems.join('\n')).toMatch(
      /"b" is already a node id or alias/,
    );
  });
});

describe('graph queries', () => {
  it('finds nodes by id, alias or tool, case-insensitively', () => {
    expect(findNode(graph, 'fastp')).toMatchObject({ found: true, node: { id: 'fastp' }, via: 'id' });
    expect(findNode(graph, 'featurecounts')).toMatchObject({ found: true, node: { id: 'featurecounts' } });
    expect(findNode(graph, 'featureCounts')).toMatchObject({ found: true, node: { id: 'featurecounts' } });
    expect(findNode(graph, 'STAR')).toMatchObject({ found: true, node: { id: 'star-align' }, via: 'alias' });
    expect(findNode(graph, 'mosdepth')).toMatchObject({ found: true, node: { id: 'mosdepth' } });
    expect(findNode(graph, 'configManta.py')).toMatchObject({ found: true, node: { id: 'manta' }, via: 'tool' });
  });

  it('a tool of several steps is ambiguous, and a typo gets a suggestion', () => {
    const s = findNode(graph, 'samtools');
    expect(s.found).toBe(false);
    expect(!s.found && s.reason === 'ambiguous' && s.candidates.map((c) => c.id)).toContain('samtools-sort-index');
    expect(findNode(graph, 'fastpp')).toEqual({ found: false, reason: 'unknown', suggestion: 'fastp' });
  });

  it('shortest paths carry the data types of each edge', () => {
    const paths = shortestPaths(graph, 'fastp', 'featurecounts');
    expect(paths.length).toBeGreaterThan(0);
    const viaStar = paths.find((p) => p.map((e) => e.to).join(' ') === 'star-align featurecounts');
    expect(viaStar?.map((e) => e.data)).toEqual([['FASTQ'], ['BAM']]);
    expect(paths.every((p) => p.length === paths[0]!.length)).toBe(true);
    expect(shortestPaths(graph, 'multiqc', 'fastp')).toEqual([]);
  });

  it('transitions list what follows and what precedes', () => {
    const t = transitions(graph, 'star-align');
    expect(t.outgoing.map((e) => e.to)).toEqual(expect.arrayContaining(['featurecounts', 'samtools-sort-index', 'salmon-quant']));
    expect(t.incoming.map((e) => e.from)).toEqual(expect.arrayContaining(['star-index', 'fastp']));
    const s = graphStats(graph);
    expect(s.edges).toBe(shipped.edges.length);
    expect(s.domains).toBeGreaterThanOrEqual(30);
  });
});

describe('the graph check (node-io.tsv, pipelines.tsv, pipeline-modules.tsv)', () => {
  const facts = { io: read('node-io.tsv'), pipelines: read('pipelines.tsv'), modules: read('pipeline-modules.tsv') };

  it('holds for the shipped graph: every data type produced and consumed, every credit a pipeline that runs both ends', () => {
    expect(checkGraph(graph, facts)).toEqual([]);
    // Each nf-core credit has a module list with its source commit and date.
    for (const line of facts.modules.split('\n').filter((l) => l !== '' && !l.startsWith('#'))) expect(line).toMatch(/^nf-core\/[a-z]+\t[0-9a-f]{12}\t\d{4}-\d{2}-\d{2}\t\S+/);
  });

  it('finds a data flow that does not happen', () => {
    const edges = [...graph.edges, { from: 'consensus-peaks', to: 'deseq2', data: ['count matrix'], pipelines: ['nf-core/atacseq'] }];
    expect(checkGraph({ ...graph, edges }, facts).join('\n')).toMatch(/consensus-peaks → deseq2: "consensus-peaks" does not produce "count matrix"/);
  });

  it('finds a pipeline credited with a step its module list lacks, and a credit nobody listed', () => {
    const edges = [
      ...graph.edges,
      { from: 'short-reads', to: 'trimmomatic', data: ['FASTQ'], pipelines: ['nf-core/cutandrun'] },
      { from: 'short-reads', to: 'fastp', data: ['FASTQ'], pipelines: ['my lab notes'] },
    ];
    const problems = checkGraph({ ...graph, edges }, facts).join('\n');
    expect(problems).toMatch(/short-reads → trimmomatic: credits "nf-core\/cutandrun", whose module list runs nothing that matches "trimmomatic"/);
    expect(problems).toMatch(/the credit "my lab notes" is not listed in pipelines.tsv/);
  });

  it('asks for a line per node', () => {
    const io = facts.io.split('\n').filter((l) => !l.startsWith('fastp\t')).join('\n');
    expect(checkGraph(graph, { ...facts, io })).toContain('node-io.tsv: no line for the node "fastp"');
  });
});
