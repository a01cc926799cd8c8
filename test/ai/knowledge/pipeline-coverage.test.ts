// The built-in library covers the tools of the main steps of the nf-core pipelines the issue names:
// each tool below is the primary tool of at least one built-in skill.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMdSkill } from '../../../src/ai/skills/parse-md-skill.js';
import { BUILTIN_DIR, builtinSkillNames } from '../../helpers/builtin-skills.js';

const MAIN_STEPS: Record<string, string[]> = {
  'nf-core/rnaseq': ['fastqc', 'trim_galore', 'fastp', 'umi_tools', 'sortmerna', 'STAR', 'hisat2', 'salmon', 'rsem-calculate-expression', 'samtools', 'picard', 'rseqc', 'qualimap', 'dupRadar', 'preseq', 'featureCounts', 'stringtie', 'bedGraphToBigWig', 'kallisto', 'tximport', 'DESeq2', 'multiqc'],
  'nf-core/sarek': ['fastp', 'bwa', 'bwa-mem2', 'dragen-os', 'gatk', 'samtools', 'mosdepth', 'run_deepvariant', 'freebayes', 'bcftools', 'configureStrelkaGermlineWorkflow.py', 'configureStrelkaSomaticWorkflow.py', 'configManta.py', 'tiddit', 'cnvkit.py', 'freec', 'ASCAT', 'msisensor-pro', 'vep', 'snpEff', 'vcftools', 'tabix', 'multiqc'],
  'nf-core/atacseq': ['fastqc', 'trim_galore', 'bwa', 'picard', 'samtools', 'bamtools', 'bedtools', 'bedGraphToBigWig', 'macs2', 'annotatePeaks.pl', 'featureCounts', 'DESeq2', 'plotFingerprint', 'deeptools', 'ataqv', 'preseq', 'multiqc'],
  'nf-core/chipseq': ['fastqc', 'trim_galore', 'bwa', 'picard', 'samtools', 'bamtools', 'bedtools', 'bedGraphToBigWig', 'run_spp.R', 'plotFingerprint', 'macs2', 'annotatePeaks.pl', 'featureCounts', 'DESeq2', 'deeptools', 'preseq', 'multiqc'],
  'nf-core/scrnaseq': ['fastqc', 'STAR', 'cellranger', 'cellranger-atac', 'kb', 'alevin-fry', 'cellbender', 'multiqc'],
  'nf-core/ampliseq': ['fastqc', 'cutadapt', 'dada2', 'qiime', 'picrust2_pipeline.py', 'phyloseq', 'mafft', 'multiqc'],
  'nf-core/mag': ['fastqc', 'fastp', 'AdapterRemoval', 'bowtie2', 'porechop', 'NanoPlot', 'kraken2', 'ktImportTaxonomy', 'megahit', 'spades.py', 'quast.py', 'metabat2', 'run_MaxBin.pl', 'concoct', 'DAS_Tool', 'checkm2', 'busco', 'gtdbtk', 'prokka', 'prodigal', 'multiqc'],
  'nf-core/viralrecon': ['fastqc', 'fastp', 'bowtie2', 'kraken2', 'samtools', 'ivar', 'bcftools', 'mosdepth', 'picard', 'snpEff', 'SnpSift', 'pangolin', 'nextclade', 'spades.py', 'megahit', 'quast.py', 'blastn', 'minimap2', 'medaka', 'multiqc'],
  'nf-core/methylseq': ['fastqc', 'trim_galore', 'bismark_genome_preparation', 'bismark', 'deduplicate_bismark', 'bismark_methylation_extractor', 'bwameth.py', 'MethylDackel', 'picard', 'qualimap', 'preseq', 'multiqc'],
  'nf-core/cutandrun': ['fastqc', 'trim_galore', 'bowtie2', 'samtools', 'picard', 'bedtools', 'SEACR_1.3.sh', 'macs2', 'deeptools', 'bedGraphToBigWig', 'preseq', 'multiqc'],
  'nf-core/taxprofiler': ['fastqc', 'fastp', 'AdapterRemoval', 'porechop', 'filtlong', 'bowtie2', 'kraken2', 'bracken', 'krakenuniq', 'centrifuge', 'kaiju', 'metaphlan', 'motus', 'ganon', 'sylph', 'diamond', 'ktImportTaxonomy', 'taxpasta', 'nonpareil', 'multiqc'],
  'nf-core/nanoseq': ['NanoPlot', 'fastqc', 'minimap2', 'graphmap2', 'samtools', 'bedtools', 'stringtie', 'featureCounts', 'bambu', 'DESeq2', 'DEXSeq', 'sniffles', 'cuteSV', 'medaka', 'run_pepper_margin_deepvariant', 'JAFFAL', 'm6anet', 'xpore', 'multiqc'],
  'nf-core/hic': ['fastqc', 'bowtie2', 'HiC-Pro', 'cooler', 'cooltools', 'hicFindTADs', 'multiqc'],
  'nf-core/smrnaseq': ['fastqc', 'fastp', 'umi_tools', 'mirtrace', 'bowtie', 'mirtop', 'miRDeep2.pl', 'seqcluster', 'umicollapse', 'edgeR', 'multiqc'],
  'nf-core/differentialabundance': ['DESeq2', 'limma', 'affy', 'gprofiler2', 'fgsea', 'decoupler'],
  'nf-core/rnafusion': ['fastp', 'STAR', 'arriba', 'STAR-Fusion', 'fusioncatcher', 'fusion_report', 'FusionInspector', 'salmon', 'picard', 'multiqc'],
  'nf-core/crisprseq': ['cutadapt', 'mageck', 'BAGEL.py', 'bowtie2', 'minimap2', 'racon', 'medaka', 'multiqc'],
};

const tools = new Set(
  builtinSkillNames().map((name) => {
    const file = path.join(BUILTIN_DIR, name, 'SKILL.md');
    return (parseMdSkill(readFileSync(file, 'utf8'), file, name).metadata?.primary_tool ?? '').toLowerCase();
  }),
);

describe('built-in skills cover the main steps of the named nf-core pipelines', () => {
  it.each(Object.entries(MAIN_STEPS))('%s', (_pipeline, needed) => {
    expect(needed.filter((t) => !tools.has(t.toLowerCase()))).toEqual([]);
  });
});
