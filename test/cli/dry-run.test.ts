// `oxo-flow dry-run` on real .oxoflow files in temp folders, run in-process (runInProcess, imported as
// runCli: src/cli/main.ts on the TypeScript sources; test/cli/built-cli.test.ts spawns the built CLI).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, touch } from '../helpers/plan-workflow.js';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

const WF = `[workflow]
name = "demo"

[config]
reference = "/ref/genome.fa"
run_qc = false
min_depth = 10

[defaults]
threads = 2
memory = "4G"

[[sample_groups]]
name = "all"
samples = ["S1", "S2"]

[[rules]]
name = "trim"
input = ["raw/{sample}.fq"]
output = ["trimmed/{sample}.fq"]
shell = "fastp -i {input} -o {output} --ref {config.reference} -t {threads}"

[rules.environment]
conda = "envs/fastp.yaml"

[[rules]]
name = "qc"
input = ["trimmed/{sample}.fq"]
output = ["qc/{sample}.html"]
shell = "fastqc {input} -o qc/"
when = "config.run_qc"

[[rules]]
name = "merge"
input = ["trimmed/S1.fq", "trimmed/S2.fq"]
output = ["merged.txt"]
shell = "cat {input} > {output}"
`;

function project(text = WF): string {
  const dir = tempDir('oxo-dry-');
  writeFileSync(path.join(dir, 'main.oxoflow'), text);
  return dir;
}

describe('oxo-flow dry-run', () => {
  it('prints phases, statuses, rendered commands and a summary; exit 0', async () => {
    const dir = project();
    touch(dir, 'raw/S1.fq', 100);
    touch(dir, 'raw/S2.fq', 100);
    touch(dir, 'trimmed/S1.fq', 50);
    const r = await runCli(['dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Phase 1');
    expect(r.stderr).toContain('○ trim[sample=S1]  skip: up to date');
    expect(r.stderr).toContain('● trim[sample=S2]  run: never completed');
    expect(r.stderr).toContain('$ fastp -i raw/S2.fq -o trimmed/S2.fq --ref /ref/genome.fa -t 2');
    expect(r.stderr).toContain('threads 2 · memory 4G · conda envs/fastp.yaml');
    expect(r.stderr).toContain('○ qc[sample=S1]  skip: when false');
    expect(r.stderr).toContain('● merge  run: never completed');
    expect(r.stderr).toMatch(/Summary: 5 jobs — 2 will run \(2 never completed\), 3 skipped \(1 up to date, 2 when false\)/);
    expect(r.stderr).toMatch(/suggested -j \d+/);
    // A hint must never name a command this version does not have.
    expect(r.stderr).not.toContain('oxo-flow run');
  });

  it('--json gives the documented document', async () => {
    const dir = project();
    const r = await runCliJson(['dry-run', 'main.oxoflow', 'run_qc=true', '-t', 'qc'], { cwd: dir });
    expect(r.code).toBe(0);
    const jobs = r.json.jobs as Record<string, unknown>[];
    expect(jobs.map((j) => j.id)).toEqual(['trim[sample=S1]', 'trim[sample=S2]', 'qc[sample=S1]', 'qc[sample=S2]']);
    expect(jobs[2]).toEqual({
      id: 'qc[sample=S1]',
      rule: 'qc',
      step: null,
      wildcards: { sample: 'S1' },
      status: 'run',
      reason: 'never completed',
      detail: null,
      inputs: ['trimmed/S1.fq'],
      outputs: ['qc/S1.html'],
      log: null,
      command: 'fastqc trimmed/S1.fq -o qc/',
      script: 'fastqc "${OXO_INPUT_0}" -o qc/',
      env: { OXO_INPUT_0: 'trimmed/S1.fq' },
      retries: 0,
      time_limit_seconds: null,
      temp_outputs: [],
      protected_outputs: [],
      threads: 2,
      memory: '4G',
      memory_mb: 4096,
      environment: null,
      level: 1,
      depends_on: ['trim[sample=S1]'],
      missing_inputs: [],
    });
    expect(r.json).toMatchObject({ schema_version: 1, command: 'dry-run', ok: true, exit_code: 0, summary: { jobs: 4, run: 4, skip: 0, phases: 2 } });
  });

  it('-q prints only the summary', async () => {
    const r = await runCli(['-q', 'dry-run'], { cwd: project() });
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^Summary: 5 jobs/);
  });

  it('exit 2 for bad overrides, unknown targets and unparsable input; JSON on every path', async () => {
    const dir = project();
    const bad = await runCli(['dry-run', 'min_depth=deep'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error CLI011: config override min_depth=deep: expected an integer, got "deep"');
    const unknown = await runCliJson(['dry-run', 'refrence=/x'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect((unknown.json.diagnostics as { message: string }[])[0]!.message).toContain('did you mean reference?');
    expect((await runCli(['dry-run', '-t', 'mrege'], { cwd: dir })).stderr).toContain('(did you mean merge?)');
    const toml = project('[workflow\nname = "x"');
    const parsed = await runCliJson(['dry-run'], { cwd: toml });
    expect(parsed.code).toBe(2);
    expect(parsed.json.ok).toBe(false);
  });

  it('exit 1 with E021 when {sample} has no source, and --samples supplies one', async () => {
    const text = WF.replace('[[sample_groups]]\nname = "all"\nsamples = ["S1", "S2"]\n', '');
    const dir = project(text);
    const r = await runCli(['dry-run'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error E021: `{sample}` in rule trim has no source: declare [[sample_groups]], set workflow.sample_pattern, or pass --samples');
    expect(r.stderr).toMatch(/main\.oxoflow:\d+:\d+/);
    const ok = await runCliJson(['dry-run', '--samples', 'S1,S2'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect((ok.json.jobs as unknown[]).length).toBe(5);
  });

  it('exit 1 with E006 and the cycle path', async () => {
    const dir = project(`[workflow]
name = "loop"

[[rules]]
name = "a"
input = ["c.txt"]
output = ["a.txt"]
shell = "x"

[[rules]]
name = "b"
input = ["a.txt"]
output = ["b.txt"]
shell = "x"

[[rules]]
name = "c"
input = ["b.txt"]
output = ["c.txt"]
shell = "x"
`);
    const r = await runCli(['dry-run'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error E006: cycle: a → b → c → a');
  });

  it('folds large plans: a few jobs per rule and phase, then a count', async () => {
    const samples = Array.from({ length: 50 }, (_, i) => `"S${i}"`).join(', ');
    const dir = project(WF.replace('samples = ["S1", "S2"]', `samples = [${samples}]`));
    const r = await runCli(['dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('… 47 more trim jobs: 47 run: never completed (-v shows every job)');
    expect((await runCli(['-v', 'dry-run'], { cwd: dir })).stderr).toContain('trim[sample=S49]');
    // Folded jobs with different outcomes are counted per status and reason, in order of appearance.
    for (let i = 45; i < 50; i++) touch(dir, `trimmed/S${i}.fq`);
    expect((await runCli(['dry-run'], { cwd: dir })).stderr).toContain('… 47 more trim jobs: 42 run: never completed, 5 skip: up to date (-v shows every job)');
  });
});
