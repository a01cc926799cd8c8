#!/usr/bin/env node
// A tiny, deterministic ChIP-seq project for the chipseq-peaks example: a 60 kb synthetic genome,
// three binding sites planted at known positions, single-end reads of two ChIP replicates (a share
// of their fragments centred on the sites, the rest spread over the genome) and of one input
// control (spread evenly). No downloads; the same seed gives the same bytes.
//
//   node make-data.mjs DIR
//
// writes, in the project folder DIR:
//   ref/genome.fa                        the reference
//   data/<sample>.fastq.gz               the reads
//   samplesheet.csv                      sample,fastq_1,group (one row per sample)
//   pairs.csv                            pair_id,experiment,control (each ChIP with its input)
//   config.json                          the project's settings, for --configfile
//   truth.bed                            the planted sites (0-based, end exclusive), one per line
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomSequence, revcomp, rng, withErrors } from '../simulate.mjs';

const dir = process.argv[2];
if (dir === undefined || dir.startsWith('-')) {
  process.stderr.write('usage: node make-data.mjs DIR   (the project folder to write)\n');
  process.exit(2);
}

const GENOME_LENGTH = 60_000;
const SITES = [12_000, 31_500, 47_200]; // centres of the binding sites, 0-based
const SITE_HALF_WIDTH = 150; // truth.bed spans centre ± this
const READ_LENGTH = 50;
const ERROR_RATE = 0.002;
const SAMPLES = [
  { sample: 'chip_1', group: 'H3K4me3', seed: 31, reads: 4000, enriched: 0.35 },
  { sample: 'chip_2', group: 'H3K4me3', seed: 32, reads: 4000, enriched: 0.3 },
  { sample: 'input_1', group: 'input', seed: 41, reads: 4000, enriched: 0 },
];
const PAIRS = [
  { pair_id: 'chip_1_vs_input', experiment: 'chip_1', control: 'input_1' },
  { pair_id: 'chip_2_vs_input', experiment: 'chip_2', control: 'input_1' },
];


const genome = randomSequence(GENOME_LENGTH, rng(5));

function reads({ sample, seed, reads: n, enriched }) {
  const rand = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const mutate = withErrors(rand, ERROR_RATE);
  const qual = 'I'.repeat(READ_LENGTH - 5) + '?????';
  const out = [];
  for (let i = 0; i < n; i++) {
    const size = 170 + Math.floor(rand() * 60);
    let centre;
    if (rand() < enriched) centre = SITES[Math.floor(rand() * SITES.length)] + Math.round(normal() * 60);
    else centre = size / 2 + Math.floor(rand() * (GENOME_LENGTH - size));
    const start = Math.max(0, Math.min(GENOME_LENGTH - size, Math.round(centre - size / 2)));
    const fragment = genome.slice(start, start + size);
    // The read is either end of the fragment, on its own strand.
    const read = rand() < 0.5 ? fragment.slice(0, READ_LENGTH) : revcomp(fragment.slice(size - READ_LENGTH));
    out.push(`@${sample}:${i}\n${mutate(read)}\n+\n${qual}\n`);
  }
  return out.join('');
}

mkdirSync(path.join(dir, 'ref'), { recursive: true });
mkdirSync(path.join(dir, 'data'), { recursive: true });
writeFileSync(path.join(dir, 'ref', 'genome.fa'), `>chr1\n${genome.match(/.{1,60}/g).join('\n')}\n`);
const sheet = ['sample,fastq_1,group'];
for (const s of SAMPLES) {
  writeFileSync(path.join(dir, 'data', `${s.sample}.fastq.gz`), gzipSync(reads(s)));
  sheet.push([s.sample, `data/${s.sample}.fastq.gz`, s.group].join(','));
}
writeFileSync(path.join(dir, 'samplesheet.csv'), `${sheet.join('\n')}\n`);
writeFileSync(path.join(dir, 'pairs.csv'), `${['pair_id,experiment,control', ...PAIRS.map((p) => `${p.pair_id},${p.experiment},${p.control}`)].join('\n')}\n`);
writeFileSync(path.join(dir, 'truth.bed'), SITES.map((c) => `chr1\t${c - SITE_HALF_WIDTH}\t${c + SITE_HALF_WIDTH}\n`).join(''));
writeFileSync(
  path.join(dir, 'config.json'),
  `${JSON.stringify({ samplesheet: 'samplesheet.csv', pairs: 'pairs.csv', genome: 'ref/genome.fa', genome_size: GENOME_LENGTH, fragment_length: 200 }, null, 2)}\n`,
);
