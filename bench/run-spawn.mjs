#!/usr/bin/env node
// Benchmark (issue 25, targets 1 and 5): what the runner costs per job now that jobs start through
// the light spawner, against the same build starting them with Node's spawn (OXO_FLOW_SPAWNER=fork,
// the code path every earlier build used), `make -j2` of the same commands, and Snakemake (its greedy
// and its default ILP scheduler). All commands of a round run in turn (A B C … A B C …), each in a
// fresh folder, so drift in the machine's speed hits them alike; medians are quoted.
//
// Workloads:
//   trivial-N   N jobs that each `touch` one file (N = 1,000 and 10,000)
//   rnaseq      the RNA-seq-shaped DAG: 200 samples in 2 groups × 8 per-sample rules, then per group
//               a count matrix, a MultiQC-like fan-in and a report (1,606 jobs)
// Figures:
//   wall, CPU         the whole command (its children included: for oxo-flow the helper and the jobs)
//   runner CPU / job  the runner's own user + system time (read at its exit through bench/self-cpu.cjs),
//                     ÷ jobs; "beyond a no-op" subtracts the same command with nothing to do
//   faults / job      the runner's own minor page faults ÷ jobs
//   overhead / job    (wall − wall with nothing to do) ÷ jobs − the jobs' own cost (`xargs -P 2`
//                     starting the same shells), as bench/run-trivial.mjs computes it
//   (`xargs -P 2 -n 1 touch`, the trivial workloads only: the same jobs with no shell at all, as make execs them)
// Usage: npm run build && node bench/run-spawn.mjs [--runs N] [--workloads trivial-1000,trivial-10000,rnaseq]
//          [--before OTHER/bin/oxo-flow.js] [--no-snakemake] [--no-ilp] [--no-write]     (snakemake and make on PATH)
// --before: "before" is that build (e.g. `git archive` of an earlier commit, built), run in the same
// rounds; without it, "before" is this build with OXO_FLOW_SPAWNER=fork.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, ROOT, machineDescription, median, requireBuild, runsFromArgs, writeDocSection } from './lib.mjs';

const args = process.argv.slice(2);
const { runs, write } = runsFromArgs(3);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const workloads = opt('--workloads', 'trivial-1000,trivial-10000,rnaseq').split(',');
const withSnakemake = !args.includes('--no-snakemake') && spawnSync('snakemake', ['--version']).status === 0;
const withIlp = withSnakemake && !args.includes('--no-ilp');
const beforeCli = opt('--before', undefined);
const loadAtStart = os.loadavg()[0];
const smkVersion = withSnakemake ? spawnSync('snakemake', ['--version'], { encoding: 'utf8' }).stdout.trim() : undefined;
requireBuild();
const SELF = path.join(ROOT, 'bench', 'self-cpu.cjs');

// ---- the workloads, written for each tool ----

function trivial(n) {
  const samples = Array.from({ length: n }, (_, i) => `s${String(i).padStart(5, '0')}`);
  const outs = samples.map((s) => `out/${s}.txt`);
  return {
    jobs: n,
    label: `${n.toLocaleString('en')} trivial jobs`,
    oxo: `[workflow]\nname = "trivial"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples.map((s) => `"${s}"`).join(', ')}]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "touch {output}"\n`,
    snakefile: `SAMPLES = [${samples.map((s) => `"${s}"`).join(', ')}]\n\nrule all:\n    input: expand("out/{s}.txt", s=SAMPLES)\n\nrule t:\n    output: "out/{s}.txt"\n    shell: "touch {output}"\n`,
    makefile: `all: ${outs.join(' ')}\n\nout/%.txt:\n\ttouch $@\n`,
    bare: outs.map((o) => `touch ${o}`),
    dirs: ['out'],
  };
}

const RNA_RULES = [
  ['fastp', null],
  ['align', 'fastp'],
  ['sort', 'align'],
  ['index', 'sort'],
  ['count', 'sort'],
  ['qc', 'fastp'],
  ['bigwig', 'index'],
  ['stats', 'index'],
];

