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
  ['GO enrichment', 'clusterprofiler-enrichment', 'gprofiler2-enrichment'],
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
  ['CNV exome', 'cnvkit-cnv'],
  ['merge SV callsets', 'truvari-sv-benchmark', 'survivor-merge'],
  ['phasing', 'shapeit5-phase', 'whatshap-phase'],
  ['imputation', 'beagle-impute'],
  // long reads and assembly
  ['nanopore QC', 'nanoplot-qc', 'chopper-filter'],
  ['long read alignment', 'minimap2-align', 'graphmap2-align'],
  ['HiFi assembly', 'flye-assemble', 'hifiasm-assemble'],
  ['bacterial genome annotation', 'bakta-annotate', 'prokka-annotate'],
  ['assembly completeness', 'busco-completeness'],
  // metagenomics, amplicons, viruses, phylogenetics
  ['metagenome binning', 'semibin-binning', 'metabat2-binning', 'concoct-binning'],
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
  ['doublet detection', 'scdblfinder-doublets', 'scrublet-doublets'],
  ['ambient RNA', 'soupx-ambient', 'cellbender-ambient'],
  ['peptide FDR', 'percolator-fdr'],
  ['liftover hg19 to hg38', 'ucsc-liftover'],
  ['bed intersect', 'bedtools-intersect'],
  ['conda environment', 'conda-environments'],
  ['slurm resources', 'slurm-resources'],
  // the fields added with the 350-skill library (fusions, Hi-C, small RNA, population genetics, CRISPR,
  // spatial, single-cell analysis, long reads, microbial genomics, annotation, clinical, proteomics)
  ['gene fusion detection from RNA-seq', 'star-fusion-detect', 'arriba-fusions'],
  ['arriba fusions', 'arriba-fusions'],
  ['fusion calls merge report', 'fusion-report-merge'],
  ['Hi-C contact matrix', 'cooler-matrix'],
  ['TAD calling', 'hicexplorer-tads'],
  ['A/B compartments', 'cooltools-compartments'],
  ['novel miRNA discovery', 'mirdeep2-discover'],
  ['isomiR counts', 'mirtop-counts'],
  ['small RNA QC', 'mirtrace-qc'],
  ['CUT&RUN peak calling', 'seacr-peaks'],
  ['RNA-seq variant calling SplitNCigarReads', 'gatk-splitncigarreads'],
  ['wastewater lineage abundance', 'freyja-lineages'],
  ['nanopore amplicon consensus ARTIC', 'artic-minion-consensus'],
  ['GWAS', 'regenie-gwas'],
  ['genotype QC plink', 'plink2-qc'],
  ['relatedness kinship', 'king-relatedness'],
  ['ancestry admixture proportions', 'admixture-ancestry'],
  ['runs of homozygosity', 'bcftools-roh'],
  ['FST between populations', 'vcftools-fst'],
  ['CRISPR screen sgRNA counts', 'mageck-count'],
  ['essential genes CRISPR knockout screen', 'bagel2-essentiality'],
  ['genome editing efficiency amplicon', 'crispresso2-editing'],
  ['Visium spatial transcriptomics', 'seurat-visium', 'spaceranger-count'],
  ['spatial deconvolution cell types', 'cell2location-deconvolve'],
  ['scATAC-seq analysis', 'archr-scatac', 'signac-scatac'],
  ['batch integration single-cell', 'single-cell-qc', 'scvi-integration', 'harmony-integration'],
  ['automated cell type annotation', 'celltypist-annotate'],
  ['RNA velocity', 'scvelo-velocity'],
  ['cell-cell communication ligand receptor', 'liana-communication'],
  ['TCR repertoire', 'mixcr-repertoire', 'trust4-repertoire'],
  ['long-read isoforms', 'isoquant-isoforms'],
  ['nanopore basecalling', 'dorado-basecall'],
  ['genome size heterozygosity k-mers', 'genomescope-kmers'],
  ['assembly QV k-mer', 'merqury-qv'],
  ['remove haplotigs', 'purge-dups'],
  ['antimicrobial resistance genes', 'amrfinderplus-amr'],
  ['MLST typing', 'mlst-typing'],
  ['average nucleotide identity', 'fastani-ani'],
  ['bacterial pangenome', 'panaroo-pangenome'],
  ['recombination bacterial phylogeny', 'gubbins-recombination'],
  ['biosynthetic gene clusters', 'antismash-bgc'],
  ['identify viruses and plasmids in contigs', 'genomad-mobile'],
  ['eukaryotic gene prediction', 'augustus-genes'],
  ['genome annotation with RNA-seq and protein evidence', 'braker3-annotate'],
  ['repeat masking', 'repeatmasker-mask'],
  ['functional annotation of proteins orthology', 'eggnog-mapper-annotate'],
  ['de novo transcriptome assembly', 'trinity-assemble'],
  ['repeat expansion', 'expansionhunter-repeats'],
  ['phenotype-driven variant prioritisation HPO', 'exomiser-prioritise'],
  ['sample swap check', 'somalier-relate', 'ngscheckmate-identity'],
  ['DNA contamination estimate', 'verifybamid2-contamination'],
  ['HLA typing', 'optitype-hla', 'arcashla-typing'],
  ['mutational signatures', 'sigprofiler-signatures'],
  ['benchmark variant calls GIAB', 'happy-benchmark'],
  ['DIA proteomics', 'diann-dia'],
  ['differential protein abundance', 'msstats-de'],
  ['differential exon usage', 'dexseq-usage'],
  ['batch correction RNA-seq counts', 'combat-batch'],
  ['co-expression modules', 'wgcna-networks'],
  ['contamination screen genomes', 'fastq-screen-contamination'],
  ['UMI consensus duplex', 'fgbio-umi-consensus'],
  ['chromatin states histone marks', 'chromhmm-states'],
  ['m6A direct RNA', 'm6anet-modifications'],
  ['download SRA runs', 'sra-fetch'],
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
