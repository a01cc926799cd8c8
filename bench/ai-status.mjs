#!/usr/bin/env node
// Benchmark: `oxo-flow ai` (status) over a collection of 600 and of 5,000 skills, as ratios to `node -e 0`
// on the same machine in the same runs, with the discovery cache warm (budgets, issue 25: ≤ 1.6× and
// ≤ 2.5×) and cold (the cache emptied before each run: no worse than the build before the cache); and
// `lint --ai` activating 2 of the 600 skills against a model server that answers at once.
// Each run's wall time and CPU time (user + sys of the child, from /usr/bin/time when present).
// Usage: npm run build && node bench/ai-status.mjs [--runs N] [--no-write] [--against DIR [--against-label TEXT] [--against-no-cache]]...
// --against DIR: also time another build (DIR holds its bin/ and dist/, e.g. a built checkout of an
// older commit), interleaved with the rest, for before/after figures from the same runs; its rows are
// named by the --against-label after it (default: DIR's name); --against-no-cache after it: that build
// has no discovery cache (one row per project, not a warm and a cold one). Repeatable.
// Writes its table into docs/benchmarks.md under "## ai status with 600 and 5,000 skills" (only that section).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, machineDescription, median, requireBuild, runsFromArgs, writeDocSection } from './lib.mjs';

const HEADING = '## ai status with 600 and 5,000 skills';
const BUDGET_600 = 1.6;
const BUDGET_5000 = 2.5;
const loadAtStart = os.loadavg()[0];
const { runs, write } = runsFromArgs(15);
requireBuild();
/** The other builds to time: each --against DIR, named by the --against-label that follows it. */
const againsts = [];
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--against') {
    const dir = path.resolve(process.argv[i + 1] ?? '');
    againsts.push({ cli: path.join(dir, 'bin', 'oxo-flow.js'), label: `the build in ${path.basename(dir)}` });
  } else if (process.argv[i] === '--against-label' && againsts.length > 0) againsts[againsts.length - 1].label = process.argv[i + 1];
  else if (process.argv[i] === '--against-no-cache' && againsts.length > 0) againsts[againsts.length - 1].noCache = true;
}
for (const a of againsts) {
  if (!existsSync(a.cli)) {
    console.error(`--against: ${a.cli} does not exist`);
    process.exit(2);
  }
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
// Each other build gets a home of its own (a copy of the user skills): builds do not use each
// other's cache files (another build's are rewritten), so sharing one home would keep every run cold.
for (const [i, a] of againsts.entries()) {
  const homes = new Map();
  for (const p of [six, five]) {
    const home = `${p.home}-against-${i}`;
    cpSync(path.join(p.home, 'skills'), path.join(home, 'skills'), { recursive: true, preserveTimestamps: true });
    homes.set(p, home);
  }
  a.home = (p) => homes.get(p);
  a.env = (p, env) => ({ ...env, OXO_FLOW_HOME: homes.get(p) });
}

// Files changed in the last 3 s are not stored in the cache (coarse time stamps): let them settle.
await new Promise((r) => setTimeout(r, 3100));

// CPU time of the child from bash's `time` (getrusage, to the millisecond; /usr/bin/time prints
// steps of 10 ms, coarser than the differences measured here), else /usr/bin/time, else none.
const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;
const hasTime = !hasBash && spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0;
const TIMED = 'TIMEFORMAT="CPU %3U %3S"; time "$@"';
/** One run: wall ms (measured here) and CPU ms (user + sys of the child). */
function once(argv, options) {
  const start = process.hrtime.bigint();
  const spawnOptions = { ...options, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 };
  const r = hasBash
    ? spawnSync('bash', ['-c', TIMED, 'bash', process.execPath, ...argv], spawnOptions)
    : hasTime
      ? spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, ...argv], spawnOptions)
      : spawnSync(process.execPath, argv, spawnOptions);
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(-400)}`);
  const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN };
}

/** Interleaved runs of `commands` (each may empty the cache first, untimed); the first round warms the file cache and is not counted. */
function interleaved(commands, n) {
  const out = commands.map(() => ({ wall: [], cpu: [] }));
  for (let round = -1; round < n; round++) {
    for (const [j, c] of commands.entries()) {
      c.before?.();
      const t = once(c.argv, c.options);
      if (round >= 0) {
        out[j].wall.push(t.wall);
        out[j].cpu.push(t.cpu);
      }
    }
  }
  const base = { wall: median(out[0].wall), cpu: median(out[0].cpu) };
  return commands.map((c, j) => ({ label: c.label, runs: n, wall: median(out[j].wall), cpu: median(out[j].cpu), wallRatio: median(out[j].wall) / base.wall, cpuRatio: median(out[j].cpu) / base.cpu }));
}

const node0 = { label: '`node -e 0`', argv: ['-e', '0'] };
const emptyCache = (home) => () => rmSync(path.join(home, 'cache'), { recursive: true, force: true });
const statusRows = (p, env, label) => [
  { label: `\`oxo-flow ai\`, ${label} skills, cache warm`, argv: [CLI, 'ai'], options: { cwd: p.project, env } },
  { label: `\`oxo-flow ai\`, ${label} skills, cache cold`, argv: [CLI, 'ai'], options: { cwd: p.project, env }, before: emptyCache(p.home) },
  ...againsts.flatMap((a) =>
    a.noCache
      ? [{ label: `\`oxo-flow ai\`, ${label} skills, ${a.label}`, argv: [a.cli, 'ai'], options: { cwd: p.project, env: a.env(p, env) } }]
      : [
          { label: `\`oxo-flow ai\`, ${label} skills, cache warm, ${a.label}`, argv: [a.cli, 'ai'], options: { cwd: p.project, env: a.env(p, env) } },
          { label: `\`oxo-flow ai\`, ${label} skills, cache cold, ${a.label}`, argv: [a.cli, 'ai'], options: { cwd: p.project, env: a.env(p, env) }, before: emptyCache(a.home(p)) },
        ],
  ),
];
const first = interleaved([node0, { label: '`oxo-flow --version` (start-up floor)', argv: [CLI, '--version'], options: { cwd: six.project, env: sixEnv } }, ...statusRows(six, sixEnv, '600')], runs);
const fewer = Math.max(3, Math.round(runs / 3));
const second = interleaved([{ ...node0, label: '`node -e 0` (second series)' }, ...statusRows(five, fiveEnv, '5,000')], fewer);

