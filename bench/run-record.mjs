#!/usr/bin/env node
// Benchmark: what the run record costs, and how fast `oxo-flow report` is on a large run.
//   1. 1,000 trivial jobs (each `touch`es one file), -j 2, with the record (the default) against
//      `--no-record`, fresh folders, the two in turn (A B A B …); the ratio is taken pair by pair and
//      its median quoted, so drift in the machine's speed hits both alike. Target ≤ 1.02.
//   2. A real run of 10,000 trivial jobs (recorded once), then `oxo-flow report` of it timed several
//      times (median). Targets: ≤ 3 s, HTML ≤ 5 MB.
// Usage: npm run build && node bench/run-record.mjs [--runs N] [--no-write]
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, machineDescription, median, requireBuild, runsFromArgs, timeOnce, writeDocSection } from './lib.mjs';

const { runs, write } = runsFromArgs(5);
requireBuild();

function project(jobs) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-record-'));
  const samples = Array.from({ length: jobs }, (_, i) => `"s${String(i).padStart(5, '0')}"`);
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]\nname = "trivial"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples.join(', ')}]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "touch {output}"\n`,
  );
  return dir;
}

function timedRun(record) {
  const dir = project(1000);
  const ms = timeOnce(process.execPath, [CLI, 'run', '-q', '-j', '2', ...(record ? [] : ['--no-record'])], { cwd: dir });
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

const loadBefore = os.loadavg()[0];
timedRun(true); // warm the file cache
const withRecord = [];
const without = [];
const ratios = [];
for (let i = 0; i < runs; i++) {
  const a = timedRun(true);
  const b = timedRun(false);
  withRecord.push(a);
  without.push(b);
  ratios.push(a / b);
  console.error(`pair ${i + 1}: with record ${a.toFixed(0)} ms, --no-record ${b.toFixed(0)} ms, ratio ${(a / b).toFixed(3)}`);
}
const ratio = median(ratios);
console.error(`record overhead: median ratio ${ratio.toFixed(3)} (target ≤ 1.02)`);

// 10,000 jobs, recorded once; then the report of that run.
const big = project(10_000);
const runMs = timeOnce(process.execPath, [CLI, 'run', '-q', '-j', '2'], { cwd: big });
console.error(`10,000-job run: ${(runMs / 1000).toFixed(1)} s`);
timeOnce(process.execPath, [CLI, 'report', '-o', 'report.html'], { cwd: big });
const reportTimes = [];
for (let i = 0; i < runs; i++) reportTimes.push(timeOnce(process.execPath, [CLI, 'report', '-o', 'report.html'], { cwd: big }));
const reportMs = median(reportTimes);
const size = statSync(path.join(big, 'report.html')).size;
const jsonMs = timeOnce(process.execPath, [CLI, 'report', '--format', 'json', '-o', 'report.json'], { cwd: big });
const jsonSize = statSync(path.join(big, 'report.json')).size;
rmSync(big, { recursive: true, force: true });
console.error(`report of 10,000 jobs: ${reportMs.toFixed(0)} ms (median of ${runs}), ${(size / 2 ** 20).toFixed(2)} MiB`);
const loadAfter = os.loadavg()[0];

const ok = (v, limit) => (v <= limit ? 'met' : '**not met**');
if (write) {
  writeDocSection(
    '## run record and report',
    `\`node bench/run-record.mjs\`: ${machineDescription()}; 1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (other work shares the two cores, so single figures are noisy; ratios are taken pair by pair).

| what | figure | target |
|---|---|---|
| 1,000 trivial jobs, \`-j 2\`: with the run record ÷ \`--no-record\` (median of ${runs} pairs) | ${ratio.toFixed(3)}× (${(median(withRecord) / 1000).toFixed(2)} s against ${(median(without) / 1000).toFixed(2)} s) | ≤ 1.02×: ${ok(ratio, 1.02)} |
| \`oxo-flow report\` of a real 10,000-job run (median of ${runs}) | ${(reportMs / 1000).toFixed(2)} s | ≤ 3 s: ${ok(reportMs, 3000)} |
| its HTML file | ${(size / 2 ** 20).toFixed(2)} MiB | ≤ 5 MB: ${ok(size, 5e6)} |
| \`oxo-flow report --format json\` of the same run | ${(jsonMs / 1000).toFixed(2)} s, ${(jsonSize / 2 ** 20).toFixed(2)} MiB | – |

The 10,000-job run itself took ${(runMs / 1000).toFixed(1)} s. Pairs: ${ratios.map((r) => r.toFixed(3)).join(', ')}.`,
  );
}
