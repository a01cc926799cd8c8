#!/usr/bin/env node
// Benchmark: start-up of the everyday commands on every Node given, as ratios to that Node's own
// `node -e 0`, runs interleaved (all commands, all builds, all Nodes in turn) so that load on a shared
// host hits them alike. Commands: validate and lint of the gallery's largest workflow (or the largest
// template), dry-run of 12 rules × 100 samples (1,200 jobs) and × 1,000 (12,000 jobs), `ai status`
// over 600 skills. Budgets: spec conventions (validate, lint, dry-run 1,200 ≤ 1.5×; 12,000 ≤ 3×;
// ai status 600 ≤ 2.5×).
// Usage: npm run build && [OXO_FLOW_GALLERY=DIR] node bench/startup.mjs [--runs N] [--node PATH]... [--against DIR [--against-label TEXT]] [--no-write]
// --node PATH: a Node binary to measure with (repeatable; default: the Node running this script).
// --against DIR: also time another build (DIR holds its bin/ and dist/ and a package.json; a copy of an
// older commit's build), for before/after figures from the same runs.
// Writes its tables into docs/benchmarks.md under "## Start-up on each Node line".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT, machineDescription, median, requireBuild, runsFromArgs, timeOnce, writeDocSection } from './lib.mjs';

const HEADING = '## Start-up on each Node line';
const { runs, write } = runsFromArgs(9);
requireBuild();
const args = process.argv.slice(2);
const valuesOf = (flag) => args.flatMap((a, i) => (a === flag && args[i + 1] ? [args[i + 1]] : []));
const nodes = valuesOf('--node').length > 0 ? valuesOf('--node').map((p) => path.resolve(p)) : [process.execPath];
const against = valuesOf('--against')[0] && path.resolve(valuesOf('--against')[0]);
const againstLabel = valuesOf('--against-label')[0] ?? (against && path.basename(against));
const builds = [{ label: 'this build', cli: CLI }, ...(against ? [{ label: againstLabel, cli: path.join(against, 'bin', 'oxo-flow.js') }] : [])];

const tmp = mkdtempSync(path.join(os.tmpdir(), 'oxo-bench-startup-'));
const sampleNames = (n) => Array.from({ length: n }, (_, i) => `S${String(i).padStart(4, '0')}`);

/** The dry-run project of bench/run.js: 12 chained rules over `samples` samples, inputs present. */
function dryRunProject(samples) {
  const dir = path.join(tmp, `dry-run-${samples}`);
  mkdirSync(path.join(dir, 'raw'), { recursive: true });
  const rules = Array.from({ length: 12 }, (_, r) => {
    const input = r === 0 ? 'raw/{sample}.fq' : `step${r - 1}/{sample}.txt`;
    return `[[rules]]\nname = "step${r}"\ninput = ["${input}"]\noutput = ["step${r}/{sample}.txt"]\nthreads = 2\nshell = "tool${r} --threads {threads} {input} > {output}"\n`;
  });
  const list = sampleNames(samples).map((s) => `"${s}"`).join(', ');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "bench-${samples}"\n\n[[sample_groups]]\nname = "all"\nsamples = [${list}]\n\n${rules.join('\n')}`);
  for (const s of sampleNames(samples)) writeFileSync(path.join(dir, 'raw', `${s}.fq`), '');
  return dir;
}

/** The collection of bench/ai-status.mjs: 600 skills, 1 in 6 `.skill.toml`, the rest SKILL.md, two activated. */
function skillsProject(count) {
  const home = path.join(tmp, 'skills-home');
  const project = path.join(tmp, 'skills-project');
  mkdirSync(path.join(home, 'skills'), { recursive: true });
  mkdirSync(path.join(project, '.oxo-flow', 'skills'), { recursive: true });
  const filler = 'Check the read length, the adapter content and the duplication rate before alignment. '.repeat(10);
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    if (i % 6 === 0) {
      writeFileSync(path.join(home, 'skills', `${name}.skill.toml`), `name = "${name}"\nversion = "1.0.0"\ndescription = "Generated skill ${i}"\nskill_type = "knowledge"\ndomains = ["qc"]\nprompt_additions = ["${filler}"]\n`);
      continue;
    }
    const dir = i % 2 === 0 ? path.join(project, '.oxo-flow', 'skills', name) : path.join(project, 'vendor', 'collection', `category-${i % 7}`, name);
    mkdirSync(dir, { recursive: true });
    const declared = i % 10 === 1 ? `bio-${name}` : name;
    writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${declared}\ndescription: Generated skill ${i}. Use when checking generated data.\nlicense: MIT\nmetadata:\n  domain: qc\n  primary_tool: fastp\n---\n# ${declared}\n\n${filler.repeat(1 + (i % 9))}\n`);
  }
  writeFileSync(path.join(project, '.oxo-flow', 'ai.toml'), '[ai]\nskill_paths = ["vendor/collection/*"]\nskills = ["skill-0002", "bio-skill-0011"]\n');
  return { home, project };
}

