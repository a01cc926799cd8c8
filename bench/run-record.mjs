#!/usr/bin/env node
// Benchmark: what the run record costs, and how fast `oxo-flow report` is on a large run.
//   1. 1,000 trivial jobs (each `touch`es one file), -j 2, with the record (the default) against
//      `--no-record`, fresh folders, the two in turn (A B, B A, …); the ratio of the whole command's CPU
//      time (user + system, its helper and jobs included: what the run costs the machine) is taken
//      pair by pair and its median quoted, so drift in the machine's speed hits both alike. Target
//      ≤ 1.02. Wall time is shown too (on a shared host it swings far more than the effect).
//   2. A real run of 10,000 trivial jobs (recorded once), then `oxo-flow report` of it timed several
//      times (median). Targets: ≤ 3 s, HTML ≤ 5 MB.
// Usage: npm run build && node bench/run-record.mjs [--runs N] [--no-write]
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** CPU time (ms) of the children this process has reaped so far. */
function childCpuMs() {
  const t = readFileSync('/proc/self/stat', 'latin1');
  const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

function timedRun(record) {
  const dir = project(1000);
  const before = childCpuMs();
  const ms = timeOnce(process.execPath, [CLI, 'run', '-q', '-j', '2', ...(record ? [] : ['--no-record'])], { cwd: dir });
  const cpu = childCpuMs() - before;
  rmSync(dir, { recursive: true, force: true });
  return { ms, cpu };
}

const loadBefore = os.loadavg()[0];
timedRun(true); // warm the file cache
const withRecord = [];
const without = [];
const ratios = [];
const wallRatios = [];
for (let i = 0; i < runs; i++) {
  // Which of the two goes first alternates (A B, B A, …): a run pays for what the one before it left
  // (the file system's recently deleted inodes, a warm or cold cache), and that must fall on both alike.
  const first = i % 2 === 0;
  const a0 = first ? timedRun(true) : undefined;
  const b = timedRun(false);
  const a = a0 ?? timedRun(true);
  withRecord.push(a);
  without.push(b);
  ratios.push(a.cpu / b.cpu);
  wallRatios.push(a.ms / b.ms);
  console.error(`pair ${i + 1}: with record ${a.cpu} ms CPU (${a.ms.toFixed(0)} ms wall), --no-record ${b.cpu} ms CPU (${b.ms.toFixed(0)} ms wall), CPU ratio ${(a.cpu / b.cpu).toFixed(3)}`);
}
const ratio = median(ratios);
console.error(`record overhead: median CPU ratio ${ratio.toFixed(3)} (target ≤ 1.02)`);

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
| 1,000 trivial jobs, \`-j 2\`: CPU with the run record ÷ \`--no-record\` (median of ${runs} pairs; whole command, helper and jobs included) | ${ratio.toFixed(3)}× (${(median(withRecord.map((r) => r.cpu)) / 1000).toFixed(2)} s against ${(median(without.map((r) => r.cpu)) / 1000).toFixed(2)} s; wall ${median(wallRatios).toFixed(3)}×) | ≤ 1.02×: ${ok(ratio, 1.02)} |
| \`oxo-flow report\` of a real 10,000-job run (median of ${runs}) | ${(reportMs / 1000).toFixed(2)} s | ≤ 3 s: ${ok(reportMs, 3000)} |
| its HTML file | ${(size / 2 ** 20).toFixed(2)} MiB | ≤ 5 MB: ${ok(size, 5e6)} |
| \`oxo-flow report --format json\` of the same run | ${(jsonMs / 1000).toFixed(2)} s, ${(jsonSize / 2 ** 20).toFixed(2)} MiB | – |

The 10,000-job run itself took ${(runMs / 1000).toFixed(1)} s. CPU ratio of each pair: ${ratios.map((r) => r.toFixed(3)).join(', ')}.`,
  );
}
