// Acceptance 4: -j and the thread and memory pools are never exceeded (jobs record when they start
// and end; the test counts overlaps, not durations), a job that cannot fit is an error before
// anything starts, time_limit stops the job's whole process group, Ctrl-C stops every job and exits 130.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { lines, processAlive, startCli, waitFor } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';

const SAMPLES = ['A', 'B', 'C', 'D', 'E', 'F'];

function project(rule: string, samples = SAMPLES): string {
  const dir = tempDir('oxo-limits-');
  mkdirSync(path.join(dir, 'raw'));
  for (const s of samples) writeFileSync(path.join(dir, 'raw', `${s}.txt`), s);
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]
name = "limits"

[[sample_groups]]
name = "all"
samples = [${samples.map((s) => `"${s}"`).join(', ')}]

[[rules]]
name = "work"
input = ["raw/{sample}.txt"]
output = ["out/{sample}.txt"]
${rule}
`,
  );
  return dir;
}

// Start and end marks from the job itself (nanoseconds, GNU date).
const TIMED = `shell = "mkdir -p marks; date +%s%N > marks/{sample}.start; sleep 0.3; date +%s%N > marks/{sample}.end; cp {input} {output}"`;

/** The largest number of jobs whose [start, end] intervals overlap at one instant. */
function maxOverlap(dir: string): number {
  const marks = path.join(dir, 'marks');
  const events: [bigint, number][] = [];
  for (const f of readdirSync(marks).filter((n) => n.endsWith('.start'))) {
    const s = f.slice(0, -'.start'.length);
    events.push([BigInt(readFileSync(path.join(marks, f), 'utf8').trim()), 1]);
    events.push([BigInt(readFileSync(path.join(marks, `${s}.end`), 'utf8').trim()), -1]);
  }
  expect(events.length).toBe(SAMPLES.length * 2);
  events.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  let now = 0;
  let max = 0;
  for (const [, d] of events) max = Math.max(max, (now += d));
  return max;
}

describe('run limits', () => {
  it('-j caps the jobs running at once', () => {
    const dir = project(TIMED);
    const r = runCliJson(['run', '-j', '2', '--cores', '16'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(maxOverlap(dir)).toBeLessThanOrEqual(2);
  }, 60_000);

  it('threads are counted against --cores', () => {
    const dir = project(`threads = 2\n${TIMED}`);
    const r = runCliJson(['run', '-j', '10', '--cores', '4'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(maxOverlap(dir)).toBeLessThanOrEqual(2);
  }, 60_000);

  it('memory is counted against --memory', () => {
    const dir = project(`memory = "1G"\n${TIMED}`);
    const r = runCliJson(['run', '-j', '10', '--cores', '16', '--memory', '3G'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(maxOverlap(dir)).toBeLessThanOrEqual(3);
  }, 60_000);

  it('threads and memory above the run are capped with a notice; a hard memory minimum that cannot fit is an error before anything starts', () => {
    // As Snakemake does: 8 threads on a 4-core run become 4, and {threads} says so.
    const dir = project(`threads = 8\nshell = "echo {threads} > {output}"`, ['A']);
    const r = runCliJson(['run', '--cores', '4'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect((r.json.diagnostics as { code: string; message: string }[]).map((d) => d.code)).toEqual(['RUN015']);
    expect(lines(path.join(dir, 'out', 'A.txt'))).toEqual(['4']);
    const mem = runCliJson(['run', '--memory', '1G'], { cwd: project(`memory = "2G"\nshell = "echo {memory} > {output}"`, ['A']) });
    expect(mem.code, mem.stderr).toBe(0);
    expect((mem.json.diagnostics as { code: string }[]).map((d) => d.code)).toEqual(['RUN016']);
    const hard = project(`memory = "2G"\n${TIMED}\n[rules.resources]\nmemory_hard = true`);
    const refused = runCliJson(['run', '--memory', '1G'], { cwd: hard });
    expect(refused.code).toBe(1);
    expect((refused.json.diagnostics as { code: string }[]).map((d) => d.code)).toEqual(['RUN002']);
    expect(lines(path.join(hard, 'marks', 'A.start'))).toEqual([]);
  }, 60_000);

  it('time_limit stops the whole process group', () => {
    // The shell starts a background sleep (same process group) and waits: both must be gone after.
    const dir = project(`shell = "sleep 60 & echo $! > bg-{sample}.pid; sleep 60; cp {input} {output}"\n[rules.resources]\ntime_limit = "1s"`, ['A']);
    const r = runCliJson(['run'], { cwd: dir, env: { OXO_FLOW_KILL_GRACE: '1' } });
    expect(r.code).toBe(1);
    expect((r.json.diagnostics as { code: string }[]).map((d) => d.code)).toContain('RUN022');
    const pid = Number(readFileSync(path.join(dir, 'bg-A.pid'), 'utf8'));
    expect(processAlive(pid)).toBe(false);
    expect(lines(path.join(dir, 'out', 'A.txt'))).toEqual([]);
  }, 60_000);

  it('SIGINT stops every running job, keeps the state consistent and exits 130', async () => {
    // Each job records its own pid and a background child's, writes a partial output and waits.
    const dir = project(`shell = "sleep 60 & echo $! >> pids; echo $$ >> pids; echo partial > {output}; wait"`, ['A', 'B', 'C']);
    const bg = startCli(['--json', 'run', '-j', '2', '--cores', '16'], dir);
    await waitFor(() => lines(path.join(dir, 'pids')).length >= 4, 'two jobs to start');
    bg.child.kill('SIGINT');
    const { code } = await bg.exited;
    expect(code).toBe(130);
    const doc = JSON.parse(bg.stdout());
    expect(doc.interrupted).toBe(true);
    for (const pid of lines(path.join(dir, 'pids')).map(Number)) expect(processAlive(pid), `pid ${pid}`).toBe(false);
    // Partial outputs removed; the next dry-run plans every job again.
    expect(readdirSync(path.join(dir, 'out'))).toEqual([]);
    const dry = runCliJson(['dry-run'], { cwd: dir });
    expect((dry.json.summary as { run: number }).run).toBe(3);
  }, 60_000);
});
