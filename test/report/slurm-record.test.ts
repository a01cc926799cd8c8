// Issue 20, acceptance 1 (Slurm): a run with --executor slurm records each job's Slurm job id in its
// trace row, and Slurm's own figures (sacct, or `sacct -c` from the job completion log when there is
// no accounting database) once the run ends. Needs a Slurm that answers (scripts/slurm-up.sh).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools, toolsRequired } from '../helpers/tools.js';

const CONF = process.env.SLURM_CONF ?? (existsSync('/tmp/oxo-slurm/slurm.conf') ? '/tmp/oxo-slurm/slurm.conf' : undefined);
const env = CONF ? { SLURM_CONF: CONF } : {};
const HOW = 'run `sudo scripts/slurm-up.sh` and `export SLURM_CONF=/tmp/oxo-slurm/slurm.conf` (or run under CI=true to make this a failure)';
const tools = requireTools(['sbatch', 'squeue', 'scancel', 'sinfo', 'sacct'], HOW);
const answers = !tools.skip && spawnSync('sinfo', ['-h'], { env: { ...process.env, ...env } }).status === 0;
const skip = tools.skip || (!answers && !toolsRequired());

describe.skipIf(skip)('run record of a Slurm run', () => {
  it('records the Slurm job id of every job, with sacct figures', () => {
    expect(answers, 'Slurm does not answer').toBe(true);
    const dir = tempDir('oxo-slurm-record-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      '[workflow]\nname = "slurm-record"\n\n[defaults]\nmemory = "100M"\n\n[[rules]]\nname = "one"\noutput = ["one.txt"]\nshell = "echo one > {output}"\n\n[[rules]]\nname = "two"\ninput = ["one.txt"]\noutput = ["two.txt"]\nshell = "cat {input} > {output}"\n',
    );
    const r = runCliJson(['run', '--executor', 'slurm'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const jobs = r.json.jobs as { id: string; slurm_job_id: string; trace: { executor: string; executorId: string; slurm?: { state?: string } } }[];
    expect(jobs.map((j) => j.id)).toEqual(['one', 'two']);
    for (const j of jobs) {
      expect(j.slurm_job_id).toMatch(/^\d+$/);
      expect(j.trace.executor).toBe('slurm');
      expect(j.trace.executorId).toBe(j.slurm_job_id);
      expect(j.trace.slurm?.state).toBe('COMPLETED');
    }
    const tsv = readFileSync(path.join(dir, r.json.record as string, 'trace.tsv'), 'utf8').trimEnd().split('\n');
    const cols = tsv[0]!.split('\t');
    const rows = tsv.slice(1).map((l) => l.split('\t'));
    expect(rows.map((x) => x[cols.indexOf('executor_id')])).toEqual(jobs.map((j) => j.slurm_job_id));
    expect(rows.map((x) => x[cols.indexOf('slurm_state')])).toEqual(['COMPLETED', 'COMPLETED']);
    const meta = JSON.parse(readFileSync(path.join(dir, r.json.record as string, 'run.json'), 'utf8'));
    expect(meta.executor).toBe('slurm');
  }, 180_000);
});
