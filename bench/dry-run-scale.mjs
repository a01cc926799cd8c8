#!/usr/bin/env node
// Benchmark (issue 25, target 3): `oxo-flow dry-run` at 12,000 and 120,000 jobs, judged by CPU time
// (user + system, from /usr/bin/time, which host load inflates far less than wall time) and peak RSS:
// - 12,000 jobs against `node -e 0`: budget ≤ 3× its CPU;
// - 120,000 jobs against bench/min-planner.mjs, the least a Node program does to plan the same DAG
//   (same TOML read with smol-toml, same jobs, same edges and levels, same folders looked at, same
//   count printed): budget ≤ 2× its CPU and ≤ 1.3× its peak RSS;
// - `--json dry-run` at 120,000 jobs against the plain dry-run: budget ≤ 1.5× its CPU, ≤ 250 MiB.
// Every command's output goes to a pipe that is read and thrown away, as a user's `| jq` would read it.
// All runs are interleaved (one of each command per round), so load hits them alike.
// OXO_BENCH_BEFORE=/path/to/an/older/bin/oxo-flow.js adds that build's runs to the same rounds, and
// OXO_BENCH_BEFORE_LABEL says in the table what that build is (a commit, say).
// Usage: npm run build && node bench/dry-run-scale.mjs [--runs N] [--no-write]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, machineDescription, median, requireBuild, ROOT, runsFromArgs, verdict, writeDocSection } from './lib.mjs';

const RULES = 12;
const FLOOR = path.join(ROOT, 'bench', 'min-planner.mjs');
const BEFORE = process.env.OXO_BENCH_BEFORE;
const { runs, write } = runsFromArgs(9);
requireBuild();
if (!existsSync('/usr/bin/time')) {
  console.error('bench/dry-run-scale.mjs needs /usr/bin/time (Debian: apt-get install time)');
  process.exit(2);
}

/** 12 rules chained over N samples from one [[sample_groups]], every raw input present. */
function makeProject(samples) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `oxo-scale-${samples}-`));
  const names = Array.from({ length: samples }, (_, i) => `S${String(i).padStart(5, '0')}`);
  const rules = [];
  for (let r = 0; r < RULES; r++) {
    const input = r === 0 ? 'raw/{sample}.fq' : `step${r - 1}/{sample}.txt`;
    rules.push(`[[rules]]\nname = "step${r}"\ninput = ["${input}"]\noutput = ["step${r}/{sample}.txt"]\nthreads = 2\nshell = "tool${r} --threads {threads} {input} > {output}"\n`);
  }
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "scale-${samples}"\n\n[[sample_groups]]\nname = "all"\nsamples = [${names.map((s) => `"${s}"`).join(', ')}]\n\n${rules.join('\n')}`);
  mkdirSync(path.join(dir, 'raw'));
  for (const s of names) writeFileSync(path.join(dir, 'raw', `${s}.fq`), '');
  return dir;
}

/**
 * CPU seconds (user + system) and peak RSS (MiB) of one run. Its output (stdout and stderr) comes to
 * this process through a pipe and is dropped: the reader's own work is not in the figures. CPU time is
 * bash's `times` for its child, in milliseconds (/usr/bin/time truncates to 10 ms steps, a fifth of
 * `node -e 0`); peak RSS is /usr/bin/time's maximum, that of the largest process (node), not a sum.
 */
function measureOnce(argv, cwd) {
  const script = '"$@" 2>&1; status=$?; times >&2; exit $status';
  const r = spawnSync('/usr/bin/time', ['-f', 'OXO-PEAK %M', 'bash', '-c', script, 'bash', ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1024 * 1024 * 1024 });
  const stderr = r.stderr?.toString('utf8') ?? '';
  // `times` prints the shell's own user and system time, then its children's.
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\nOXO-PEAK (\d+)\s*$/.exec(stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} failed: ${r.error?.message ?? stderr.slice(-400)}`);
  const [, um, us, sm, ss, kb] = m;
  return { cpu: Number(um) * 60 + Number(us) + Number(sm) * 60 + Number(ss), mib: Number(kb) / 1024 };
}

