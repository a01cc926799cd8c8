#!/usr/bin/env node
// Benchmarks: `oxo-flow dry-run` on generated 12-rule chains × 100 and × 1,000 samples, as ratios to
// `node -e 0` measured in the same run (medians of several runs), peak RSS via /usr/bin/time -v, and
// `snakemake -n` on an equivalent Snakefile when snakemake is on PATH. Writes docs/benchmarks.md.
// Usage: node bench/run.js [--runs N] [--no-write]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'oxo-flow.js');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 7;
const write = !args.includes('--no-write');
const RULES = 12;

if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}

function workflowText(samples) {
  const list = Array.from({ length: samples }, (_, i) => `"S${String(i).padStart(4, '0')}"`).join(', ');
  const rules = [];
  for (let r = 0; r < RULES; r++) {
    const input = r === 0 ? 'raw/{sample}.fq' : `step${r - 1}/{sample}.txt`;
    rules.push(`[[rules]]\nname = "step${r}"\ninput = ["${input}"]\noutput = ["step${r}/{sample}.txt"]\nthreads = 2\nshell = "tool${r} --threads {threads} {input} > {output}"\n`);
  }
  return `[workflow]\nname = "bench-${samples}"\n\n[[sample_groups]]\nname = "all"\nsamples = [${list}]\n\n${rules.join('\n')}`;
}

function snakefileText(samples) {
  const list = Array.from({ length: samples }, (_, i) => `"S${String(i).padStart(4, '0')}"`).join(', ');
  const rules = [`SAMPLES = [${list}]\n`, `rule all:\n    input: expand("step${RULES - 1}/{sample}.txt", sample=SAMPLES)\n`];
  for (let r = 0; r < RULES; r++) {
    const input = r === 0 ? 'raw/{sample}.fq' : `step${r - 1}/{sample}.txt`;
    rules.push(`rule step${r}:\n    input: "${input}"\n    output: "step${r}/{sample}.txt"\n    threads: 2\n    shell: "tool${r} --threads {threads} {input} > {output}"\n`);
  }
  return rules.join('\n');
}

function makeProject(samples) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `oxo-bench-${samples}-`));
  writeFileSync(path.join(dir, 'main.oxoflow'), workflowText(samples));
  writeFileSync(path.join(dir, 'Snakefile'), snakefileText(samples));
  mkdirSync(path.join(dir, 'raw'));
  for (let i = 0; i < samples; i++) writeFileSync(path.join(dir, 'raw', `S${String(i).padStart(4, '0')}.fq`), '');
  return dir;
}

function timeOnce(cmd, argv, cwd) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 400)}`);
  return ms;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Time several runs, interleaving with the baseline so machine load affects both alike. */
function measure(cmd, argv, cwd) {
  timeOnce(cmd, argv, cwd); // warm the file cache and Node's compile cache
  const own = [];
  const base = [];
  for (let i = 0; i < runs; i++) {
    base.push(timeOnce(process.execPath, ['-e', '0'], cwd));
    own.push(timeOnce(cmd, argv, cwd));
  }
  return { ms: median(own), baseMs: median(base) };
}

function peakRssKb(cmd, argv, cwd) {
  if (!existsSync('/usr/bin/time')) return undefined;
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...argv], { cwd, encoding: 'utf8' });
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return m ? Number(m[1]) : undefined;
}

function hasSnakemake() {
  return spawnSync('snakemake', ['--version'], { encoding: 'utf8' }).status === 0;
}

const results = [];
const snakemake = hasSnakemake();
for (const samples of [100, 1000]) {
  const dir = makeProject(samples);
  const jobs = RULES * samples;
  const dry = measure(process.execPath, [cli, 'dry-run', '-q'], dir);
  const rss = peakRssKb(process.execPath, [cli, 'dry-run', '-q'], dir);
  const baseRss = peakRssKb(process.execPath, ['-e', '0'], dir);
  const row = { samples, jobs, ...dry, ratio: dry.ms / dry.baseMs, rss, baseRss, rssRatio: rss && baseRss ? rss / baseRss : undefined };
  if (snakemake) {
    const sm = measure('snakemake', ['-n', '--quiet', '--cores', '1'], dir);
    row.snakemakeMs = sm.ms;
  }
  results.push(row);
  console.error(
    `${jobs} jobs: dry-run ${dry.ms.toFixed(0)} ms, node -e 0 ${dry.baseMs.toFixed(0)} ms, ratio ${row.ratio.toFixed(2)}` +
      (row.rssRatio ? `; peak RSS ${(rss / 1024).toFixed(1)} MB vs ${(baseRss / 1024).toFixed(1)} MB (${row.rssRatio.toFixed(2)}×)` : '') +
      (row.snakemakeMs ? `; snakemake -n ${row.snakemakeMs.toFixed(0)} ms (${(row.snakemakeMs / dry.ms).toFixed(1)}× oxo-flow)` : ''),
  );
}

const budgets = { 1200: 1.5, 12000: 3 };
const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
const lines = [
  '# Benchmarks',
  '',
  'Generated by `node bench/run.js` (after `npm run build`). Each workflow is a chain of 12 rules expanded',
  'over N samples from `[[sample_groups]]`, with every raw input present and no output yet (so every job',
  'is planned to run). Times are medians of ' + runs + ' runs of `oxo-flow dry-run -q`, each run interleaved',
  'with a run of `node -e 0` on the same machine, so the ratio is what the budgets in',
  '`spec/conventions.md` §Performance constrain. Peak RSS is `/usr/bin/time -v`\'s maximum resident set size.',
  '',
  `Machine: ${machine}. Measured ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| jobs | dry-run (ms) | node -e 0 (ms) | ratio | budget | peak RSS (MB) | node -e 0 RSS (MB) | RSS ratio | snakemake -n (ms) |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.jobs.toLocaleString('en')} | ${r.ms.toFixed(0)} | ${r.baseMs.toFixed(0)} | ${r.ratio.toFixed(2)}× | ≤ ${budgets[r.jobs]}× | ${r.rss ? (r.rss / 1024).toFixed(1) : 'n/a'} | ${r.baseRss ? (r.baseRss / 1024).toFixed(1) : 'n/a'} | ${r.rssRatio ? `${r.rssRatio.toFixed(2)}×` : 'n/a'}${r.jobs === 1200 ? ' (budget ≤ 1.6×)' : ''} | ${r.snakemakeMs ? r.snakemakeMs.toFixed(0) : 'not installed'} |`,
  ),
  '',
  'Snakemake runs `snakemake -n --quiet --cores 1` on an equivalent generated Snakefile (same rules, same',
  'samples, same files) when `snakemake` is on PATH; it is optional (`apt-get install -y snakemake`).',
  '',
];
const doc = lines.join('\n');
if (write) writeFileSync(path.join(root, 'docs', 'benchmarks.md'), doc);
process.stdout.write(doc);
