#!/usr/bin/env node
// Benchmark: the run state (issue 25). Whole-process CPU (user + system, from /usr/bin/time) and wall
// time, commands interleaved A B A B … so drift hits both alike, medians quoted.
//   1. start-up with history: a no-op `run` and a `dry-run` of a 10-job workflow in a folder holding
//      10,000 old job records, against the same in a fresh folder. Target ≤ 1.1×.
//   2. per-job state cost: `run -j 2` of 1,000 trivial jobs (each `touch`es one file), fsync on (the
//      default) against OXO_FLOW_FSYNC=0, and the files left in .oxo-flow/.
//   3. the run record's overhead: the same 1,000 jobs with the record (the default) against --no-record.
// `--before PATH/bin/oxo-flow.js` runs every measurement with an older build too (the same interleaved
// runs), so a change is measured against what it replaces.
// Usage: npm run build && node bench/run-state.mjs [--runs N] [--before OTHER_CLI] [--only 1,2,3] [--no-write] [--prepare]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, machineDescription, median, requireBuild, runsFromArgs, writeDocSection } from './lib.mjs';

const { runs, write } = runsFromArgs(11);
const args = process.argv.slice(2);
const beforeAt = args.indexOf('--before');
const BEFORE = beforeAt >= 0 ? path.resolve(args[beforeAt + 1]) : undefined;
const onlyAt = args.indexOf('--only');
const only = new Set(onlyAt >= 0 ? args[onlyAt + 1].split(',') : ['1', '2', '3']);
requireBuild();
const builds = [{ name: 'this build', cli: CLI }, ...(BEFORE ? [{ name: 'before', cli: BEFORE }] : [])];

const samples = (n, prefix) => Array.from({ length: n }, (_, i) => `"${prefix}${String(i).padStart(5, '0')}"`).join(', ');
function workflow(dir, jobs) {
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "trivial"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples(jobs, 's')}]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "touch {output}"\n`);
}

/** A finished 10-job project; with `old`, 10,000 records of jobs it no longer has, in the build's own format. */
function historyProject(cli, old) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-state-'));
  workflow(dir, 10);
  must(cli, ['run', '-q', '--no-record'], dir);
  if (old > 0) {
    // Per-job files as versions before the journal wrote them; a build with `clean --state` folds them
    // into its index (what its own runs would have left), an older one reads them as they are.
    const jobs = path.join(dir, '.oxo-flow', 'state', 'jobs');
    mkdirSync(jobs, { recursive: true });
    for (let i = 0; i < old; i++) {
      const id = `old[sample=o${String(i).padStart(5, '0')}]`;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString();
      const r = { version: 1, id, rule: 'old', hash: createHash('sha256').update(id).digest('hex').slice(0, 32), status: 'done', startedAt: at, preexisting: [], executor: 'local', log: `.oxo-flow/logs/${id}.log`, runId: 'mabc123-0123456789ab', endedAt: at };
      writeFileSync(path.join(jobs, `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`), JSON.stringify(r));
    }
    spawnSync(process.execPath, [cli, 'clean', '--state'], { cwd: dir, stdio: 'ignore' });
  }
  return dir;
}

function must(cli, argv, cwd, env = {}) {
  const r = spawnSync(process.execPath, [cli, ...argv], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`oxo-flow ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 400)}`);
}

/** CPU (user + system) and wall seconds of one whole process, as the kernel accounts them. */
function timed(cli, argv, cwd, env = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, cli, ...argv], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`oxo-flow ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(-400)}`);
  const [u, s] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpu: u + s, wall };
}

/** Interleaved medians of each case, and the median of the pairwise ratios of case 0 over case 1. */
function interleave(cases, n) {
  for (const c of cases) c.run(); // warm-up
  const got = cases.map(() => []);
  for (let i = 0; i < n; i++) cases.forEach((c, j) => got[j].push(c.run()));
  const pairs = got[0].map((a, i) => a.cpu / got[1][i].cpu);
  return { cases: got.map((g) => ({ cpu: median(g.map((x) => x.cpu)), wall: median(g.map((x) => x.wall)) })), ratio: median(pairs) };
}

// --prepare: only make the four projects of measurement 1 and print where (for timing by hand).
if (args.includes('--prepare')) {
  console.log(JSON.stringify(builds.map((b) => ({ build: b.name, fresh: historyProject(b.cli, 0), old: historyProject(b.cli, 10_000) }))));
  process.exit(0);
}

const countFiles = (dir) => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const lines = [];
const say = (...ls) => {
  for (const l of ls) {
    console.log(l);
    lines.push(l);
  }
};
say(`Machine: ${machineDescription()}; load at start ${load()}; ${runs} interleaved runs each, medians.`);

if (only.has('1')) {
  say('', '| build | command | fresh CPU s | with 10,000 old records CPU s | ratio (pairwise median) |', '|---|---|---|---|---|');
  for (const b of builds) {
    const fresh = historyProject(b.cli, 0);
    const old = historyProject(b.cli, 10_000);
    for (const cmd of [['run', '-q'], ['dry-run', '-q']]) {
      const r = interleave([{ run: () => timed(b.cli, cmd, old) }, { run: () => timed(b.cli, cmd, fresh) }], runs);
      say(`| ${b.name} | \`${cmd[0]}\` (nothing to do) | ${r.cases[1].cpu.toFixed(3)} | ${r.cases[0].cpu.toFixed(3)} | ${r.ratio.toFixed(2)}× |`);
    }
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (only.has('2') || only.has('3')) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-state-'));
  workflow(dir, 1000);
  const runAll = (cli, extra, env) => () => {
    rmSync(path.join(dir, '.oxo-flow'), { recursive: true, force: true });
    rmSync(path.join(dir, 'out'), { recursive: true, force: true });
    return timed(cli, ['run', '-q', '-j', '2', ...extra], dir, env);
  };
  if (only.has('2')) {
    say('', '| build | 1,000 trivial jobs, -j 2, --no-record | CPU s | wall s | files in .oxo-flow/ |', '|---|---|---|---|---|');
    for (const b of builds) {
      const r = interleave([{ run: runAll(b.cli, ['--no-record'], {}) }, { run: runAll(b.cli, ['--no-record'], { OXO_FLOW_FSYNC: '0' }) }], runs);
      runAll(b.cli, ['--no-record'], {})();
      const files = countFiles(path.join(dir, '.oxo-flow'));
      say(`| ${b.name} | fsync on (default) | ${r.cases[0].cpu.toFixed(2)} | ${r.cases[0].wall.toFixed(2)} | ${files} |`);
      say(`| ${b.name} | OXO_FLOW_FSYNC=0 | ${r.cases[1].cpu.toFixed(2)} | ${r.cases[1].wall.toFixed(2)} | |`);
    }
  }
  if (only.has('3')) {
    say('', '| build | 1,000 trivial jobs, -j 2 | record CPU s | --no-record CPU s | ratio (pairwise median) |', '|---|---|---|---|---|');
    for (const b of builds) {
      const r = interleave([{ run: runAll(b.cli, [], {}) }, { run: runAll(b.cli, ['--no-record'], {}) }], runs);
      say(`| ${b.name} | record vs --no-record | ${r.cases[0].cpu.toFixed(2)} | ${r.cases[1].cpu.toFixed(2)} | ${r.ratio.toFixed(3)}× |`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
say('', `Load at the end: ${load()}.`);
if (write) writeDocSection('## run state: journal, index and start-up with history (bench/run-state.mjs)', lines.join('\n'));
