// Temp and protected outputs through the built CLI, as a Snakemake user expects them: a removed temp
// output does not make its producer rerun while everything that read it is up to date; an up-to-date
// protected output is no error; a job that would really remake one still is; a temp output nobody
// reads goes at the end of the run. Every step also checks that run executes what dry-run says.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

const WORKFLOW = `[workflow]
name = "temp-protected"

[[sample_groups]]
name = "all"
samples = ["A", "B"]

[[rules]]
name = "sort"
input = ["raw/{sample}.txt"]
temp_output = ["tmp/{sample}.sorted"]
shell = "echo sort:{sample} >> ran.txt; sort {input} > {output}"

[[rules]]
name = "count"
input = ["tmp/{sample}.sorted"]
protected_output = ["final/{sample}.count"]
shell = "echo count:{sample} >> ran.txt; wc -l < {input} > {output}"

[[rules]]
name = "scratch"
input = ["raw/A.txt"]
temp_output = ["tmp/scratch.txt"]
output = ["scratch.done"]
shell = "echo scratch >> ran.txt; cp {input} tmp/scratch.txt; touch scratch.done"
`;

function project(): string {
  const dir = tempDir('oxo-temp-');
  writeFileSync(path.join(dir, 'main.oxoflow'), WORKFLOW);
  mkdirSync(path.join(dir, 'raw'));
  writeFileSync(path.join(dir, 'raw', 'A.txt'), 'b\na\n');
  writeFileSync(path.join(dir, 'raw', 'B.txt'), 'c\n');
  return dir;
}

/** Run after dry-run; returns what dry-run planned, what the jobs did, and run's result. */
function step(dir: string, args: string[] = []) {
  const dry = runCliJson(['dry-run', ...args], { cwd: dir });
  expect(dry.code, dry.stderr).toBe(0);
  const planned = (dry.json.jobs as { id: string; status: string }[]).filter((j) => j.status === 'run').map((j) => j.id).sort();
  rmSync(path.join(dir, 'ran.txt'), { force: true });
  const run = runCliJson(['run', '-j', '2', ...args], { cwd: dir });
  const ranFile = path.join(dir, 'ran.txt');
  const ran = (existsSync(ranFile) ? readFileSync(ranFile, 'utf8').trim().split('\n') : []).sort();
  // Parity: when run starts at all, the jobs that ran are the jobs dry-run said would run.
  if (run.code === 0) expect(ran.map((l) => l.replace(/^(\w+):(\w+)$/, '$1[sample=$2]')).sort()).toEqual(planned);
  return { planned, ran, run, dry };
}

describe('temp and protected outputs', () => {
  it('a removed temp output keeps its pipeline up to date, and a protected output is remade only when it must be', () => {
    const dir = project();
    const first = step(dir);
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(first.ran).toEqual(['count:A', 'count:B', 'scratch', 'sort:A', 'sort:B']);
    expect(first.planned).toHaveLength(5);
    // Read by count, then removed; scratch's temp output is read by nobody: removed at the end.
    expect(existsSync(path.join(dir, 'tmp/A.sorted'))).toBe(false);
    expect(existsSync(path.join(dir, 'tmp/B.sorted'))).toBe(false);
    expect(existsSync(path.join(dir, 'tmp/scratch.txt'))).toBe(false);
    expect(readFileSync(path.join(dir, 'final/A.count'), 'utf8')).toBe('2\n');

    // 2. Nothing to do: the temp files are gone but nothing needs them; the protected outputs are fine.
    const second = step(dir);
    expect(second.run.code, second.run.stderr).toBe(0);
    expect(second.planned).toEqual([]);
    expect(second.ran).toEqual([]);
    const reasons = Object.fromEntries((second.dry.json.jobs as { id: string; reason: string }[]).map((j) => [j.id, j.reason]));
    expect(reasons['sort[sample=A]']).toBe('up to date');

    // 3. A changed raw input reaches through the removed temp file: sort and count of B must run, and
    // count would overwrite a protected output: refused before anything starts (RUN007).
    writeFileSync(path.join(dir, 'raw', 'B.txt'), 'c\nd\n');
    const third = step(dir);
    expect(third.planned).toEqual(['count[sample=B]', 'sort[sample=B]']);
    expect(third.run.code).toBe(1);
    expect(JSON.stringify(third.run.json.diagnostics)).toContain('RUN007');
    expect(third.ran).toEqual([]);

    // 4. The user removes the protected file on purpose: B's chain runs, A's stays up to date.
    chmodSync(path.join(dir, 'final'), 0o755);
    rmSync(path.join(dir, 'final/B.count'), { force: true });
    const fourth = step(dir);
    expect(fourth.run.code, fourth.run.stderr).toBe(0);
    expect(fourth.ran).toEqual(['count:B', 'sort:B']);
    expect(fourth.planned).toEqual(['count[sample=B]', 'sort[sample=B]']);
    expect(readFileSync(path.join(dir, 'final/B.count'), 'utf8')).toBe('2\n');

    // 5. A job that reads a removed temp output and must run makes its producer run again.
    rmSync(path.join(dir, 'final/A.count'), { force: true });
    const fifth = step(dir);
    expect(fifth.planned).toEqual(['count[sample=A]', 'sort[sample=A]']);
    expect(fifth.ran).toEqual(['count:A', 'sort:A']);
    const why = (fifth.dry.json.jobs as { id: string; detail: string | null }[]).find((j) => j.id === 'sort[sample=A]')!;
    expect(why.detail).toContain('needed by count[sample=A]');

    // 6. A temp output named as a target is made and kept.
    const sixth = step(dir, ['-t', 'tmp/scratch.txt']);
    expect(sixth.planned).toEqual(['scratch']);
    expect(sixth.ran).toEqual(['scratch']);
    expect(readFileSync(path.join(dir, 'tmp/scratch.txt'), 'utf8')).toBe('b\na\n');

    // 7. Up to date again, the kept temp file included.
    expect(step(dir).planned).toEqual([]);
  }, 300_000);
});
