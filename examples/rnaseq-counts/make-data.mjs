#!/usr/bin/env node
// A tiny, deterministic RNA-seq project for the rnaseq-counts example: a 20 kb synthetic genome with
// six multi-exon genes on both strands (GTF), and reverse-stranded (dUTP) paired-end reads of four
// samples drawn from the spliced transcripts with known numbers of fragments per gene. No downloads;
// the same seed gives the same bytes.
//
//   node make-data.mjs DIR
//
// writes, in the project folder DIR:
//   ref/genome.fa, ref/genes.gtf         the reference and its annotation
//   data/<sample>_R{1,2}.fastq.gz        the reads
//   samplesheet.csv                      sample,fastq_1,fastq_2,group (one row per sample)
//   config.yaml                          the project's settings, for --configfile
//   truth.tsv                            gene_id, then the simulated fragments per sample
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomSequence, revcomp, rng, withErrors } from '../simulate.mjs';

const dir = process.argv[2];
if (dir === undefined || dir.startsWith('-')) {
  process.stderr.write('usage: node make-data.mjs DIR   (the project folder to write)\n');
  process.exit(2);
}

const READ_LENGTH = 75;
const ERROR_RATE = 0.002;
// Fragments per gene per sample. gene_b is up 4x in the treated samples, gene_d down 4x, gene_f is
// never expressed; the others do not change.
const SAMPLES = [
  { sample: 'ctrl_1', group: 'control', seed: 11 },
  { sample: 'ctrl_2', group: 'control', seed: 12 },
  { sample: 'treat_1', group: 'treated', seed: 21 },
  { sample: 'treat_2', group: 'treated', seed: 22 },
];
const FRAGMENTS = {
  control: { gene_a: 300, gene_b: 150, gene_c: 500, gene_d: 800, gene_e: 100, gene_f: 0 },
  treated: { gene_a: 300, gene_b: 600, gene_c: 500, gene_d: 200, gene_e: 100, gene_f: 0 },
};
// Genes in genome order: strand and exon lengths; introns and intergenic gaps are fixed below.
const GENES = [
  { id: 'gene_a', strand: '+', exons: [320, 260, 410] },
  { id: 'gene_b', strand: '-', exons: [500, 380] },
  { id: 'gene_c', strand: '+', exons: [280, 300, 240, 350] },
  { id: 'gene_d', strand: '-', exons: [450, 520, 300] },
  { id: 'gene_e', strand: '+', exons: [600, 420] },
  { id: 'gene_f', strand: '-', exons: [350, 330] },
];
const INTRON = 300;
const GAP = 1500;


// Lay the genes out: GAP, then each gene's exons separated by introns, then GAP after the last one.
const layout = [];
let cursor = GAP;
for (const gene of GENES) {
  const exons = [];
  for (const length of gene.exons) {
    exons.push([cursor, cursor + length]); // 0-based, end exclusive
    cursor += length + INTRON;
  }
  cursor += GAP - INTRON;
  layout.push({ ...gene, exons });
}
const GENOME_LENGTH = cursor;

let genome = randomSequence(GENOME_LENGTH, rng(7));
// Canonical splice sites (GT…AG on the gene's strand), so a spliced aligner scores the junctions as such.
const chars = [...genome];
for (const gene of layout) {
  for (let k = 0; k + 1 < gene.exons.length; k++) {
    const intronStart = gene.exons[k][1];
    const intronEnd = gene.exons[k + 1][0];
    const [donor, acceptor] = gene.strand === '+' ? ['GT', 'AG'] : ['CT', 'AC'];
    chars[intronStart] = donor[0];
    chars[intronStart + 1] = donor[1];
    chars[intronEnd - 2] = acceptor[0];
    chars[intronEnd - 1] = acceptor[1];
  }
}
genome = chars.join('');

const transcripts = Object.fromEntries(
  layout.map((gene) => {
    const spliced = gene.exons.map(([s, e]) => genome.slice(s, e)).join('');
    return [gene.id, gene.strand === '+' ? spliced : revcomp(spliced)];
  }),
);

