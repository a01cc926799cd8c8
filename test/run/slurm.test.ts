// `run --executor slurm` against a real single-node Slurm (scripts/slurm-up.sh starts one), for what
// is Slurm's own (the cases every executor shares are in executors.test.ts): jobs are submitted only
// when what they need is done, so the order holds; a failure's dependents are never submitted; Ctrl-C
// cancels what was submitted; a re-run after the runner died adopts the jobs still queued; the
// profile's per-rule options, `gpu` and `sbatch_args` reach sbatch; a long sample name runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { lines, startCli, waitFor } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools, toolsRequired } from '../helpers/tools.js';

const CONF = process.env.SLURM_CONF ?? (existsSync('/tmp/oxo-slurm/slurm.conf') ? '/tmp/oxo-slurm/slurm.conf' : undefined);
const env = CONF ? { SLURM_CONF: CONF } : {};
const HOW = 'run `sudo scripts/slurm-up.sh` and `export SLURM_CONF=/tmp/oxo-slurm/slurm.conf` (or run under CI=true to make this a failure)';
const tools = requireTools(['sbatch', 'squeue', 'scancel', 'sinfo'], HOW);
const answers = !tools.skip && spawnSync('sinfo', ['-h'], { env: { ...process.env, ...env } }).status === 0;
if (!tools.skip && !answers && !toolsRequired()) console.warn(`skipped: Slurm does not answer. To enable: ${HOW}`);
const skip = tools.skip || (!answers && !toolsRequired());

const SAMPLES = ['S1', 'S2'];

function project(firstShell: string): string {
  const dir = tempDir('oxo-slurm-');
  mkdirSync(path.join(dir, 'raw'));
  for (const s of SAMPLES) writeFileSync(path.join(dir, 'raw', `${s}.txt`), `${s}\n`);
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]
name = "slurm"

[defaults]
memory = "100M"

[[sample_groups]]
name = "all"
samples = ["S1", "S2"]

[[rules]]
name = "first"
input = ["raw/{sample}.txt"]
output = ["a/{sample}.txt"]
shell = "${firstShell}"

[[rules]]
name = "second"
input = ["a/{sample}.txt"]
output = ["b/{sample}.txt"]
shell = "date +%s%N > marks/second-{sample}.start; cat {input} > {output}; echo second >> {output}; date +%s%N > marks/second-{sample}.end"

