#!/usr/bin/env node
// Benchmark: what the project lock, the one job lifecycle with executors as plug-ins, and the
// crash-safe state cost per job, against the build before that work. N trivial jobs (each `touch`es
// one file) with -j 2, N = 1,000 and 10,000, the two builds interleaved (A B A B …), a fresh folder
// each run. Per job = (wall time of the run − the same command with nothing to do) ÷ N.
// Usage: npm run build && node bench/run-seam.mjs --base DIR [--runs N] [--no-write]
//   DIR: a built checkout of the commit before the change (git archive COMMIT | tar -x -C DIR; npm ci; npm run build)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, machineDescription, median, requireBuild, runsFromArgs, timeOnce, writeDocSection } from './lib.mjs';

const args = process.argv.slice(2);
const baseDir = args.includes('--base') ? args[args.indexOf('--base') + 1] : undefined;
if (baseDir === undefined) {
  console.error('usage: node bench/run-seam.mjs --base DIR (a built checkout of the commit to compare with)');
  process.exit(2);
}
const { runs, write } = runsFromArgs(3);
// --env K=V (repeatable): set for both builds' runs (e.g. OXO_FLOW_FSYNC=0 to leave fsync out).
const extraEnv = Object.fromEntries(args.flatMap((a, i) => (a === '--env' ? [args[i + 1].split('=')] : [])).map(([k, ...v]) => [k, v.join('=')]));
const envNote = Object.keys(extraEnv).length > 0 ? `, with ${Object.entries(extraEnv).map(([k, v]) => `${k}=${v}`).join(' ')}` : '';
const sizes = args.includes('--sizes') ? args[args.indexOf('--sizes') + 1].split(',').map(Number) : [1000, 10000];
requireBuild();

function project(n) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-seam-'));
  const samples = Array.from({ length: n }, (_, i) => `"s${String(i).padStart(5, '0')}"`).join(', ');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "trivial"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples}]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "touch {output}"\n`);
  return dir;
}

const builds = [
  { label: 'before (base build)', cli: path.resolve(baseDir, 'bin', 'oxo-flow.js') },
  { label: 'after (lock, seam, crash-safe state)', cli: CLI },
];
const rows = [];
for (const n of sizes) {
  const per = builds.map(() => []);
  for (let i = 0; i < runs; i++) {
    builds.forEach((b, k) => {
      const dir = project(n);
      const env = { ...process.env, ...extraEnv };
      const full = timeOnce(process.execPath, [b.cli, 'run', '-q', '-j', '2'], { cwd: dir, env });
      const idle = timeOnce(process.execPath, [b.cli, 'run', '-q', '-j', '2'], { cwd: dir, env });
      rmSync(dir, { recursive: true, force: true });
      per[k].push((full - idle) / n);
      console.error(`${n} jobs, ${b.label}: ${full.toFixed(0)} ms, nothing to do ${idle.toFixed(0)} ms, ${((full - idle) / n).toFixed(3)} ms per job`);
    });
  }
  const [before, after] = per.map(median);
  const ratios = per[1].map((a, i) => a / per[0][i]);
  rows.push({ n, before, after, ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) });
}
const table = [
  '| jobs | per job, before | per job, after | after ÷ before (median of pairs, min–max) |',
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.n.toLocaleString('en')} | ${r.before.toFixed(2)} ms | ${r.after.toFixed(2)} ms | ${r.ratio.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)}) |`),
];
console.error(table.join('\n'));
if (write) {
  writeDocSection(
    `## run: the project lock and the executor seam${envNote}`,
    `\`node bench/run-seam.mjs --base DIR\`: N jobs that each \`touch\` one file, \`-j 2\`, the build before the project lock, the one job lifecycle and the crash-safe state (DIR) against this one, interleaved, a fresh folder each run, median of ${runs} pairs. Per job = (wall time − the same command with nothing to do) ÷ N. ${machineDescription()}; load average during the run: ${os.loadavg()[0].toFixed(1)} (other work shares the cores).\n\n${table.join('\n')}`,
  );
}
