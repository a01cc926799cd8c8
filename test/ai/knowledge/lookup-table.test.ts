// Queries as bioinformaticians type them, each with the skills a colleague would point to: the
// first must rank first, the others must be in the top three (in any order). Runs on the real
// library (skills-builtin/), compiled the way the build compiles it.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileKnowledge } from '../../../src/ai/knowledge/compile.js';
import { searchSkills } from '../../../src/ai/knowledge/search.js';
import { openKnowledge, type KnowledgeIndex } from '../../../src/ai/knowledge/types.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * [query, the expected first skill, other skills expected in the top three]. Where the second and
 * third places are open (several sound answers), only the first is given.
 */
const TABLE: [string, string, ...string[]][] = [
  // QC, trimming, filtering
  ['fastqc', 'fastqc-report'],
  ['paired-end adapter trimming', 'trimgalore-trim', 'fastp-trim'],
  ['trim galore rrbs', 'trimgalore-trim'],
  ['remove rRNA reads', 'sortmerna-rrna'],
  ['UMI extraction', 'umitools-extract', 'umitools-dedup'],
  ['multiqc report', 'multiqc-report'],
  ['host read removal', 'bowtie2-host-removal'],
  // DNA alignment and BAM processing
  ['align reads to hg38 with bwa', 'bwa-mem-align', 'bwa-mem2-align'],
  ['bwa-mem2', 'bwa-mem2-align', 'bwa-index'],
  ['mark duplicates', 'picard-markduplicates'],
  ['BQSR', 'gatk-bqsr'],
  ['coverage depth WES', 'mosdepth-coverage'],
  ['library complexity', 'preseq-complexity'],
  // RNA-seq
  ['star', 'star-index', 'star-align'],
  ['STAR index sjdbOverhang', 'star-index', 'star-align'],
  ['salmon quant', 'salmon-quant', 'salmon-index'],
  ['featurecounts', 'featurecounts-count'],
  ['gene counts from BAM', 'htseq-count', 'featurecounts-count'],
  ['DE analysis', 'differential-expression', 'deseq2-de', 'edger-de'],
  ['GO enrichment', 'clusterprofiler-enrichment', 'gsea-preranked'],
  ['alternative splicing', 'rmats-splicing'],
  ['strandedness check', 'rseqc-qc'],
  // tracks, ChIP-seq, ATAC-seq
  ['bigwig from bam', 'bedgraphtobigwig-tracks', 'deeptools-bamcoverage', 'bedtools-genomecov'],
  ['peak calling chip-seq', 'chipseq-peaks', 'macs3-callpeak'],
  ['IDR replicates', 'idr-replicates'],
  ['motif enrichment', 'meme-chip-motifs', 'homer-motifs'],
  ['annotate peaks nearest gene', 'chipseeker-annotate', 'homer-annotatepeaks'],
  ['differential binding', 'diffbind-differential'],
  ['ATAC-seq QC TSS enrichment', 'ataqv-qc'],
  ['tn5 shift', 'atac-shift-filter'],
  ['TF footprinting', 'tobias-footprinting'],
  // methylation
  ['bisulfite alignment', 'bismark-align', 'bwameth-align'],
  ['methylation calls', 'bismark-extract'],
  // variants
  ['germline variant calling WGS', 'germline-variant-calling', 'strelka2-germline', 'deepvariant-call'],
  ['joint genotyping', 'glnexus-joint', 'gatk-genotypegvcfs'],
  ['somatic SNV tumor normal', 'strelka2-somatic', 'varscan2-somatic', 'gatk-mutect2'],
  ['MSI', 'msisensor-pro'],
  ['normalize VCF left-align', 'bcftools-norm'],
  ['annotate variants VEP', 'vep-annotate'],
  ['SV calling', 'manta-sv'],
  ['CNV exome', 'cnvkit-cnv', 'gatk-gcnv'],
  ['merge SV callsets', 'survivor-merge'],
  ['phasing', 'shapeit5-phase', 'whatshap-phase'],
  ['imputation', 'beagle-impute'],
  // long reads and assembly
  ['nanopore QC', 'nanoplot-qc', 'chopper-filter'],
  ['long read alignment', 'minimap2-align', 'pbmm2-align'],
  ['HiFi assembly', 'flye-assemble', 'hifiasm-assemble'],
  ['bacterial genome annotation', 'bakta-annotate', 'prokka-annotate'],
  ['assembly completeness', 'busco-completeness'],
  // metagenomics, amplicons, viruses, phylogenetics
  ['metagenome binning', 'metabat2-binning', 'concoct-binning', 'maxbin2-binning'],
  ['MAG binning', 'metabat2-binning'],
  ['bin quality', 'checkm2-quality'],
  ['16S ASV', 'dada2-asv', 'amplicon-16s'],
  ['sars-cov-2 lineage', 'pangolin-lineage'],
  ['primer trimming ivar', 'ivar-trim'],
  ['phylogenetic tree', 'iqtree-phylogeny', 'fasttree-phylogeny'],
  ['multiple sequence alignment', 'mafft-align'],
  // single cell, proteomics, intervals, reproducibility
  ['scRNA-seq QC clustering', 'scanpy-qc-cluster', 'seurat-qc-cluster'],
  ['10x counting', 'cellranger-count', 'starsolo-count'],
  ['doublet detection', 'scrublet-doublets'],
  ['ambient RNA', 'cellbender-ambient'],
  ['peptide FDR', 'percolator-fdr'],
  ['liftover hg19 to hg38', 'ucsc-liftover'],
  ['bed intersect', 'bedtools-intersect'],
  ['conda environment', 'conda-environments'],
  ['slurm resources', 'slurm-resources'],
];

let index: KnowledgeIndex;
beforeAll(() => {
  index = openKnowledge(compileKnowledge(ROOT).index);
});

describe('skill lookup: queries as people type them', () => {
  it('has at least 40 queries', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)('%s', (query, first, ...others) => {
    const top = searchSkills(index, query, 3).hits.map((h) => h.name);
    expect(top[0], `top 3: ${top.join(', ')}`).toBe(first);
    for (const name of others) expect(top, `${name} in the top 3`).toContain(name);
  });
});
