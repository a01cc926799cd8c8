#!/usr/bin/env node
// Benchmark: `oxo-flow ai` (status) over a collection of 600 skills, as a ratio to `node -e 0` on the
// same machine in the same run (budget ≤ 2.5×, conventions.md §Performance), and the time with 5,000
// skills (reported, no budget).
// Usage: npm run build && node bench/ai-status.mjs [--runs N] [--no-write] [--against DIR [--against-label TEXT]]
// --against DIR: also time another build (DIR holds its bin/ and dist/, e.g. a built checkout of an
// older commit), interleaved with the rest, for before/after figures from the same runs; its row is
// named by --against-label (default: DIR's name).
// Writes its table into docs/benchmarks.md under "## ai status with 600 and 5,000 skills" (only that section).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, machineDescription, measureInterleaved, requireBuild, runsFromArgs, verdict, writeDocSection } from './lib.mjs';

const HEADING = '## ai status with 600 and 5,000 skills';
const BUDGET = 2.5;
const { runs, write } = runsFromArgs(15);
requireBuild();
const againstAt = process.argv.indexOf('--against');
const against = againstAt >= 0 ? path.resolve(process.argv[againstAt + 1] ?? '') : undefined;
const AGAINST_CLI = against && path.join(against, 'bin', 'oxo-flow.js');
const labelAt = process.argv.indexOf('--against-label');
const againstLabel = labelAt >= 0 ? process.argv[labelAt + 1] : against && `the build in ${path.basename(against)}`;
if (AGAINST_CLI && !existsSync(AGAINST_CLI)) {
  console.error(`--against: ${AGAINST_CLI} does not exist`);
  process.exit(2);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'oxo-bench-ai-'));
const filler = 'Check the read length, the adapter content and the duplication rate before alignment. '.repeat(10);

/**
 * A project shaped like a community collection copied in: `count` skills, 1 in 6 as `.skill.toml` in
 * the user folder, the rest as SKILL.md in the project (1 in 10 named unlike its folder, bodies of
 * 1-9 KiB), half of those grouped by category under vendor/ and read through a skill_paths glob.
 * Two skills are activated.
 */