// lint --ai, activating the two listed skills of the 600, against a server that answers at once. The
// workflow is written only now: `oxo-flow ai` above would otherwise read its [ai] table too.
writeFileSync(
  path.join(six.project, 'main.oxoflow'),
  '[workflow]\nname = "tiny"\ndescription = "one step"\nauthor = "lab"\n\n[[rules]]\nname = "hello"\ndescription = "write a greeting"\noutput = ["results/hello.txt"]\nlog = "logs/hello.log"\nshell = "echo hello > {output} 2> {log}"\n',
);
const server = spawn(process.execPath, [fileURLToPath(new URL('./fake-provider.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const baseUrl = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
const aiEnv = { ...sixEnv, OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: baseUrl, OXO_FLOW_AI_MODEL: 'bench', OXO_FLOW_AI_API_KEY: 'sk-bench' };
let third;
try {
  third = interleaved(
    [
      { ...node0, label: '`node -e 0` (third series)' },
      { label: '`lint`', argv: [CLI, 'lint'], options: { cwd: six.project, env: aiEnv } },
      { label: '`lint --ai`, 2 of 600 skills active, cache warm', argv: [CLI, 'lint', '--ai'], options: { cwd: six.project, env: aiEnv } },
      { label: '`lint --ai`, 2 of 600 skills active, cache cold', argv: [CLI, 'lint', '--ai'], options: { cwd: six.project, env: aiEnv }, before: emptyCache(six.home) },
      ...againsts.map((a) => ({ label: `\`lint --ai\`, 2 of 600 skills active, ${a.noCache ? '' : 'cache warm, '}${a.label}`, argv: [a.cli, 'lint', '--ai'], options: { cwd: six.project, env: { ...aiEnv, OXO_FLOW_HOME: a.home(six) } } })),
    ],
    fewer,
  );
} finally {
  server.kill();
}
if (!process.env.OXO_BENCH_KEEP) rmSync(tmp, { recursive: true, force: true });
else console.log(`kept ${tmp}`);

const warm600 = first[2];
const warm5000 = second[1];
const judged = (r, budget) => `${r.wallRatio.toFixed(2)}× wall, ${r.cpuRatio.toFixed(2)}× CPU (budget ≤ ${budget}×: ${r.wallRatio <= budget ? 'met' : '**not met**'} in wall time, ${r.cpuRatio <= budget ? 'met' : '**not met**'} in CPU)`;
const row = (r, note) => `| ${r.label} | ${r.runs} | ${r.wall.toFixed(0)} ms | ${Number.isFinite(r.cpu) ? `${r.cpu.toFixed(0)} ms` : '—'} | ${note ?? `${r.wallRatio.toFixed(2)}× wall, ${r.cpuRatio.toFixed(2)}× CPU`} |`;
const [, lintPlain, lintWarm, lintCold, ...lintOthers] = third;
const body = [
  `Generated by \`node bench/ai-status.mjs\` on ${new Date().toISOString().slice(0, 10)} (${machineDescription()}; load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end); medians of interleaved runs, wall time and CPU time (user + sys of the process, from bash's \`time\`, to the millisecond).`,
  'Each run is `oxo-flow ai` (human output, the full skill table) in a project shaped like a community collection',
  'copied in: 1 in 6 skills a `.skill.toml` in the user folder, the rest `SKILL.md` (bodies of 1–9 KiB, 1 in 10 named',
  'unlike its folder), half of them grouped by category under `vendor/` and read through `skill_paths = ["vendor/collection/*"]`;',
  'plus the built-in library (from its build-time manifest). Two skills are activated, so two bodies are read. "Cache warm": the',
  'discovery cache holds every skill (one `lstat` per skill); "cache cold": `$OXO_FLOW_HOME/cache/` is deleted before each',
  'run (untimed), so every file is read and parsed and the cache is written. The provider is resolved (none configured). No network.',
  '',
  '| command | runs | median wall | median CPU | ratio to `node -e 0` |',
  '|---|---:|---:|---:|---|',
  row(first[0], '1.00×'),
  row(first[1]),
  row(warm600, judged(warm600, BUDGET_600)),
  ...first.slice(3).map((r) => row(r)),
  row(second[0], '1.00×'),
  row(warm5000, judged(warm5000, BUDGET_5000)),
  ...second.slice(2).map((r) => row(r)),
  row(third[0], '1.00×'),
  ...third.slice(1).map((r) => row(r)),
  '',
  `\`lint --ai\` runs against bench/fake-provider.mjs (its own process, answering at once) in the 600-skill project; it adds ${(lintWarm.cpu - lintPlain.cpu).toFixed(0)} ms of CPU to \`lint\` with the cache warm, ${(lintCold.cpu - lintPlain.cpu).toFixed(0)} ms cold${lintOthers.map((r, i) => `, ${(r.cpu - lintPlain.cpu).toFixed(0)} ms with ${againsts[i].label}${againsts[i].noCache ? '' : ' (cache warm)'}`).join('')} (differences of the medians above).`,
  ...(againsts.length > 0 ? ['', `The rows for the other build${againsts.length > 1 ? 's' : ''} come from the same interleaved runs, so the builds compare fairly even on a busy host (each has a home of its own, a copy of the user skills, so no build rewrites another's cache).`] : []),
].join('\n');
console.log(body);
if (write) writeDocSection(HEADING, body);
process.exitCode = warm600.cpuRatio <= BUDGET_600 && warm5000.cpuRatio <= BUDGET_5000 ? 0 : 1;
