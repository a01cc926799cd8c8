// Routes as pipelines run them (knowledge-graph/, compiled as the build compiles it): for each query,
// the first route must be the best-practice one a senior bioinformatician expects, within one assay.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileKnowledge } from '../../../src/ai/knowledge/compile.js';
import { findNode, routes } from '../../../src/ai/knowledge/graph.js';
import { openKnowledge, type Graph } from '../../../src/ai/knowledge/types.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** [from, to, the expected first route (node ids, from first), the assay it belongs to]. */
const ROUTES: [string, string, string, string][] = [
  ['bwa-mem2', 'haplotypecaller', 'bwa-mem2 markduplicates bqsr haplotypecaller', 'dna-variants'],
  ['short-reads', 'haplotypecaller', 'short-reads bwa-mem markduplicates bqsr haplotypecaller', 'dna-variants'],
  ['short-reads', 'mutect2', 'short-reads bwa-mem markduplicates bqsr mutect2', 'dna-variants'],
  ['star', 'haplotypecaller', 'star-align markduplicates splitncigarreads bqsr haplotypecaller', 'rna-seq'],
  ['haplotypecaller', 'vep', 'haplotypecaller cnnscorevariants vep', 'dna-variants'],
  ['mutect2', 'vep', 'mutect2 filtermutectcalls vep', 'dna-variants'],
  ['haplotypecaller', 'genotypegvcfs', 'haplotypecaller genotypegvcfs', 'dna-variants'],
  ['genotypegvcfs', 'vqsr', 'genotypegvcfs vqsr', 'dna-variants'],
  ['salmon', 'deseq2', 'salmon-quant tximport deseq2', 'rna-seq'],
  ['featurecounts', 'deseq2', 'featurecounts deseq2', 'rna-seq'],
  ['fastp', 'featurecounts', 'fastp hisat2-align featurecounts', 'rna-seq'],
  ['deseq2', 'gsea', 'deseq2 gsea', 'rna-seq'],
  ['star', 'arriba', 'star-align arriba', 'rna-seq'],
  ['trim-galore', 'macs-callpeak', 'trim-galore bwa-mem markduplicates bamtools-filter macs-callpeak', 'chip-seq'],
  ['macs-callpeak', 'meme-chip', 'macs-callpeak bedtools-getfasta meme-chip', 'chip-seq'],
  ['bowtie2', 'seacr', 'bowtie2 samtools-view-filter bedtools-genomecov seacr', 'cut-and-run'],
  ['short-reads', 'bismark-extract', 'short-reads bismark-align bismark-extract', 'methylation'],
  ['trim-galore', 'methyldackel', 'trim-galore bwameth markduplicates methyldackel', 'methylation'],
  ['cutadapt', 'qiime2-taxonomy', 'cutadapt dada2 qiime2-taxonomy', 'amplicon'],
  ['megahit', 'gtdbtk', 'megahit metabat2 checkm2 gtdbtk', 'metagenomics'],
  ['kraken2', 'bracken', 'kraken2 bracken', 'metagenomics'],
  ['short-reads', 'pangolin', 'short-reads bowtie2 ivar-trim ivar-consensus pangolin', 'viral'],
  ['long-reads', 'pangolin', 'long-reads artic-minion pangolin', 'viral'],
  ['long-reads', 'sniffles2', 'long-reads minimap2 sniffles2', 'long-reads'],
  ['long-reads', 'flye', 'long-reads flye', 'assembly'],
  ['ms-raw-data', 'percolator', 'ms-raw-data comet percolator', 'proteomics'],
  ['fastp', 'mirtop', 'fastp bowtie-align mirtop', 'small-rna'],
  ['short-reads', 'hicpro', 'short-reads hicpro', 'hi-c'],
];

let graph: Graph;
beforeAll(() => {
  const compiled = compileKnowledge(ROOT);
  expect(compiled.problems).toEqual([]);
  graph = openKnowledge(compiled.index).graph;
});
const id = (name: string) => {
  const found = findNode(graph, name);
  if (!found.found) throw new Error(`no node ${name}`);
  return found.node.id;
};

describe('pipeline routes, best practice first', () => {
  it.each(ROUTES)('%s → %s', (from, to, expected, assay) => {
    const r = routes(graph, id(from), id(to));
    const first = r.routes[0]!;
    expect([first.edges[0]!.from, ...first.edges.map((e) => e.to)].join(' ')).toBe(expected);
    expect(first.mixed).toBe(false);
    expect(r.inferredAssay).toBe(assay);
    // Every route listed keeps to that assay.
    for (const other of r.routes) expect(other.assays).toContain(assay);
  });

  it('never puts a mixed route first when one pipeline runs the whole way (every 8th step against every step)', () => {
    const steps = graph.nodes.map((n) => n.id);
    const sample = steps.filter((_, i) => i % 8 === 0);
    let pairs = 0;
    for (const a of sample)
      for (const b of steps) {
        if (a === b) continue;
        // With mixed routes asked for, every route one pipeline runs is listed before them.
        const r = routes(graph, a, b, { limit: 1, mixed: true });
        if (r.routes.length === 0) continue;
        pairs += 1;
        if (r.routes.some((x) => !x.mixed)) expect(r.routes[0]!.mixed, `${a} → ${b}`).toBe(false);
      }
    expect(pairs).toBeGreaterThan(150);
  });

  it('keeps to the assay asked for, and lists mixed routes only when asked', () => {
    expect(routes(graph, 'featurecounts', 'deseq2', { assay: 'atac-seq' }).routes[0]!.pipelines).toContain('nf-core/atacseq');
    expect(routes(graph, 'fastp', 'deseq2', { assay: 'proteomics' }).routes).toEqual([]);
    const plain = routes(graph, 'trim-galore', 'macs-callpeak');
    expect(plain.routes.every((r) => !r.mixed)).toBe(true);
    expect(plain.otherAssays).toContain('atac-seq');
    expect(routes(graph, 'trim-galore', 'macs-callpeak', { mixed: true }).routes.some((r) => r.mixed)).toBe(true);
  });
});
