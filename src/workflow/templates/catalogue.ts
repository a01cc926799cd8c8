// The built-in templates: their names, one-line descriptions, and the tiny placeholder inputs that
// make a freshly initialised project dry-run with real jobs. Pure data and lookups; reading the
// files is left to the caller (see templateFileUrl).

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../package-root.js';

export interface TemplateInfo {
  /** The name users type: `oxo-flow template rnaseq-quant`. Also the file stem in templates/. */
  name: string;
  /** One line for the listing. */
  description: string;
  /**
   * Inputs that no rule produces, as brace lists (`data/{a,b}_R{1,2}.fastq.gz`), so that `init` can
   * create placeholders and the new project's dry-run plans every job.
   */
  starterInputs: string[];
}

export const TEMPLATES: readonly TemplateInfo[] = [
  {
    name: 'hello-world',
    description: 'a greeting per sample, collected into one summary (fan-out, fan-in, [config])',
    starterInputs: [],
  },
  {
    name: 'file-chain',
    description: 'a linear clean → count → report chain over one table (output-to-input edges)',
    starterInputs: ['data/reads.tsv'],
  },
  {
    name: 'sample-fanout',
    description: 'seqkit filtering and read statistics per sample in two groups, merged into one table',
    starterInputs: ['data/{T1,T2,U1,U2}.fastq.gz'],
  },
  {
    name: 'scatter-gather',
    description: 'bcftools calling scattered over chromosomes, gathered into one VCF',
    starterInputs: ['data/sample.bam', 'ref/genome.fa'],
  },
  {
    name: 'region-chunks',
    description: 'per-sample calling split by region with transform split → map → combine',
    starterInputs: ['data/{NA12878,NA24385}.bam', 'ref/genome.fa'],
  },
  {
    name: 'conditional-qc',
    description: 'alignment QC whose steps `when` switches on from [config]: genome or exome coverage, FastQC',
    starterInputs: ['data/{S01,S02,S03}_R{1,2}.fastq.gz', 'ref/genome.fa'],
  },
  {
    name: 'rnaseq-quant',
    description: 'paired-end RNA-seq: fastp, salmon index and quant, merged counts, MultiQC',
    starterInputs: ['data/{ctrl_1,ctrl_2,kd_1,kd_2}_R{1,2}.fastq.gz', 'ref/transcripts.fa'],
  },
  {
    name: 'germline-variants',
    description: 'germline SNVs/indels: bwa-mem2, MarkDuplicates, BQSR, HaplotypeCaller GVCF, joint genotyping',
    starterInputs: [
      'data/{proband,mother,father}_R{1,2}.fastq.gz',
      'ref/GRCh38.fa',
      'ref/dbsnp.vcf.gz',
      'ref/mills_indels.vcf.gz',
      'ref/calling_regions.bed',
    ],
  },
  {
    name: 'tumor-normal',
    description: 'somatic calling on [[pairs]]: bwa-mem2, MarkDuplicates, Mutect2, orientation model, filtering',
    starterInputs: [
      'data/patient{01,02}_{tumor,normal}_R{1,2}.fastq.gz',
      'ref/GRCh38.fa',
      'ref/af-only-gnomad.vcf.gz',
      'ref/panel_of_normals.vcf.gz',
      'ref/exome_targets.bed',
    ],
  },
  {
    name: 'single-cell-rnaseq',
    description: '10x single-cell RNA-seq: STAR index, STARsolo counting and cell calling, per-sample summary',
    starterInputs: ['data/pbmc_donor{1,2}_R{1,2}.fastq.gz', 'ref/genome.fa', 'ref/genes.gtf', 'ref/3M-february-2018.txt'],
  },
  {
    name: 'amplicon-16s',
    description: '16S amplicons: cutadapt primers, QIIME 2 DADA2 ASVs, taxonomy, phylogeny, diversity',
    starterInputs: [
      'data/mouse_{A1,A2,B1,B2}_R{1,2}.fastq.gz',
      'data/sample-metadata.tsv',
      'ref/silva-138-99-515-806-classifier.qza',
    ],
  },
  {
    name: 'chipseq',
    description: 'ChIP-seq: bowtie2, filtering and dedup, bigWig tracks, MACS3 peaks against input per pair, FRiP',
    starterInputs: ['data/{ctcf_rep1,ctcf_rep2,input_rep1,input_rep2}_R{1,2}.fastq.gz'],
  },
  {
    name: 'atacseq',
    description: 'ATAC-seq: fastp, bowtie2, mito/duplicate filtering, MACS3 BAMPE peaks, bigWig, consensus peaks',
    starterInputs: ['data/{day0_rep1,day0_rep2,day3_rep1,day3_rep2}_R{1,2}.fastq.gz'],
  },
];

export function templateNames(): string[] {
  return TEMPLATES.map((t) => t.name);
}

export function findTemplate(name: string): TemplateInfo | undefined {
  const wanted = name.trim().toLowerCase().replace(/\.oxoflow$/, '');
  return TEMPLATES.find((t) => t.name === wanted);
}

/** The templates/ folder of the package (from a clone, from dist, from the bundle, or a global install). */
export function templatesDirUrl(): URL {
  return pathToFileURL(path.join(packageRoot(), 'templates') + path.sep);
}

export function templateFileUrl(name: string): URL {
  return new URL(`${name}.oxoflow`, templatesDirUrl());
}

/** A file beside the templates, e.g. `envs/salmon.yaml`; refuses anything that would leave the folder. */
export function templateAssetUrl(relative: string): URL | undefined {
  if (relative.startsWith('/') || relative.split('/').some((part) => part === '..' || part === '')) return undefined;
  return new URL(relative, templatesDirUrl());
}