function rnaseq() {
  const groups = { g1: Array.from({ length: 100 }, (_, i) => `a${String(i).padStart(3, '0')}`), g2: Array.from({ length: 100 }, (_, i) => `b${String(i).padStart(3, '0')}`) };
  const all = [...groups.g1, ...groups.g2];
  let oxo = '[workflow]\nname = "rnaseq-shape"\n\n';
  for (const [g, s] of Object.entries(groups)) oxo += `[[sample_groups]]\nname = "${g}"\nsamples = [${s.map((x) => `"${x}"`).join(', ')}]\n\n`;
  for (const [r, from] of RNA_RULES) oxo += `[[rules]]\nname = "${r}"\ninput = [${from ? `"${from}/{sample}.txt"` : ''}]\noutput = ["${r}/{sample}.txt"]\nshell = "touch {output}"\n\n`;
  const fanIn = (g, dirs) => dirs.map((d) => `{ pattern = "${d}/{sample}.txt", variables = { sample = "config.samples_${g}" } }`).join(', ');
  let smk = `GROUPS = {${Object.entries(groups).map(([g, s]) => `"${g}": [${s.map((x) => `"${x}"`).join(', ')}]`).join(', ')}}\nSAMPLES = GROUPS["g1"] + GROUPS["g2"]\n\nrule all:\n    input: expand("groups/{g}/report.txt", g=list(GROUPS))\n\n`;
  for (const [r, from] of RNA_RULES) smk += `rule ${r}:\n${from ? `    input: "${from}/{s}.txt"\n` : ''}    output: "${r}/{s}.txt"\n    shell: "touch {output}"\n\n`;
  let make = 'all: groups/g1/report.txt groups/g2/report.txt\n\n';
  for (const [r, from] of RNA_RULES) make += `${r}/%.txt:${from ? ` ${from}/%.txt` : ''}\n\ttouch $@\n\n`;
  const bare = [];
  for (const [r] of RNA_RULES) for (const s of all) bare.push(`touch ${r}/${s}.txt`);
  for (const [g, s] of Object.entries(groups)) {
    oxo += `[[rules]]\nname = "matrix_${g}"\ninput = []\nexpand_inputs = [${fanIn(g, ['count'])}]\noutput = ["groups/${g}/matrix.txt"]\nshell = "cat {input} > {output}"\n\n`;
    oxo += `[[rules]]\nname = "multiqc_${g}"\ninput = []\nexpand_inputs = [${fanIn(g, ['qc', 'stats', 'bigwig'])}]\noutput = ["groups/${g}/multiqc.txt"]\nshell = "cat {input} > {output}"\n\n`;
    oxo += `[[rules]]\nname = "report_${g}"\ninput = ["groups/${g}/matrix.txt", "groups/${g}/multiqc.txt"]\noutput = ["groups/${g}/report.txt"]\nshell = "cat {input} > {output}"\n\n`;
    smk += `rule matrix_${g}:\n    input: expand("count/{s}.txt", s=GROUPS["${g}"])\n    output: "groups/${g}/matrix.txt"\n    shell: "cat {input} > {output}"\n\n`;
    smk += `rule multiqc_${g}:\n    input: expand("{d}/{s}.txt", d=["qc", "stats", "bigwig"], s=GROUPS["${g}"])\n    output: "groups/${g}/multiqc.txt"\n    shell: "cat {input} > {output}"\n\n`;
    smk += `rule report_${g}:\n    input: "groups/${g}/matrix.txt", "groups/${g}/multiqc.txt"\n    output: "groups/${g}/report.txt"\n    shell: "cat {input} > {output}"\n\n`;
    const counts = s.map((x) => `count/${x}.txt`).join(' ');
    const multi = ['qc', 'stats', 'bigwig'].flatMap((d) => s.map((x) => `${d}/${x}.txt`)).join(' ');
    make += `groups/${g}/matrix.txt: ${counts}\n\tcat $^ > $@\n\n`;
    make += `groups/${g}/multiqc.txt: ${multi}\n\tcat $^ > $@\n\n`;
    make += `groups/${g}/report.txt: groups/${g}/matrix.txt groups/${g}/multiqc.txt\n\tcat $^ > $@\n\n`;
    for (const f of ['matrix', 'multiqc']) bare.push(`cat ${f === 'matrix' ? counts : multi} > groups/${g}/${f}.txt`);
    bare.push(`cat groups/${g}/matrix.txt groups/${g}/multiqc.txt > groups/${g}/report.txt`);
  }
  return { jobs: 1606, label: 'the RNA-seq-shaped DAG (1,606 jobs)', oxo, snakefile: smk, makefile: make, bare, dirs: [...RNA_RULES.map(([r]) => r), 'groups/g1', 'groups/g2'] };
}