function makeProject(label, count) {
  const home = path.join(tmp, `${label}-home`);
  const project = path.join(tmp, `${label}-project`);
  mkdirSync(path.join(home, 'skills'), { recursive: true });
  mkdirSync(path.join(project, '.oxo-flow', 'skills'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    if (i % 6 === 0) {
      writeFileSync(
        path.join(home, 'skills', `${name}.skill.toml`),
        `name = "${name}"\nversion = "1.0.0"\ndescription = "Generated skill ${i}"\nskill_type = "knowledge"\ndomains = ["qc"]\nprompt_additions = ["${filler}"]\n`,
      );
      continue;
    }
    const dir = i % 2 === 0 ? path.join(project, '.oxo-flow', 'skills', name) : path.join(project, 'vendor', 'collection', `category-${i % 7}`, name);
    mkdirSync(dir, { recursive: true });
    const declared = i % 10 === 1 ? `bio-${name}` : name;
    const body = `# ${declared}\n\n${filler.repeat(1 + (i % 9))}\n`;
    writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${declared}\ndescription: Generated skill ${i}. Use when checking generated data.\nlicense: MIT\nmetadata:\n  domain: qc\n  primary_tool: fastp\n---\n${body}`);
  }
  writeFileSync(path.join(project, '.oxo-flow', 'ai.toml'), '[ai]\nskill_paths = ["vendor/collection/*"]\nskills = ["skill-0002", "bio-skill-0011"]\n');
  return { home, project, count };
}

const env0 = { ...process.env, NO_COLOR: '1' };
for (const k of ['OXO_FLOW_AI_PROVIDER', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEEPSEEK_API_KEY']) delete env0[k];

/** Check the run is the real thing: every generated skill discovered, both listed skills active. */
function check({ home, project, count }) {
  const env = { ...env0, OXO_FLOW_HOME: home };
  const r = spawnSync(process.execPath, [CLI, '--json', 'ai'], { cwd: project, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const doc = JSON.parse(r.stdout);
  const found = doc.skills.filter((s) => s.scope !== 'builtin');
  if (found.length !== count || found.some((s) => s.status !== 'ok')) throw new Error(`expected ${count} ok skills, found ${found.length} (${JSON.stringify(doc.skill_counts)})`);
  if (doc.activation.active.length !== 2) throw new Error(`expected 2 active skills: ${JSON.stringify(doc.activation)}`);
  return env;
}

const six = makeProject('six-hundred', 600);
const five = makeProject('five-thousand', 5000);
const sixEnv = check(six);
const fiveEnv = check(five);

const [base, version, status600, before600] = measureInterleaved(
  [
    { label: '--version', cmd: process.execPath, argv: [CLI, '--version'], options: { cwd: six.project, env: sixEnv } },
    { label: 'ai (600)', cmd: process.execPath, argv: [CLI, 'ai'], options: { cwd: six.project, env: sixEnv } },
    ...(AGAINST_CLI ? [{ label: 'ai (600), other build', cmd: process.execPath, argv: [AGAINST_CLI, 'ai'], options: { cwd: six.project, env: sixEnv } }] : []),
  ],
  runs,
);
const fewer = Math.max(3, Math.round(runs / 3));
const [base5, status5000] = measureInterleaved([{ label: 'ai (5,000)', cmd: process.execPath, argv: [CLI, 'ai'], options: { cwd: five.project, env: fiveEnv } }], fewer);
if (!process.env.OXO_BENCH_KEEP) rmSync(tmp, { recursive: true, force: true });
else console.log(`kept ${tmp}`);
const ratio = status600.ratio;

const body = [
  `Generated by \`node bench/ai-status.mjs\` on ${new Date().toISOString().slice(0, 10)} (${machineDescription()}); medians of interleaved runs.`,
  'Each run is `oxo-flow ai` (human output, the full skill table) in a project shaped like a community collection',
  'copied in: 1 in 6 skills a `.skill.toml` in the user folder, the rest `SKILL.md` (bodies of 1–9 KiB, 1 in 10 named',
  'unlike its folder), half of them grouped by category under `vendor/` and read through `skill_paths = ["vendor/collection/*"]`;',
  'plus the built-in library. Two skills are activated, so two bodies are read; every other file is read only up to the',
  'end of its front matter. The provider is resolved (none configured). No network.',
  '',
  '| command | runs | median wall time | ratio to `node -e 0` |',
  '|---|---:|---:|---|',
  `| \`node -e 0\` | ${runs} | ${base.ms.toFixed(0)} ms | 1.00× |`,
  `| \`oxo-flow --version\` (start-up floor) | ${runs} | ${version.ms.toFixed(0)} ms | ${version.ratio.toFixed(2)}× |`,
  `| \`oxo-flow ai\`, 600 skills | ${runs} | ${status600.ms.toFixed(0)} ms | ${verdict(ratio, BUDGET)} |`,
  ...(before600 ? [`| \`oxo-flow ai\`, 600 skills, ${againstLabel} | ${runs} | ${before600.ms.toFixed(0)} ms | ${before600.ratio.toFixed(2)}× |`] : []),
  `| \`node -e 0\` (second series) | ${fewer} | ${base5.ms.toFixed(0)} ms | 1.00× |`,
  `| \`oxo-flow ai\`, 5,000 skills | ${fewer} | ${status5000.ms.toFixed(0)} ms | ${status5000.ratio.toFixed(2)}× (reported, no budget) |`,
  ...(before600 ? ['', 'The row for the other build comes from the same interleaved runs, so the two compare fairly even on a busy host.'] : []),
].join('\n');
console.log(body);
if (write) writeDocSection(HEADING, body);
process.exitCode = ratio <= BUDGET ? 0 : 1;
