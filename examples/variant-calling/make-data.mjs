#!/usr/bin/env node
// Tiny, deterministic test data for the variant-calling example: a random 6 kb reference with SNPs
// planted at known positions, and simulated paired-end reads of samples that carry them
// (homozygous), with a few sequencing errors. No downloads; the same seed gives the same bytes.
//
//   node make-data.mjs DIR [--samples S1,S2,S3] [--only S2 --seed 7]
//
// writes, in the project folder DIR:
//   ref/ref.fa                          the reference
//   raw/<sample>_R1.fastq, _R2.fastq    the reads
//   samplesheet.csv                     sample,fastq_1,fastq_2,group (one row per sample)
//   config.toml                         the project's settings, for --configfile
//   truth.tsv                           the planted SNPs: chrom, 1-based position, ref, alt
// --only regenerates one sample's reads with another seed (a "changed input" for a rerun).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { otherBase, randomSequence, revcomp, rng, withErrors } from '../simulate.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dir = args[0];
if (dir === undefined || dir.startsWith('-')) {
  process.stderr.write('usage: node make-data.mjs DIR [--samples S1,S2,S3] [--only S2 --seed 7]   (DIR: the project folder to write)\n');
  process.exit(2);
}
const samples = flag('--samples', 'S1,S2,S3').split(',');
const only = flag('--only', undefined);
const seedBase = Number(flag('--seed', '1'));

const REF_LENGTH = 6000;
const SNPS = [1200, 2500, 4100, 5300]; // 1-based
const READ_LENGTH = 100;
const PAIRS = 600; // about 20x
const ERROR_RATE = 0.002;


const refRand = rng(42);
const ref = randomSequence(REF_LENGTH, refRand);
const alt = [...ref];
const truth = [];
for (const pos of SNPS) {
  const r = ref[pos - 1];
  const a = otherBase(r, refRand);
  alt[pos - 1] = a;
  truth.push(['chr1', pos, r, a].join('\t'));
}
const sampleGenome = alt.join('');

function reads(sample, seed) {
  const rand = rng(seed);
  const mutate = withErrors(rand, ERROR_RATE);
  const qual = 'I'.repeat(READ_LENGTH);
  let r1 = '';
  let r2 = '';
  for (let i = 0; i < PAIRS; i++) {
    const insert = 250 + Math.floor(rand() * 100);
    const start = Math.floor(rand() * (REF_LENGTH - insert));
    const fragment = sampleGenome.slice(start, start + insert);
    const name = `@${sample}:${i}`;
    r1 += `${name}/1\n${mutate(fragment.slice(0, READ_LENGTH))}\n+\n${qual}\n`;
    r2 += `${name}/2\n${mutate(revcomp(fragment.slice(insert - READ_LENGTH)))}\n+\n${qual}\n`;
  }
  return [r1, r2];
}

mkdirSync(path.join(dir, 'ref'), { recursive: true });
mkdirSync(path.join(dir, 'raw'), { recursive: true });
if (only === undefined) {
  writeFileSync(path.join(dir, 'ref', 'ref.fa'), `>chr1\n${ref.match(/.{1,60}/g).join('\n')}\n`);
  writeFileSync(path.join(dir, 'truth.tsv'), `${truth.join('\n')}\n`);
  const sheet = ['sample,fastq_1,fastq_2,group', ...samples.map((s) => `${s},raw/${s}_R1.fastq,raw/${s}_R2.fastq,cohort`)];
  writeFileSync(path.join(dir, 'samplesheet.csv'), `${sheet.join('\n')}\n`);
  writeFileSync(
    path.join(dir, 'config.toml'),
    '# Settings of this project, for `oxo-flow run …/variant-calling/main.oxoflow --configfile config.toml`\nsamplesheet = "samplesheet.csv"\nreference = "ref/ref.fa"\n',
  );
}
samples.forEach((sample, k) => {
  if (only !== undefined && sample !== only) return;
  const [r1, r2] = reads(sample, seedBase * 1000 + k);
  writeFileSync(path.join(dir, 'raw', `${sample}_R1.fastq`), r1);
  writeFileSync(path.join(dir, 'raw', `${sample}_R2.fastq`), r2);
});
