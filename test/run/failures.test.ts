// Failures: a job's outputs are removed before it runs again (tools that refuse to overwrite work, and
// a failed job's stale outputs from an earlier run never stay next to good ones), and what a failed
// attempt wrote goes too; files that are no job's output are never touched; -k
// runs independent jobs and reports blocked dependents; retries rerun a job; the summary shows the
// end of the failed job's log.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { lines } from '../helpers/run-async.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

function project(upShell: string, extra = ''): string {
  const dir = tempDir('oxo-fail-');
  mkdirSync(path.join(dir, 'raw'));
  for (const s of ['A', 'B']) writeFileSync(path.join(dir, 'raw', `${s}.txt`), s);
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]
name = "fail"

[[sample_groups]]
name = "all"
samples = ["A", "B"]

[[rules]]
name = "up"
input = ["raw/{sample}.txt"]
output = ["up/{sample}.txt", "up/{sample}.extra"]
shell = "${upShell}"
${extra}

[[rules]]
name = "down"
input = ["up/{sample}.txt"]
output = ["down/{sample}.txt"]
shell = "cp {input} {output}"
`,
  );
  return dir;
}

const FAIL_ON_A = `echo half > up/{sample}.txt; echo boom-{sample} >&2; if [ {sample} = A ]; then exit 3; fi; cp {input} up/{sample}.txt; touch up/{sample}.extra`;

describe('failures', () => {
  it('without -k: exit 1, partial and stale outputs removed, other files kept, log tail in the summary', () => {
    const dir = project(FAIL_ON_A);
    mkdirSync(path.join(dir, 'up'));
    writeFileSync(path.join(dir, 'up/A.extra'), 'from an earlier run');
    writeFileSync(path.join(dir, 'up/notes.txt'), 'mine');
    const r = runCli(['run', '-j', '1'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('RUN020');
    expect(r.stderr).toContain('up[sample=A]: exit 3');
    expect(r.stderr).toContain('│ boom-A');
    expect(existsSync(path.join(dir, 'up/A.txt'))).toBe(false);
    expect(existsSync(path.join(dir, 'up/A.extra'))).toBe(false);
    expect(readFileSync(path.join(dir, 'up/notes.txt'), 'utf8')).toBe('mine');
  }, 60_000);

  it('-k runs what does not depend on the failure and reports blocked jobs', () => {
    const dir = project(FAIL_ON_A);
    const r = runCliJson(['run', '-k', '-j', '1'], { cwd: dir });
    expect(r.code).toBe(1);
    const outcome = Object.fromEntries((r.json.jobs as { id: string; outcome: string }[]).map((j) => [j.id, j.outcome]));
    expect(outcome).toEqual({ 'up[sample=A]': 'failed', 'up[sample=B]': 'done', 'down[sample=A]': 'blocked', 'down[sample=B]': 'done' });
    expect((r.json.diagnostics as { code: string }[]).map((d) => d.code).sort()).toEqual(['RUN020', 'RUN023']);
  }, 60_000);

  it('retries rerun a failing job; a job that exits 0 without its outputs fails', () => {
    // Fails the first time (no marker yet), succeeds the second.
    const dir = project(`echo try >> tries-{sample}; if [ ! -e marker-{sample} ]; then touch marker-{sample}; exit 1; fi; cp {input} up/{sample}.txt; touch up/{sample}.extra`, 'retries = 1');
    const r = runCliJson(['run', '-j', '1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(path.join(dir, 'tries-A'))).toEqual(['try', 'try']);
    const noOut = runCliJson(['run'], { cwd: project('cp {input} up/{sample}.txt') });
    expect(noOut.code).toBe(1);
    expect((noOut.json.diagnostics as { code: string; message: string }[])[0]!.message).toContain('did not write up/A.extra');
  }, 60_000);
});
