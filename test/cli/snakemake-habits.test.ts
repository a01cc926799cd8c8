// Snakemake habits through the built CLI: positional targets, -n, --list, --summary, --touch,
// "oxo-flow spells this", --json --version, --set-threads / --set-resources, --env, and a rule's
// log read by another rule.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const WORKFLOW = `[workflow]
name = "habits"

[config]
word = "hi"

[[rules]]
name = "make"
description = "write a word"
input = ["raw.txt"]
output = ["results/x.txt"]
log = "logs/make.log"
threads = 3
shell = "echo {config.word} {threads} > {output}; echo made > {log}"

[[rules]]
name = "collect"
input = ["results/x.txt", "logs/make.log"]
output = ["results/summary.txt"]
shell = "cat {input} > {output}"

[[rules]]
name = "conda_step"
input = ["raw.txt"]
output = ["results/env.txt"]
shell = "echo ran > {output}"
[rules.environment]
conda = "envs/none.yaml"
`;

function project(): string {
  const dir = tempDir('oxo-habits-');
  writeFileSync(path.join(dir, 'main.oxoflow'), WORKFLOW);
  writeFileSync(path.join(dir, 'raw.txt'), 'raw\n');
  mkdirSync(path.join(dir, 'envs'));
  writeFileSync(path.join(dir, 'envs', 'none.yaml'), 'name: none\ndependencies: []\n');
  return dir;
}

/** PATH without conda, mamba or micromamba. */
const NO_CONDA = { PATH: '/usr/bin:/bin' };
const ids = (json: Record<string, unknown>, key: 'jobs') => (json[key] as { id: string; status?: string; outcome?: string }[]);

describe('Snakemake habits', () => {
  it('positional words: an output path or a rule name is a target, KEY=VALUE an override', () => {
    const dir = project();
    const dry = runCliJson(['dry-run', 'results/x.txt', 'word=yo'], { cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(ids(dry.json, 'jobs').map((j) => j.id)).toEqual(['make']);
    const r = runCliJson(['run', 'collect', 'word=yo', '--cores', '2'], { cwd: dir, env: NO_CONDA });
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.json, 'jobs').map((j) => `${j.id}:${j.outcome}`)).toEqual(['make:done', 'collect:done']);
    // The log of make is collect's input; threads 3 were capped to the 2 cores.
    expect(readFileSync(path.join(dir, 'results/summary.txt'), 'utf8')).toBe('yo 2\nmade\n');
    expect((r.json.diagnostics as { code: string }[]).map((d) => d.code)).toEqual(['RUN015']);
    // On a machine with more cores, the jobs are still up to date (as in Snakemake, threads are no rerun trigger).
    const wider = runCliJson(['dry-run', 'collect', 'word=yo', '--cores', '4'], { cwd: dir });
    expect(ids(wider.json, 'jobs').filter((j) => j.status === 'run')).toEqual([]);
    // A job id is a target too, although it has a `=`.
    const byId = runCliJson(['dry-run', 'make', 'collect[x=1]'], { cwd: dir });
    expect(JSON.stringify(byId.json.diagnostics)).toContain('CLI013');
    expect(JSON.stringify(byId.json.diagnostics)).toContain('collect[x=1]');
    const unknown = runCliJson(['run', 'colect'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(JSON.stringify(unknown.json.diagnostics)).toContain('CLI013');
    expect(JSON.stringify(unknown.json.diagnostics)).toContain('did you mean collect');
  }, 60_000);

  it('-n is dry-run, --list lists the rules, --summary lists every output', () => {
    const dir = project();
    const n = runCliJson(['run', '-n', 'collect'], { cwd: dir });
    expect(n.code).toBe(0);
    expect(ids(n.json, 'jobs').map((j) => j.status)).toEqual(['run', 'run']);
    expect(existsSync(path.join(dir, 'results'))).toBe(false);
    const list = runCli(['run', '--list'], { cwd: dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('make        write a word\ncollect\nconda_step\n');
    expect(runCliJson(['run', '--cores', '4', 'collect'], { cwd: dir }).code).toBe(0);
    const summary = runCliJson(['run', '--summary', '--cores', '4', '--env', 'none'], { cwd: dir });
    const rows = summary.json.outputs as { output: string; rule: string; status: string; date: string | null }[];
    expect(rows.map((r) => `${r.output} ${r.rule} ${r.status}`)).toEqual(['results/x.txt make ok', 'results/env.txt conda_step missing', 'results/summary.txt collect ok']);
    expect(rows[0]!.date).toMatch(/^\d{4}-\d\d-\d\dT/);
    const text = runCli(['run', '--summary', '--cores', '4'], { cwd: dir });
    expect(text.stdout.split('\n')[0]).toBe('output\tdate\trule\tstatus\treason');
  }, 60_000);

  it('--touch marks the outputs of the jobs that would run as up to date', () => {
    const dir = project();
    expect(runCliJson(['run', '--cores', '4', 'collect'], { cwd: dir }).code).toBe(0);
    // raw.txt changes: both jobs would run; --touch makes them fresh without running them.
    writeFileSync(path.join(dir, 'raw.txt'), 'new\n');
    const past = new Date(Date.now() - 1000);
    utimesSync(path.join(dir, 'raw.txt'), past, past);
    for (const out of ['results/x.txt', 'logs/make.log', 'results/summary.txt']) utimesSync(path.join(dir, out), new Date(past.getTime() - 60_000), new Date(past.getTime() - 60_000));
    expect(ids(runCliJson(['dry-run', '--cores', '4', 'collect'], { cwd: dir }).json, 'jobs').filter((j) => j.status === 'run')).toHaveLength(2);
    const t = runCliJson(['run', '--touch', '--cores', '4', 'collect'], { cwd: dir });
    expect(t.code, t.stderr).toBe(0);
    expect(t.json.jobs).toEqual(['make', 'collect']);
    expect(readFileSync(path.join(dir, 'results/x.txt'), 'utf8')).toBe('hi 3\n');
    expect(ids(runCliJson(['dry-run', '--cores', '4', 'collect'], { cwd: dir }).json, 'jobs').filter((j) => j.status === 'run')).toEqual([]);
    // A missing output cannot be touched (RUN019).
    const missing = runCliJson(['run', '--touch', 'results/env.txt'], { cwd: dir, env: NO_CONDA });
    expect(missing.code).toBe(1);
    expect(JSON.stringify(missing.json.diagnostics)).toContain('RUN019');
  }, 60_000);

  it('Snakemake flags get how oxo-flow spells them; --json --version prints only JSON', () => {
    const dir = project();
    for (const [flag, says] of [
      ['--report', 'oxo-flow report'],
      ['--until', '-t RULE'],
      ['-p', 'dry-run'],
      ['--unlock', 'oxo-flow unlock'],
      ['--use-conda', '--env none'],
    ] as const) {
      const r = runCliJson(['run', flag], { cwd: dir });
      expect(r.code, flag).toBe(2);
      const d = (r.json.diagnostics as { hint?: string }[])[0]!;
      expect(d.hint, flag).toContain('oxo-flow spells this');
      expect(d.hint, flag).toContain(says);
      expect(d.hint, flag).not.toContain('did you mean');
    }
    const v = runCli(['--json', '--version']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).version).toMatch(/^\d+\.\d+\.\d+/);
  }, 60_000);

  it('--env none and --env auto run a rule without conda; declared refuses (RUN004)', () => {
    const dir = project();
    const declared = runCliJson(['run', 'results/env.txt'], { cwd: dir, env: NO_CONDA });
    expect(declared.code).toBe(1);
    expect(JSON.stringify(declared.json.diagnostics)).toContain('RUN004');
    const auto = runCliJson(['run', 'results/env.txt', '--env', 'auto'], { cwd: dir, env: NO_CONDA });
    expect(auto.code, auto.stderr).toBe(0);
    const notes = auto.json.diagnostics as { code: string; rule?: string; message: string }[];
    expect(notes.map((d) => `${d.code} ${d.rule}`)).toEqual(['RUN017 conda_step']);
    expect(notes[0]!.message).toContain('conda');
    expect(readFileSync(path.join(dir, 'results/env.txt'), 'utf8')).toBe('ran\n');
    // The same choice again: nothing to do (the state remembers the job ran without its environment).
    const again = runCliJson(['dry-run', 'results/env.txt', '--env', 'auto'], { cwd: dir, env: NO_CONDA });
    expect(ids(again.json, 'jobs').filter((j) => j.status === 'run')).toEqual([]);
    expect(runCliJson(['dry-run', 'results/env.txt', '--env', 'none'], { cwd: dir }).json.diagnostics).toEqual([]);
  }, 60_000);

  it('--set-threads and --set-resources change one rule for the run; bad values are usage errors', () => {
    const dir = project();
    const r = runCliJson(['dry-run', 'results/x.txt', '--cores', '8', '--set-threads', 'make=5', '--set-resources', 'make:mem=3G'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const job = (r.json.jobs as { threads: number; memory: string; command: string }[])[0]!;
    expect([job.threads, job.memory]).toEqual([5, '3G']);
    expect(job.command).toContain('echo hi 5');
    for (const bad of [['--set-threads', 'make'], ['--set-resources', 'make:gpu=1'], ['--set-threads', 'nope=2']]) {
      const b = runCliJson(['dry-run', ...bad], { cwd: dir });
      expect(b.code, bad.join(' ')).toBe(2);
      expect(JSON.stringify(b.json.diagnostics)).toContain('RUN018');
    }
  }, 60_000);
});
