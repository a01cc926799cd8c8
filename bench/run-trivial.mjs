#!/usr/bin/env node
// Benchmark: the runner's own cost per job. 1,000 trivial jobs (each `touch`es one file) with -j 2,
// against `snakemake --cores 2` on the same DAG, both in fresh temp folders. Per job:
//   per-job time     = (wall time of the 1,000-job run − the same command with nothing to do) ÷ 1,000
//   per-job overhead = per-job time − the jobs' own cost, measured by `xargs -P 2` starting the same
//                      1,000 `sh -c 'touch …'` commands with no workflow engine at all,
// so loading, planning and start-up are left out, and so is the process start that every job pays
// whoever runs it. Target: oxo-flow's per-job overhead ≤ 1/5 of Snakemake's.
// Usage: npm run build && node bench/run-trivial.mjs [--runs N] [--no-write]   (needs snakemake on PATH)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, machineDescription, median, requireBuild, runsFromArgs, timeOnce, writeDocSection } from './lib.mjs';

const JOBS = 1000;
const { runs, write } = runsFromArgs(3);
requireBuild();
const samples = Array.from({ length: JOBS }, (_, i) => `s${String(i).padStart(4, '0')}`);

function oxoProject() {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-run-'));
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]\nname = "trivial"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples.map((s) => `"${s}"`).join(', ')}]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "touch {output}"\n`,
  );
  return dir;
}

function snakeProject() {
  const dir = mkdtempSync(path.join(tmpdir(), 'smk-bench-run-'));
  writeFileSync(
    path.join(dir, 'Snakefile'),
    `SAMPLES = [${samples.map((s) => `"${s}"`).join(', ')}]\n\nrule all:\n    input: expand("out/{s}.txt", s=SAMPLES)\n\nrule t:\n    output: "out/{s}.txt"\n    shell: "touch {output}"\n`,
  );
  return dir;
}

const tools = [
  { label: 'oxo-flow run -j 2', project: oxoProject, cmd: process.execPath, argv: [CLI, 'run', '-q', '-j', '2'] },
  { label: 'snakemake --cores 2', project: snakeProject, cmd: 'snakemake', argv: ['--cores', '2', '--quiet'] },
];
if (spawnSync('snakemake', ['--version']).status !== 0) {
  console.error('snakemake is not on PATH (apt-get install snakemake); measuring oxo-flow alone');
  tools.pop();
}
const version = spawnSync('snakemake', ['--version'], { encoding: 'utf8' }).stdout?.trim();

/** The jobs alone: xargs starts the same 1,000 shells, two at a time. */
function bare() {
  const dir = mkdtempSync(path.join(tmpdir(), 'bare-bench-run-'));
  spawnSync('mkdir', ['out'], { cwd: dir });
  const start = process.hrtime.bigint();
  const r = spawnSync('xargs', ['-P', '2', '-I{}', 'sh', '-c', 'touch out/{}.txt'], { cwd: dir, input: samples.join('\n') });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error('xargs failed');
  rmSync(dir, { recursive: true, force: true });
  return ms;
}
const bareMs = median(Array.from({ length: runs }, bare));
const bareJob = bareMs / JOBS;
console.error(`xargs -P 2 (the jobs alone): ${bareMs.toFixed(0)} ms, ${bareJob.toFixed(2)} ms per job`);

const rows = [];
for (const t of tools) {
  const full = [];
  const noop = [];
  for (let i = 0; i < runs; i++) {
    const dir = t.project();
    full.push(timeOnce(t.cmd, t.argv, { cwd: dir }));
    noop.push(timeOnce(t.cmd, t.argv, { cwd: dir }));
    rmSync(dir, { recursive: true, force: true });
  }
  const wall = median(full);
  const idle = median(noop);
  rows.push({ label: t.label, wall, idle, perJob: (wall - idle) / JOBS, overhead: Math.max(0, (wall - idle) / JOBS - bareJob) });
  console.error(`${t.label}: ${wall.toFixed(0)} ms for ${JOBS} jobs, ${idle.toFixed(0)} ms with nothing to do, ${((wall - idle) / JOBS).toFixed(2)} ms per job`);
}

const table = [
  '| | wall time, 1,000 jobs | nothing to do | per-job time | per-job overhead |',
  '|---|---|---|---|---|',
  `| xargs -P 2 (the jobs alone) | ${(bareMs / 1000).toFixed(2)} s | – | ${bareJob.toFixed(2)} ms | – |`,
  ...rows.map((r) => `| ${r.label} | ${(r.wall / 1000).toFixed(2)} s | ${(r.idle / 1000).toFixed(2)} s | ${r.perJob.toFixed(2)} ms | ${r.overhead.toFixed(2)} ms |`),
];
let verdictLine = '';
if (rows.length === 2) {
  const ratio = rows[0].overhead / rows[1].overhead;
  const timeRatio = rows[0].perJob / rows[1].perJob;
  verdictLine = `oxo-flow's per-job overhead is ${ratio.toFixed(2)} of Snakemake's (target ≤ 0.20: ${ratio <= 0.2 ? 'met' : '**not met**'}); its per-job time, the jobs' own cost included, is ${timeRatio.toFixed(2)} of Snakemake's.`;
  console.error(verdictLine);
}
if (write) {
  writeDocSection(
    '## run: 1,000 trivial jobs against Snakemake',
    `\`node bench/run-trivial.mjs\`: 1,000 jobs that each \`touch\` one file, \`-j 2\` against \`snakemake --cores 2\`${version ? ` (${version})` : ''} on the same DAG, fresh folder each run, median of ${runs}. Per-job time = (wall time − the same command with nothing to do) ÷ 1,000; per-job overhead = per-job time − the jobs' own cost (\`xargs -P 2\` starting the same 1,000 shells). ${machineDescription()}; machine load during the run: ${os.loadavg()[0].toFixed(1)} (1-minute load average; other work shares the cores).\n\n${table.join('\n')}\n\n${verdictLine}`,
  );
}