const gtf = [];
for (const gene of layout) {
  const start = gene.exons[0][0] + 1;
  const end = gene.exons[gene.exons.length - 1][1];
  const attrs = `gene_id "${gene.id}"; transcript_id "${gene.id}.t1"; gene_name "${gene.id.toUpperCase()}";`;
  gtf.push(['chr1', 'synthetic', 'gene', start, end, '.', gene.strand, '.', `gene_id "${gene.id}"; gene_name "${gene.id.toUpperCase()}";`].join('\t'));
  gtf.push(['chr1', 'synthetic', 'transcript', start, end, '.', gene.strand, '.', attrs].join('\t'));
  gene.exons.forEach(([s, e], k) => {
    gtf.push(['chr1', 'synthetic', 'exon', s + 1, e, '.', gene.strand, '.', `${attrs} exon_number "${k + 1}";`].join('\t'));
  });
}

function reads({ sample, group, seed }) {
  const rand = rng(seed);
  const mutate = withErrors(rand, ERROR_RATE);
  // Quality falls off a little towards the end of the read, as on a real instrument.
  const qual = 'I'.repeat(READ_LENGTH - 10) + '?????55555';
  const order = [];
  for (const [gene, n] of Object.entries(FRAGMENTS[group])) for (let i = 0; i < n; i++) order.push(gene);
  // Shuffle so the file is not sorted by gene.
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const r1 = [];
  const r2 = [];
  order.forEach((gene, i) => {
    const tx = transcripts[gene];
    const size = 180 + Math.floor(rand() * 120);
    const start = Math.floor(rand() * (tx.length - size));
    const fragment = tx.slice(start, start + size);
    const name = `@${sample}:${i}`;
    // dUTP (reverse-stranded): read 1 is antisense to the transcript, read 2 sense.
    r1.push(`${name}/1\n${mutate(revcomp(fragment.slice(size - READ_LENGTH)))}\n+\n${qual}\n`);
    r2.push(`${name}/2\n${mutate(fragment.slice(0, READ_LENGTH))}\n+\n${qual}\n`);
  });
  return [r1.join(''), r2.join('')];
}

mkdirSync(path.join(dir, 'ref'), { recursive: true });
mkdirSync(path.join(dir, 'data'), { recursive: true });
writeFileSync(path.join(dir, 'ref', 'genome.fa'), `>chr1\n${genome.match(/.{1,60}/g).join('\n')}\n`);
writeFileSync(path.join(dir, 'ref', 'genes.gtf'), `${gtf.join('\n')}\n`);
const sheet = ['sample,fastq_1,fastq_2,group'];
for (const s of SAMPLES) {
  const [r1, r2] = reads(s);
  writeFileSync(path.join(dir, 'data', `${s.sample}_R1.fastq.gz`), gzipSync(r1));
  writeFileSync(path.join(dir, 'data', `${s.sample}_R2.fastq.gz`), gzipSync(r2));
  sheet.push([s.sample, `data/${s.sample}_R1.fastq.gz`, `data/${s.sample}_R2.fastq.gz`, s.group].join(','));
}
writeFileSync(path.join(dir, 'samplesheet.csv'), `${sheet.join('\n')}\n`);
const truth = [['gene_id', ...SAMPLES.map((s) => s.sample)].join('\t')];
for (const gene of GENES) truth.push([gene.id, ...SAMPLES.map((s) => FRAGMENTS[s.group][gene.id])].join('\t'));
writeFileSync(path.join(dir, 'truth.tsv'), `${truth.join('\n')}\n`);
writeFileSync(
  path.join(dir, 'config.yaml'),
  [
    '# Settings of this project, for `oxo-flow run …/rnaseq-counts/main.oxoflow --configfile config.yaml`',
    'samplesheet: samplesheet.csv',
    'genome: ref/genome.fa',
    'annotation: ref/genes.gtf',
    'strandedness: 2   # featureCounts -s: 0 unstranded, 1 forward, 2 reverse (dUTP)',
    '',
  ].join('\n'),
);