[[rules]]
name = "merge"
input = ["b/S1.txt", "b/S2.txt"]
output = ["merged.txt"]
shell = "date +%s%N > marks/merge.start; cat {input} > {output}"
`,
  );
  mkdirSync(path.join(dir, 'marks'));
  return dir;
}

const FIRST = 'echo {sample} >> ran.txt; date +%s%N > marks/first-{sample}.start; sleep 1; cat {input} > {output}; date +%s%N > marks/first-{sample}.end';
const mark = (dir: string, name: string) => BigInt(readFileSync(path.join(dir, 'marks', name), 'utf8').trim());

function active(ids: string[]): string[] {
  const r = spawnSync('squeue', ['-h', '-t', 'PENDING,RUNNING,CONFIGURING,COMPLETING', '-o', '%i'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const live = new Set(r.stdout.split('\n').map((l) => l.trim()));
  return ids.filter((id) => live.has(id));
}

describe.skipIf(skip)('run --executor slurm', () => {
  it('runs a multi-rule, multi-sample workflow in dependency order', () => {
    expect(tools.missing, 'Slurm missing under CI=true').toEqual([]);
    expect(answers, 'sinfo does not answer under CI=true').toBe(true);
    const dir = project(FIRST);
    const r = runCliJson(['run', '--executor', 'slurm', '--poll-interval', '1s'], { cwd: dir, env, timeoutMs: 170_000 });
    expect(r.code, r.stderr).toBe(0);
    const jobs = r.json.jobs as { id: string; outcome: string; slurm_job_id: string | null }[];
    expect(jobs.map((j) => j.outcome)).toEqual(Array(5).fill('done'));
    expect(jobs.every((j) => /^\d+$/.test(j.slurm_job_id ?? ''))).toBe(true);
    expect(readFileSync(path.join(dir, 'merged.txt'), 'utf8')).toBe('S1\nsecond\nS2\nsecond\n');
    for (const s of SAMPLES) expect(mark(dir, `second-${s}.start`) >= mark(dir, `first-${s}.end`)).toBe(true);
    for (const s of SAMPLES) expect(mark(dir, 'merge.start') >= mark(dir, `second-${s}.end`)).toBe(true);
    // The same state as a local run: nothing left to do.
    expect((runCliJson(['dry-run'], { cwd: dir }).json.summary as { run: number }).run).toBe(0);
  }, 180_000);

  it('a failing job blocks its dependents (never submitted) and the run exits 1', () => {
    const dir = project(`if [ {sample} = S1 ]; then echo broken >&2; exit 4; fi; ${FIRST}`);
    const r = runCliJson(['run', '--executor', 'slurm', '--poll-interval', '1s', '-k'], { cwd: dir, env, timeoutMs: 170_000 });
    expect(r.code).toBe(1);
    const outcome = Object.fromEntries((r.json.jobs as { id: string; outcome: string }[]).map((j) => [j.id, j.outcome]));
    expect(outcome).toEqual({
      'first[sample=S1]': 'failed',
      'first[sample=S2]': 'done',
      'second[sample=S1]': 'blocked',
      'second[sample=S2]': 'done',
      merge: 'blocked',
    });
    expect(existsSync(path.join(dir, 'b/S1.txt'))).toBe(false);
    const ids = (r.json.jobs as { slurm_job_id: string | null }[]).map((j) => j.slurm_job_id).filter((x): x is string => x !== null);
    expect(active(ids)).toEqual([]);
  }, 180_000);

  it('Ctrl-C cancels every submitted job and exits 130', async () => {
    const dir = project('sleep 120; cat {input} > {output}');
    const bg = startCli(['--json', 'run', '--executor', 'slurm', '--poll-interval', '1s'], dir, env);
    // -j is applied: only the two jobs that can run are submitted, not the whole DAG.
    await waitFor(() => (bg.stderr().match(/submit /g) ?? []).length >= 2, 'two submissions', 60_000);
    bg.child.kill('SIGINT');
    const { code } = await bg.exited;
    expect(code, bg.stderr()).toBe(130);
    const doc = JSON.parse(bg.stdout());
    const ids = (doc.jobs as { slurm_job_id: string | null }[]).map((j) => j.slurm_job_id).filter((x): x is string => x !== null);
    expect(ids).toHaveLength(2);
    expect(active(ids)).toEqual([]);
  }, 180_000);

  it('after the runner dies, a re-run adopts the queued jobs instead of submitting them again', async () => {
    const dir = project(`while [ ! -e release ]; do sleep 0.2; done; ${FIRST}`);
    const bg = startCli(['run', '--executor', 'slurm', '--poll-interval', '1s'], dir, env);
    await waitFor(() => (bg.stderr().match(/submit /g) ?? []).length >= 2, 'two submissions', 60_000);
    bg.child.kill('SIGKILL');
    await bg.exited;
    writeFileSync(path.join(dir, 'release'), '');
    const again = runCliJson(['run', '--executor', 'slurm', '--poll-interval', '1s'], { cwd: dir, env, timeoutMs: 170_000 });
    expect(again.code, again.stderr).toBe(0);
    // The dead run's lock is taken over with a notice, and its two queued jobs are adopted.
    expect(again.stdout).toContain('RUN041');
    expect((again.stderr.match(/adopted /g) ?? []).length).toBe(2);
    expect(lines(path.join(dir, 'ran.txt')).sort()).toEqual(['S1', 'S2']);
    expect(readFileSync(path.join(dir, 'merged.txt'), 'utf8')).toBe('S1\nsecond\nS2\nsecond\n');
  }, 180_000);

  it('the profile: per-rule partition, sbatch_args and gpu reach sbatch; a refused job is RUN046 and nothing else is submitted after it', () => {
    const dir = project(FIRST);
    mkdirSync(path.join(dir, '.oxo-flow'), { recursive: true });
    writeFileSync(path.join(dir, '.oxo-flow/profile.toml'), 'executor = "slurm"\npoll_interval = "1s"\n[slurm]\nsbatch_args = ["--comment=oxo-profile"]\n[slurm.rules.second]\npartition = "no-such-partition"\n');
    const r = runCliJson(['run', '-j', '1'], { cwd: dir, env, timeoutMs: 170_000 });
    expect(r.code).toBe(1);
    const jobs = r.json.jobs as { id: string; outcome: string; code: string | null; message: string | null; slurm_job_id: string | null }[];
    const second = jobs.find((j) => j.id === 'second[sample=S1]')!;
    expect(second).toMatchObject({ outcome: 'failed', code: 'RUN046' });
    expect(second.message).toMatch(/partition/i);
    const first = jobs.find((j) => j.id === 'first[sample=S1]')!;
    const shown = spawnSync('scontrol', ['show', 'job', first.slurm_job_id!], { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout;
    expect(shown).toContain('Comment=oxo-profile');
    expect(jobs.find((j) => j.id === 'merge')!.outcome).not.toBe('done');
  }, 180_000);

  it('gpu becomes --gres=gpu:N (this node has none, so Slurm refuses it, before anything else is submitted)', () => {
    const dir = project(FIRST);
    const text = readFileSync(path.join(dir, 'main.oxoflow'), 'utf8').replace('shell = "${FIRST}"', `shell = "${FIRST}"\n[rules.resources]\ngpu = 1`);
    writeFileSync(path.join(dir, 'main.oxoflow'), text.includes('gpu = 1') ? text : text.replace('name = "first"', 'name = "first"\nresources = { gpu = 1 }'));
    const r = runCliJson(['run', '--executor', 'slurm', '--poll-interval', '1s'], { cwd: dir, env, timeoutMs: 170_000 });
    expect(r.code).toBe(1);
    const messages = (r.json.jobs as { message: string | null }[]).map((j) => j.message ?? '').join('\n');
    expect(messages).toMatch(/gres|generic resource/i);
  }, 180_000);

  it('a long sample name runs to the end (job names and log names are bounded)', () => {
    const long = `S${'x'.repeat(300)}`;
    const dir = tempDir('oxo-slurm-long-');
    mkdirSync(path.join(dir, 'raw'));
    writeFileSync(path.join(dir, 'raw', `${long.slice(0, 200)}.txt`), 'x\n');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "long"\n\n[[sample_groups]]\nname = "all"\nsamples = ["${long}", "short"]\n\n[[rules]]\nname = "one"\noutput = ["out/{sample}.txt"]\nshell = "echo ok > out/$(echo {sample} | cut -c1-50).txt; touch {output} 2>/dev/null || true"\n`,
    );
    const r = runCliJson(['run', '--executor', 'slurm', '--poll-interval', '1s', '-k'], { cwd: dir, env, timeoutMs: 170_000 });
    const jobs = r.json.jobs as { id: string; outcome: string; code: string | null }[];
    // The short sample's job is submitted and done; the long one fails on its own (its output name is
    // too long for the file system), with a code, and nothing aborts half-way.
    expect(jobs.find((j) => j.id === 'one[sample=short]')!.outcome).toBe('done');
    expect(jobs.find((j) => j.id !== 'one[sample=short]')!.code).toMatch(/RUN0(21|42)/);
  }, 180_000);

  it('a script rule on a node reads its job from the environment and the JSON file the runner wrote', () => {
    const dir = tempDir('oxo-slurm-script-');
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(
      path.join(dir, 'scripts', 'job.py'),
      'import json, os\njob = json.load(open(os.environ["OXO_JOB_JSON"]))\nopen(job["output"][0], "w").write("%s %s %s\\n" % (os.environ["OXO_SAMPLE"], job["params"]["rg"], os.environ.get("SLURM_JOB_ID", "no slurm")))\n',
    );
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "script"\n\n[defaults]\nmemory = "100M"\n\n[[sample_groups]]\nname = "all"\nsamples = ["S1"]\n\n[[rules]]\nname = "py"\noutput = ["out/{sample}.txt"]\nparams = { rg = "ID:{sample}" }\nscript = "scripts/job.py"\n`,
    );
    const r = runCliJson(['run', '--executor', 'slurm', '--poll-interval', '1s'], { cwd: dir, env, timeoutMs: 170_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'out', 'S1.txt'), 'utf8')).toMatch(/^S1 ID:S1 \d+\n$/);
  }, 180_000);
});