/** Each command `runs` times, one of each per round, after one uncounted round that warms the file cache. */
function interleaved(commands, cwd) {
  const all = commands.map(() => []);
  commands.forEach((c) => measureOnce(c.argv, cwd));
  for (let i = 0; i < runs; i++) commands.forEach((c, j) => all[j].push(measureOnce(c.argv, cwd)));
  return commands.map((c, j) => ({ label: c.label, cpu: median(all[j].map((x) => x.cpu)), mib: median(all[j].map((x) => x.mib)) }));
}

const node = process.execPath;
const builds = [{ name: 'this build', cli: CLI }, ...(BEFORE ? [{ name: 'before', cli: BEFORE }] : [])];
const results = {};

const small = makeProject(1000);
results.small = interleaved([{ label: 'node -e 0', argv: [node, '-e', '0'] }, ...builds.map((b) => ({ label: b.name, argv: [node, b.cli, 'dry-run'] }))], small);
rmSync(small, { recursive: true, force: true });
console.error('12,000 jobs:', results.small.map((r) => `${r.label} ${r.cpu.toFixed(3)} s`).join(', '));

const large = makeProject(10000);
results.large = interleaved(
  [
    { label: 'minimal planner', argv: [node, FLOOR] },
    ...builds.flatMap((b) => [
      { label: `${b.name}: dry-run`, argv: [node, b.cli, 'dry-run'] },
      { label: `${b.name}: --json dry-run`, argv: [node, b.cli, '--json', 'dry-run'] },
    ]),
  ],
  large,
);
rmSync(large, { recursive: true, force: true });
console.error('120,000 jobs:', results.large.map((r) => `${r.label} ${r.cpu.toFixed(3)} s ${r.mib.toFixed(0)} MiB`).join(', '));

const [base, ...smallRows] = results.small;
const [floor, ...largeRows] = results.large;
const byBuild = (name) => ({ plain: largeRows.find((r) => r.label === `${name}: dry-run`), json: largeRows.find((r) => r.label === `${name}: --json dry-run`), small: smallRows.find((r) => r.label === name) });
const row = (name) => {
  const b = byBuild(name);
  return [
    `| ${name} | ${(b.small.cpu * 1000).toFixed(0)} ms: ${verdict(b.small.cpu / base.cpu, 3)}`,
    `${b.plain.cpu.toFixed(2)} s: ${verdict(b.plain.cpu / floor.cpu, 2)}`,
    `${b.plain.mib.toFixed(0)} MiB: ${verdict(b.plain.mib / floor.mib, 1.3)}`,
    `${b.json.cpu.toFixed(2)} s: ${verdict(b.json.cpu / b.plain.cpu, 1.5)}`,
    `${b.json.mib.toFixed(0)} MiB (budget ≤ 250) |`,
  ].join(' | ');
};
const load = os.loadavg().map((l) => l.toFixed(1)).join(', ');
const body = [
  `Generated by \`node bench/dry-run-scale.mjs\` on ${new Date().toISOString().slice(0, 10)} (${machineDescription()}; load average at the end ${load});`,
  `medians of ${runs} interleaved runs: CPU time (user + system, bash's \`times\`) and peak RSS (\`/usr/bin/time\`), every output read`,
  'through a pipe. The workflows chain 12 rules over 1,000 and 10,000 samples, every raw input present and no output',
  'yet, so every job is planned to run. Yardsticks: `node -e 0`',
  `(${(base.cpu * 1000).toFixed(0)} ms) for 12,000 jobs; for 120,000, bench/min-planner.mjs (${floor.cpu.toFixed(2)} s, ${floor.mib.toFixed(0)} MiB): it reads`,
  'the same file with smol-toml, expands the same jobs, builds the same edges and levels, lists the same folders and',
  'prints the same count, with nothing else (no checks, no run state, no commands, no layout).',
  '',
  '| build | 12,000 jobs vs `node -e 0` (≤ 3×) | 120,000 jobs vs the minimal planner, CPU (≤ 2×) | peak RSS (≤ 1.3×) | `--json` vs plain dry-run, CPU (≤ 1.5×) | `--json` peak RSS |',
  '|---|---|---|---|---|---|',
  ...builds.map((b) => row(b.name)),
  ...(BEFORE ? ['', `\`before\` is ${process.env.OXO_BENCH_BEFORE_LABEL ?? 'an older build'}, measured in the same rounds.`] : []),
].join('\n');
console.log(body);
if (write) writeDocSection('## dry-run at scale: 12,000 and 120,000 jobs', body);
