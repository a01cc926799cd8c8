// The project lock (issue 18): a second run in the same project refuses at once, naming the holder;
// a lock whose holder is gone is taken over with a notice; a lock from another host is taken over
// only after --lock-timeout; `oxo-flow unlock` removes the rest; dry-run, validate and graph never
// need the lock. All through the built CLI, with real processes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { startCli, waitFor } from '../helpers/run-async.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

function project(shell: string): string {
  const dir = tempDir('oxo-lock-');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "lock"\n\n[[rules]]\nname = "one"\noutput = ["out.txt"]\nshell = "${shell}"\n`);
  return dir;
}

function writeLock(dir: string, holder: Record<string, unknown>): string {
  mkdirSync(path.join(dir, '.oxo-flow'), { recursive: true });
  const file = path.join(dir, '.oxo-flow', 'lock');
  writeFileSync(file, JSON.stringify({ runId: 'someone-else', command: 'oxo-flow run main.oxoflow', ...holder }));
  return file;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim() as unknown as number;
}

describe('the project lock', () => {
  it('a second run refuses at once, naming the holder; the first run is not disturbed', async () => {
    const dir = project('touch started; while [ ! -e release ]; do sleep 0.1; done; echo done > out.txt');
    const first = startCli(['run'], dir);
    await waitFor(() => existsSync(path.join(dir, 'started')), 'the first run to start its job');
    const second = runCliJson(['run'], { cwd: dir });
    expect(second.code).toBe(1);
    const d = (second.json.diagnostics as { code: string; message: string }[]).find((x) => x.code === 'RUN040')!;
    expect(d.message).toContain(`pid ${first.child.pid}`);
    expect(d.message).toContain(hostname());
    expect(d.message).toContain('oxo-flow run');
    expect(d.message).toMatch(/started \d{4}-\d\d-\d\dT/);
    const human = runCli(['run'], { cwd: dir });
    expect(human.stderr).toContain('oxo-flow unlock');
    writeFileSync(path.join(dir, 'release'), '');
    const { code } = await first.exited;
    expect(code, first.stderr()).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('done\n');
    expect(existsSync(path.join(dir, '.oxo-flow', 'lock'))).toBe(false);
  }, 60_000);

  it('dry-run, validate and graph do not need the lock', () => {
    const dir = project('echo x > out.txt');
    writeLock(dir, { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() });
    for (const cmd of ['dry-run', 'validate', 'graph']) expect(runCli([cmd], { cwd: dir }).code, cmd).toBe(0);
    expect(runCli(['run'], { cwd: dir }).code).toBe(1);
  }, 60_000);

  it('a lock left by a dead run on this host is taken over with a notice', () => {
    const dir = project('echo x > out.txt');
    writeLock(dir, { pid: Number(deadPid()), host: hostname(), startedAt: new Date().toISOString() });
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const d = (r.json.diagnostics as { code: string; message: string }[]).find((x) => x.code === 'RUN041')!;
    expect(d.message).toMatch(/no longer runs/);
    expect(existsSync(path.join(dir, 'out.txt'))).toBe(true);
  }, 60_000);

  it("another host's lock is taken over only after --lock-timeout", () => {
    const dir = project('echo x > out.txt');
    writeLock(dir, { pid: 4242, host: 'other-node', startedAt: new Date(Date.now() - 3_600_000).toISOString() });
    const refused = runCliJson(['run'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(JSON.stringify(refused.json.diagnostics)).toContain('other-node');
    const young = runCliJson(['run', '--lock-timeout', '2h'], { cwd: dir });
    expect(young.code).toBe(1);
    const taken = runCliJson(['run', '--lock-timeout', '30m'], { cwd: dir });
    expect(taken.code, taken.stderr).toBe(0);
    expect(JSON.stringify(taken.json.diagnostics)).toContain('RUN041');
  }, 60_000);

  it('oxo-flow unlock removes a lock, but not one whose run is alive here (unless --force)', () => {
    const dir = project('echo x > out.txt');
    const file = writeLock(dir, { pid: 4242, host: 'other-node', startedAt: new Date().toISOString() });
    const r = runCli(['unlock'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('other-node');
    expect(existsSync(file)).toBe(false);
    expect(runCli(['unlock'], { cwd: dir }).code).toBe(0);
    writeLock(dir, { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() });
    // From elsewhere, the project is named with -d (a workflow file names the pipeline, not the project).
    const alive = runCliJson(['unlock', '-d', dir], { cwd: tempDir('oxo-elsewhere-') });
    expect(alive.code).toBe(1);
    expect(JSON.stringify(alive.json.diagnostics)).toContain('RUN048');
    expect(existsSync(file)).toBe(true);
    expect(runCli(['unlock', '--force'], { cwd: dir }).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});
