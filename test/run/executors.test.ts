// Acceptance 2 (issue 18): the executor seam. The same table of cases runs against every executor:
// local, and a real single-node Slurm and Grid Engine (scripts/slurm-up.sh, scripts/sge-up.sh; .ci/run
// starts both). Retries, environments (created once, before any job starts or is submitted), temp
// outputs, -j, time limits, Ctrl-C and resume must behave the same. A cluster that is absent is
// skipped with a message, and is a failure under CI=true.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { startCli, waitFor } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';
import { onPath, toolsRequired } from '../helpers/tools.js';

interface Case {
  name: string;
  env: Record<string, string>;
  /** Why it cannot run here, or undefined. */
  absent: string | undefined;
  /** Cluster job ids still queued. */
  queued(ids: string[]): string[];
}

const slurmConf = process.env.SLURM_CONF ?? (existsSync('/tmp/oxo-slurm/slurm.conf') ? '/tmp/oxo-slurm/slurm.conf' : undefined);
const slurmEnv: Record<string, string> = slurmConf ? { SLURM_CONF: slurmConf } : {};
const sgeEnv = { SGE_ROOT: process.env.SGE_ROOT ?? '/var/lib/gridengine', SGE_CELL: process.env.SGE_CELL ?? 'default' };

function answers(cmd: string, args: string[], env: Record<string, string>): boolean {
  return onPath(cmd) && spawnSync(cmd, args, { env: { ...process.env, ...env }, timeout: 20_000 }).status === 0;
}

function listed(cmd: string, args: string[], env: Record<string, string>, ids: string[]): string[] {
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  const live = new Set(r.stdout.split('\n').map((l) => l.trim().split(/\s+/)[0]));
  return ids.filter((id) => live.has(id));
}

const CASES: Case[] = [
  { name: 'local', env: {}, absent: undefined, queued: () => [] },
  {
    name: 'slurm',
    env: slurmEnv,
    absent: answers('sinfo', ['-h'], slurmEnv) ? undefined : 'Slurm does not answer: run `sudo scripts/slurm-up.sh` and `export SLURM_CONF=/tmp/oxo-slurm/slurm.conf`',
    queued: (ids) => listed('squeue', ['-h', '-o', '%i'], slurmEnv, ids),
  },
  {
    name: 'sge',
    env: sgeEnv,
    absent: answers('qstat', ['-f'], sgeEnv) ? undefined : 'Grid Engine does not answer: run `sudo scripts/sge-up.sh` and `export SGE_ROOT=/var/lib/gridengine SGE_CELL=default`',
    queued: (ids) => listed('qstat', [], sgeEnv, ids).filter((id) => /^\d+$/.test(id)),
  },
];

/** A project in a folder whose name has a space, a quote, parentheses and a `%` (Slurm's pattern sign). */
function project(rules: string, samples = ['S1', 'S2']): string {
  const dir = path.join(tempDir('oxo-seam-'), "my project (100%) o'k");
  mkdirSync(path.join(dir, 'raw'), { recursive: true });
  mkdirSync(path.join(dir, 'marks'));
  for (const s of samples) writeFileSync(path.join(dir, 'raw', `${s}.txt`), `${s}\n`);
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]\nname = "seam"\n\n[defaults]\nmemory = "100M"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples.map((s) => `"${s}"`).join(', ')}]\n\n${rules}`,
  );
  return dir;
}

/** A stand-in `conda` (conda itself is not installed here): `env create -p P -f F` makes the prefix; `run -p P CMD` refuses a missing one. */
function fakeConda(dir: string): string {
  const bin = path.join(dir, 'fakebin');
  mkdirSync(bin);
  const created = path.join(dir, 'marks', 'created.txt');
  writeFileSync(
    path.join(bin, 'conda'),
    `#!/bin/sh
case "$1" in
env)
  shift; shift
  while [ $# -gt 0 ]; do case "$1" in -p) p=$2; shift 2;; -f) f=$2; shift 2;; *) shift;; esac; done
  mkdir -p "$p" && cp "$f" "$p/env.yaml" && echo "$p" >> '${created.replace(/'/g, `'\\''`)}'
  ;;