// ---- timing ----

function childTicks() {
  const t = readFileSync('/proc/self/stat', 'latin1');
  const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
  return Number(f[13]) + Number(f[14]);
}

/** One run: wall ms, CPU ms of the whole command (children included), and the runner's own figures. */
function timed(cmd, argv, cwd, env = {}) {
  const selfFile = path.join(cwd, '.bench-self');
  rmSync(selfFile, { force: true });
  const before = childTicks();
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd, env: { ...process.env, ...env, OXO_BENCH_SELF: selfFile }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20 });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = (childTicks() - before) * 10;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(-600)}`);
  let self;
  try {
    const [u, s, minflt] = readFileSync(selfFile, 'utf8').trim().split(' ').map(Number);
    self = { cpu: (u + s) * 10, faults: minflt };
  } catch {
    self = undefined;
  }
  return { wall, cpu, self };
}

function project(w, t) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-spawn-'));
  writeFileSync(path.join(dir, t.file), t.text);
  // make makes no folders: they are there before it starts (oxo-flow and Snakemake make their own).
  if (t.key === 'make') for (const d of w.dirs) mkdirSync(path.join(dir, d), { recursive: true });
  return dir;
}

function tools(w) {
  const oxo = (env, cli = CLI) => ({ file: 'main.oxoflow', text: w.oxo, cmd: process.execPath, argv: ['-r', SELF, cli, 'run', '-q', '-j', '2'], env, noop: true });
  const list = [
    { key: 'light', label: beforeCli ? 'oxo-flow run -j 2 (after)' : 'oxo-flow run -j 2 (light spawner)', ...oxo({}) },
    beforeCli ? { key: 'fork', label: 'oxo-flow run -j 2 (before)', ...oxo({}, path.resolve(beforeCli)) } : { key: 'fork', label: 'oxo-flow run -j 2 (Node spawn, before)', ...oxo({ OXO_FLOW_SPAWNER: 'fork' }) },
    { key: 'make', label: 'make -j2', file: 'Makefile', text: w.makefile, cmd: 'make', argv: ['-s', '-j2'], noop: false },
  ];
  if (withSnakemake && w.jobs <= 2000) {
    list.push({ key: 'greedy', label: 'snakemake --cores 2 --scheduler greedy', file: 'Snakefile', text: w.snakefile, cmd: 'snakemake', argv: ['--cores', '2', '--quiet', '--scheduler', 'greedy'], noop: true });
    if (withIlp && w.jobs <= 1000) list.push({ key: 'ilp', label: 'snakemake --cores 2 (default ILP scheduler)', file: 'Snakefile', text: w.snakefile, cmd: 'snakemake', argv: ['--cores', '2', '--quiet'], noop: true });
  }
  return list;
}

/** The jobs alone: xargs starts the same shells, two at a time. */
function bare(w) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-bare-'));
  for (const d of w.dirs) mkdirSync(path.join(dir, d), { recursive: true });
  // In dependency order: the per-sample jobs, then the fan-ins, then the reports that read them.
  const reports = w.bare.filter((c) => c.endsWith('report.txt'));
  const fanIn = w.bare.filter((c) => c.startsWith('cat ') && !reports.includes(c));
  const flat = w.bare.filter((c) => !c.startsWith('cat '));
  const start = process.hrtime.bigint();
  const before = childTicks();
  for (const batch of [flat, fanIn, reports]) {
    if (batch.length === 0) continue;
    const r = spawnSync('xargs', ['-0', '-P', '2', '-n', '1', 'sh', '-c'], { cwd: dir, input: `${batch.join('\0')}\0` });
    if (r.status !== 0) throw new Error(`xargs failed: ${r.stderr}`);
  }
  const out = { wall: Number(process.hrtime.bigint() - start) / 1e6, cpu: (childTicks() - before) * 10 };
  rmSync(dir, { recursive: true, force: true });
  return out;
}

/**
 * The jobs alone without a shell: `xargs -P 2 -n 1 touch`, what make -j2 does for `touch` (it execs a
 * plain command itself). Only for a workload whose every job is `touch FILE` (undefined otherwise).
 */
function bareDirect(w) {
  if (!w.bare.every((c) => /^touch [^ ]+$/.test(c))) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-bench-bare-'));
  for (const d of w.dirs) mkdirSync(path.join(dir, d), { recursive: true });
  const start = process.hrtime.bigint();
  const before = childTicks();
  const r = spawnSync('xargs', ['-0', '-P', '2', '-n', '1', 'touch'], { cwd: dir, input: `${w.bare.map((c) => c.slice(6)).join('\0')}\0` });
  if (r.status !== 0) throw new Error(`xargs failed: ${r.stderr}`);
  const out = { wall: Number(process.hrtime.bigint() - start) / 1e6, cpu: (childTicks() - before) * 10 };
  rmSync(dir, { recursive: true, force: true });
  return out;
}

const sections = [];
const summary = [];
for (const name of workloads) {
  const w = name === 'rnaseq' ? rnaseq() : trivial(Number(name.replace('trivial-', '')));
  const list = tools(w);
  const m = Object.fromEntries(list.map((t) => [t.key, { full: [], noop: [] }]));
  const bareRuns = [];
  const directRuns = [];
  const rounds = w.jobs >= 10_000 ? Math.max(1, Math.min(runs, 2)) : runs;
  for (let i = 0; i < rounds; i++) {
    bareRuns.push(bare(w));
    const d = bareDirect(w);
    if (d !== undefined) directRuns.push(d);
    for (const t of list) {
      const dir = project(w, t);
      m[t.key].full.push(timed(t.cmd, t.argv, dir, t.env));
      if (t.noop) m[t.key].noop.push(timed(t.cmd, t.argv, dir, t.env));
      rmSync(dir, { recursive: true, force: true });
      console.error(`${w.label}, round ${i + 1}/${rounds}: ${t.label} ${(m[t.key].full.at(-1).wall / 1000).toFixed(2)} s`);
    }
  }
  const bareWall = median(bareRuns.map((b) => b.wall));
  const bareCpu = median(bareRuns.map((b) => b.cpu));
  const rows = list.map((t) => {
    const r = m[t.key];
    const wall = median(r.full.map((x) => x.wall));
    const cpu = median(r.full.map((x) => x.cpu));
    const idle = r.noop.length > 0 ? median(r.noop.map((x) => x.wall)) : 0;
    const selfs = r.full.map((x) => x.self).filter(Boolean);
    const idleSelf = r.noop.map((x) => x.self).filter(Boolean);
    const self = selfs.length > 0 ? median(selfs.map((s) => s.cpu)) : undefined;
    const faults = selfs.length > 0 ? median(selfs.map((s) => s.faults)) : undefined;
    const selfBeyond = self !== undefined && idleSelf.length > 0 ? self - median(idleSelf.map((s) => s.cpu)) : undefined;
    const overhead = t.noop ? Math.max(0, (wall - idle) / w.jobs - bareWall / w.jobs) : undefined;
    return { ...t, wall, cpu, idle, self, selfBeyond, faults, overhead };
  });
  const by = Object.fromEntries(rows.map((r) => [r.key, r]));
  const f2 = (x, d = 2) => (x === undefined ? '–' : x.toFixed(d));
  const table = [
    `| ${w.label} | wall | CPU (all processes) | nothing to do | runner CPU / job (beyond a no-op) | runner faults / job | overhead / job |`,
    '|---|---|---|---|---|---|---|',
    `| xargs -P 2 (the jobs alone) | ${f2(bareWall / 1000)} s | ${f2(bareCpu / 1000)} s | – | – | – | – |`,
    ...(directRuns.length > 0 ? [`| xargs -P 2 -n 1 touch (the jobs alone, no shell) | ${f2(median(directRuns.map((b) => b.wall)) / 1000)} s | ${f2(median(directRuns.map((b) => b.cpu)) / 1000)} s | – | – | – | – |`] : []),
    ...rows.map((r) => `| ${r.label} | ${f2(r.wall / 1000)} s | ${f2(r.cpu / 1000)} s | ${r.noop ? `${f2(r.idle / 1000)} s` : '–'} | ${r.self !== undefined ? `${f2(r.self / w.jobs)} ms (${f2(r.selfBeyond / w.jobs)} ms)` : '–'} | ${r.faults !== undefined ? f2(r.faults / w.jobs, 0) : '–'} | ${r.overhead !== undefined ? `${f2(r.overhead)} ms` : '–'} |`),
  ];
  const lines = [];
  const verdict = (ok) => (ok ? 'met' : '**not met**');
  if (w.jobs !== 1606) {
    const budget = w.jobs >= 10_000 ? 1.3 : 1.5;
    lines.push(`runner CPU per job: ${f2(by.light.self / w.jobs)} ms (before: ${f2(by.fork.self / w.jobs)} ms; target ≤ 1 ms: ${verdict(by.light.self / w.jobs <= 1)})`);
    lines.push(`wall against make -j2: ${f2(by.light.wall / by.make.wall)}× (before: ${f2(by.fork.wall / by.make.wall)}×; target ≤ ${budget}×: ${verdict(by.light.wall / by.make.wall <= budget)})`);
  }
  // The same rounds, pair by pair: drift in the machine's speed (other work on a shared host) hits
  // both builds of a round alike, so the paired ratios are steadier than the medians above.
  const paired = (pick) => {
    const r = m.light.full.map((x, i) => pick(x) / pick(m.fork.full[i]));
    return `${f2(median(r))} (${f2(Math.min(...r))}–${f2(Math.max(...r))})`;
  };
  lines.push(`${beforeCli ? 'after ÷ before' : 'light spawner ÷ Node spawn'}, paired by round: wall ${paired((x) => x.wall)}, CPU (all processes) ${paired((x) => x.cpu)}, runner CPU ${paired((x) => x.self?.cpu ?? Number.NaN)}`);
  const snakeBudget = w.jobs === 1606 ? 0.1 : 0.2;
  for (const k of ['greedy', 'ilp']) {
    if (by[k] === undefined) continue;
    const target = k === 'greedy' && (w.jobs === 1000 || w.jobs === 1606) ? `; target ≤ ${snakeBudget}: ${verdict(by.light.overhead / by[k].overhead <= snakeBudget)}` : '';
    lines.push(`overhead against ${by[k].label}: ${f2(by.light.overhead / by[k].overhead)} (before: ${f2(by.fork.overhead / by[k].overhead)}${target})`);
  }
  for (const l of lines) console.error(l);
  sections.push(`### ${w.label}, median of ${rounds}\n\n${table.join('\n')}\n\n${lines.map((l) => `- ${l}`).join('\n')}`);
  summary.push(...lines.map((l) => `${w.label}: ${l}`));
}

if (write) {
  writeDocSection(
    '## run: the light spawner (issue 25)',
    `\`node bench/run-spawn.mjs${beforeCli ? ' --before OTHER' : ''}\`: each workload's commands in turn, a fresh folder each run; ${beforeCli ? '"before" is the build before this work (run in the same rounds)' : '"before" is the same build with `OXO_FLOW_SPAWNER=fork` (Node\'s spawn, the path every earlier build took)'}. Runner CPU is the runner's own user + system time, read at its exit (\`bench/self-cpu.cjs\`), the helper and the jobs not included; CPU (all processes) includes them. ${smkVersion ? `Snakemake ${smkVersion}. ` : ''}${machineDescription()}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end (other work shares the cores).\n\n${sections.join('\n\n')}`,
  );
}