function largest(dirs) {
  const files = dirs.filter(existsSync).flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.oxoflow')).map((f) => path.join(d, f)));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}
// The reference gallery beside the checkout (or where OXO_FLOW_GALLERY says); else the largest template.
const gallery = process.env.OXO_FLOW_GALLERY ?? path.join(ROOT, '..', 'shared', 'corpus', 'oxo-flow-gallery');
const workflow = largest([path.join(gallery, 'gallery'), path.join(gallery, 'web')]) ?? largest([path.join(ROOT, 'templates')]);

const small = dryRunProject(100);
const large = dryRunProject(1000);
const skills = skillsProject(600);
const env = { ...process.env, NO_COLOR: '1', OXO_FLOW_HOME: skills.home };
for (const k of Object.keys(env)) if (k.startsWith('OXO_FLOW_AI_') || /_API_KEY$/.test(k)) delete env[k];

const COMMANDS = [
  { label: 'validate (largest gallery workflow)', argv: ['validate', '-q', path.basename(workflow)], cwd: path.dirname(workflow), budget: 1.5 },
  { label: 'lint (largest gallery workflow)', argv: ['lint', '-q', path.basename(workflow)], cwd: path.dirname(workflow), budget: 1.5, allowFailure: true },
  { label: 'dry-run, 1,200 jobs', argv: ['dry-run', '-q', 'main.oxoflow'], cwd: small, budget: 1.5 },
  { label: 'dry-run, 12,000 jobs', argv: ['dry-run', '-q', 'main.oxoflow'], cwd: large, budget: 3 },
  { label: 'ai status, 600 skills', argv: ['ai', 'status'], cwd: skills.project, budget: 2.5 },
];

// Every (node, build, command) cell, plus each Node's `node -e 0`, timed in turn, `runs` rounds.
const cells = [];
for (const node of nodes) {
  cells.push({ node, base: true, run: () => timeOnce(node, ['-e', '0'], { env }) });
  for (const b of builds)
    for (const c of COMMANDS) cells.push({ node, build: b.label, command: c, run: () => timeOnce(node, [b.cli, ...c.argv], { cwd: c.cwd, env, allowFailure: c.allowFailure }) });
}
for (const cell of cells) cell.run(); // warm the file cache (and Node 22's compile cache)
for (const cell of cells) cell.times = [];
for (let i = 0; i < runs; i++) for (const cell of cells) cell.times.push(cell.run());
rmSync(tmp, { recursive: true, force: true });

const version = (node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
const lines = [
  `Generated by \`node bench/startup.mjs\` on ${new Date().toISOString().slice(0, 10)} (${machineDescription()}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end); medians of ${runs}`,
  `interleaved runs of every row below. The workflow is \`${path.basename(workflow)}\` (${statSync(workflow).size.toLocaleString('en')} bytes); the dry-runs are 12 chained rules × 100 and × 1,000 samples; ai status reads 600 generated skills (as bench/ai-status.mjs) plus the built-in library.`,
  '',
  `| Node | command | ${builds.map((b) => `${b.label}: ratio to \`node -e 0\``).join(' | ')} | budget |`,
  `|---|---|${builds.map(() => '---:|').join('')}---:|`,
];
for (const node of nodes) {
  const base = median(cells.find((c) => c.node === node && c.base).times);
  lines.push(`| ${version(node)} | \`node -e 0\` | ${builds.map(() => `${base.toFixed(0)} ms`).join(' | ')} | |`);
  for (const c of COMMANDS) {
    const row = builds.map((b) => {
      const ms = median(cells.find((x) => x.node === node && x.build === b.label && x.command === c).times);
      return `${(ms / base).toFixed(2)}× (${ms.toFixed(0)} ms)`;
    });
    lines.push(`| ${version(node)} | ${c.label} | ${row.join(' | ')} | ≤ ${c.budget}× |`);
  }
}
const body = lines.join('\n');
console.log(body);
if (write) writeDocSection(HEADING, body);