run)
  shift
  while [ $# -gt 0 ]; do case "$1" in --no-capture-output) shift;; -p) p=$2; shift 2;; *) break;; esac; done
  [ -d "$p" ] || { echo "EnvironmentLocationNotFound: Not a conda environment: $p" >&2; exit 1; }
  CONDA_PREFIX=$p exec "$@"
  ;;
esac
`,
  );
  chmodSync(path.join(bin, 'conda'), 0o755);
  return bin;
}

type Job = { id: string; outcome: string; attempts: number; slurm_job_id: string | null; code: string | null };
const jobsOf = (json: Record<string, unknown>) => Object.fromEntries((json.jobs as Job[]).map((j) => [j.id, j]));
const read = (dir: string, p: string) => readFileSync(path.join(dir, p), 'utf8');
const mark = (dir: string, name: string) => Number(read(dir, `marks/${name}`).trim());

for (const c of CASES) {
  const skip = c.absent !== undefined && !toolsRequired();
  if (skip) console.warn(`skipped: --executor ${c.name}: ${c.absent} (or run under CI=true to make this a failure)`);
  const args = ['--executor', c.name, '--poll-interval', '1s'];
  const run = (dir: string, more: string[] = [], env: Record<string, string> = {}) => runCliJson(['run', ...args, ...more], { cwd: dir, env: { ...c.env, ...env }, timeoutMs: 200_000 });

  describe.skipIf(skip)(`the executor seam: --executor ${c.name}`, () => {
    it('is available', () => {
      expect(c.absent, `under CI=true --executor ${c.name} must be available`).toBeUndefined();
    });

    it('runs a read-only pipeline from a project directory: jobs run and write there, a script is found next to the workflow file', () => {
      const root = tempDir('oxo-seam-central-');
      const pipe = path.join(root, 'pipe (shared)');
      mkdirSync(path.join(pipe, 'scripts'), { recursive: true });
      writeFileSync(
        path.join(pipe, 'main.oxoflow'),
        `[workflow]\nname = "central"\nsamples_file = "{config.sheet}"\n\n[config]\nsheet = { required = true }\n\n[defaults]\nmemory = "100M"\n\n` +
          `[[rules]]\nname = "copy"\ninput = ["{sample.reads}"]\noutput = ["out/{sample}.txt"]\nshell = "cat {input} > {output}"\n\n` +
          `[[rules]]\nname = "where"\ninput = ["out/S1.txt"]\noutput = ["out/where.txt"]\nscript = "scripts/where.sh"\n`,
      );
      writeFileSync(path.join(pipe, 'scripts', 'where.sh'), 'pwd > out/where.txt\n');
      const proj = path.join(root, 'proj');
      mkdirSync(path.join(proj, 'raw'), { recursive: true });
      writeFileSync(path.join(proj, 'raw', 'a.txt'), 'A\n');
      writeFileSync(path.join(proj, 'sheet.csv'), 'sample,reads\nS1,raw/a.txt\n');
      for (const d of [path.join(pipe, 'scripts'), pipe]) chmodSync(d, 0o555);
      try {
        const r = runCliJson(['run', ...args, path.join(pipe, 'main.oxoflow'), 'sheet=sheet.csv'], { cwd: proj, env: c.env, timeoutMs: 200_000 });
        expect(r.code, r.stderr).toBe(0);
        expect(read(proj, 'out/S1.txt')).toBe('A\n');
        expect(read(proj, 'out/where.txt').trim()).toBe(proj);
        expect(readdirSync(pipe).sort()).toEqual(['main.oxoflow', 'scripts']);
        expect(readdirSync(path.join(pipe, 'scripts'))).toEqual(['where.sh']);
      } finally {
        for (const d of [pipe, path.join(pipe, 'scripts')]) chmodSync(d, 0o755);
      }
    }, 240_000);

    it('retries a failing job, then runs what needs it; a second run does nothing', () => {
      const dir = project(`[[rules]]
name = "flaky"
input = ["raw/{sample}.txt"]
output = ["a/{sample}.txt"]
retries = 2
shell = "echo try >> marks/tries-{sample}; if [ $(wc -l < marks/tries-{sample}) -lt 2 ]; then echo half > {output}; exit 3; fi; cat {input} > {output}"

[[rules]]
name = "next"
input = ["a/{sample}.txt"]
output = ["b/{sample}.txt"]
shell = "cat {input} > {output}; echo next >> {output}"
`);
      const r = run(dir);
      expect(r.code, r.stderr).toBe(0);
      const jobs = jobsOf(r.json);
      expect(jobs['flaky[sample=S1]']).toMatchObject({ outcome: 'done', attempts: 2 });
      expect(read(dir, 'b/S1.txt')).toBe('S1\nnext\n');
      expect(read(dir, 'b/S2.txt')).toBe('S2\nnext\n');
      const again = run(dir);
      expect(again.code).toBe(0);
      expect((again.json.summary as { to_run: number }).to_run).toBe(0);
    }, 240_000);

    it('creates a conda environment once, before any job, and runs the jobs inside it', () => {
      const dir = project(`[[rules]]
name = "one"
input = ["raw/{sample}.txt"]
output = ["a/{sample}.txt"]
shell = "echo \\"$CONDA_PREFIX\\" > {output}"
[rules.environment]
conda = "envs/tools.yaml"

[[rules]]
name = "two"
input = ["a/{sample}.txt"]
output = ["b/{sample}.txt"]
shell = "cat {input} > {output}"
[rules.environment]
conda = "envs/tools.yaml"
`);
      mkdirSync(path.join(dir, 'envs'));
      writeFileSync(path.join(dir, 'envs/tools.yaml'), 'name: tools\ndependencies: []\n');
      const bin = fakeConda(dir);
      const r = run(dir, [], { PATH: `${bin}:${process.env.PATH}` });
      expect(r.code, r.stderr).toBe(0);
      const created = read(dir, 'marks/created.txt').trim().split('\n');
      expect(created).toHaveLength(1);
      expect(read(dir, 'b/S2.txt').trim()).toBe(created[0]);
    }, 240_000);

    it('removes a temp output once every job that reads it is done', () => {
      const dir = project(`[[rules]]
name = "make"
input = ["raw/{sample}.txt"]
output = ["tmp/{sample}.txt"]
temp_output = ["tmp/{sample}.txt"]
shell = "cat {input} > {output}"

[[rules]]
name = "use"
input = ["tmp/{sample}.txt"]
output = ["final/{sample}.txt"]
shell = "cat {input} > {output}"
`);
      const r = run(dir);
      expect(r.code, r.stderr).toBe(0);
      expect(read(dir, 'final/S1.txt')).toBe('S1\n');
      expect(existsSync(path.join(dir, 'tmp/S1.txt'))).toBe(false);
      expect(existsSync(path.join(dir, 'tmp/S2.txt'))).toBe(false);
    }, 240_000);

    it('-j 1 runs (or queues) one job at a time', () => {
      const dir = project(`[[rules]]
name = "slow"
input = ["raw/{sample}.txt"]
output = ["a/{sample}.txt"]
shell = "date +%s%N > marks/{sample}.start; sleep 1; cat {input} > {output}; date +%s%N > marks/{sample}.end"
`);
      const r = run(dir, ['-j', '1']);
      expect(r.code, r.stderr).toBe(0);
      const [first, second] = ['S1', 'S2'].sort((a, b) => mark(dir, `${a}.start`) - mark(dir, `${b}.start`));
      expect(mark(dir, `${second}.start`)).toBeGreaterThanOrEqual(mark(dir, `${first}.end`));
    }, 240_000);

    it('stops a job at its time limit (RUN022) and removes what it wrote', () => {
      const dir = project(
        `[[rules]]
name = "long"
input = ["raw/{sample}.txt"]
output = ["a/{sample}.txt"]
shell = "echo partial > {output}; sleep 120"
[rules.resources]
time_limit = "3s"
`,
        ['S1'],
      );
      const r = run(dir, [], { OXO_FLOW_KILL_GRACE: '1' });
      expect(r.code).toBe(1);
      expect(jobsOf(r.json)['long[sample=S1]']).toMatchObject({ outcome: 'timed out', code: 'RUN022' });
      expect(r.stdout).toContain('"RUN022"');
      expect(existsSync(path.join(dir, 'a/S1.txt'))).toBe(false);
      const ids = (r.json.jobs as Job[]).map((j) => j.slurm_job_id).filter((x): x is string => x !== null);
      expect(c.queued(ids)).toEqual([]);
    }, 240_000);

    it('Ctrl-C stops the running jobs and exits 130; the same command resumes without redoing finished jobs', async () => {
      const dir = project(`[[rules]]
name = "quick"
input = ["raw/{sample}.txt"]
output = ["a/{sample}.txt"]
shell = "echo {sample} >> marks/quick-runs; cat {input} > {output}"

[[rules]]
name = "wait"
input = ["a/{sample}.txt"]
output = ["b/{sample}.txt"]
shell = "echo half > {output}; touch marks/waiting-{sample}; while [ ! -e release ]; do sleep 0.2; done; cat {input} > {output}"
`);
      const bg = startCli(['--json', 'run', ...args], dir, { ...c.env, OXO_FLOW_KILL_GRACE: '2' });
      await waitFor(() => existsSync(path.join(dir, 'marks/waiting-S1')) && existsSync(path.join(dir, 'marks/waiting-S2')), 'both wait jobs running', 150_000);
      bg.child.kill('SIGINT');
      const { code } = await bg.exited;
      expect(code, bg.stderr()).toBe(130);
      const doc = JSON.parse(bg.stdout()) as Record<string, unknown>;
      expect(doc.interrupted).toBe(true);
      const jobs = jobsOf(doc);
      expect(jobs['wait[sample=S1]']!.outcome).toBe('interrupted');
      expect(jobs['quick[sample=S1]']!.outcome).toBe('done');
      expect(existsSync(path.join(dir, 'b/S1.txt'))).toBe(false);
      const ids = (doc.jobs as Job[]).map((j) => j.slurm_job_id).filter((x): x is string => x !== null);
      expect(c.queued(ids)).toEqual([]);
      expect(readdirSync(path.join(dir, '.oxo-flow'))).not.toContain('lock');
      writeFileSync(path.join(dir, 'release'), '');
      const again = run(dir);
      expect(again.code, again.stderr).toBe(0);
      expect(Object.keys(jobsOf(again.json)).sort()).toEqual(['wait[sample=S1]', 'wait[sample=S2]']);
      expect(read(dir, 'marks/quick-runs').trim().split('\n').sort()).toEqual(['S1', 'S2']);
      expect(read(dir, 'b/S2.txt')).toBe('S2\n');
    }, 240_000);
  });
}
