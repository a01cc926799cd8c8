// The run state as a journal (issue 25): one append-only journal per run, group commit, an index that
// start-up reads instead of history, compaction that is crash-safe and idempotent, and a project with
// older per-job state files read correctly, then folded. Real files, real processes, the built CLI.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateStore } from '../../src/run/state.js';
import { jobRecord as rec } from '../helpers/job-records.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { CLI, runCli, runCliJson } from '../helpers/run-cli.js';

const legacyName = (id: string) => `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`;
const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

function project(rules: string): string {
  const dir = tempDir('oxo-journal-');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "journal"\n\n${rules}`);
  return dir;
}

const mounts: string[] = [];
const children: number[] = [];
afterAll(() => {
  for (const m of mounts) spawnSync('umount', [m]);
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('the state store', () => {
  it('appends records to one journal, shares syncs between records written together, and reads them back', async () => {
    const dir = tempDir('oxo-journal-');
    const store = new StateStore(dir, true, 'run-1');
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.writeDurable(rec(`j${i}`, 'running', '2026-01-01T00:00:00.000Z'))));
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.writeDurable(rec(`j${i}`, i % 2 === 0 ? 'done' : 'failed', '2026-01-01T00:00:01.000Z'))));
    store.close();
    expect(files(store.jobsDir)).toEqual(['run-1.jsonl']);
    // A header and one line per record.
    expect(readFileSync(store.journalFile, 'utf8').trimEnd().split('\n')).toHaveLength(101);
    const again = new StateStore(dir).records();
    expect(again.get('j0')?.status).toBe('done');
    expect(again.get('j1')?.status).toBe('failed');
    expect(again.size).toBe(50);
  });

  it('a completion cut short by a crash leaves the job `running` (fail closed)', () => {
    const dir = tempDir('oxo-journal-');
    const store = new StateStore(dir, true, 'run-1');
    store.write(rec('a', 'running', '2026-01-01T00:00:00.000Z'));
    store.write(rec('a', 'done', '2026-01-01T00:00:01.000Z'));
    store.close();
    const full = readFileSync(store.journalFile, 'utf8').length;
    truncateSync(store.journalFile, full - 20);
    expect(new StateStore(dir).records().get('a')?.status).toBe('running');
  });

  it('compaction folds journals into the index, removes them, and folding again gives the same', () => {
    const dir = tempDir('oxo-journal-');
    const one = new StateStore(dir, true, 'run-1');
    one.write(rec('a', 'done', '2026-01-01T00:00:01.000Z'));
    one.write(rec('b', 'failed', '2026-01-01T00:00:02.000Z'));
    one.close();
    const kept = path.join(dir, 'kept.jsonl');
    copyFileSync(one.journalFile, kept);
    const c = new StateStore(dir).compact();
    expect(c).toMatchObject({ records: 2, journals: 1 });
    expect(files(one.jobsDir)).toEqual([]);
    const index = readFileSync(one.indexFile, 'utf8');
    // A crash after the index was written and before the journal went: the journal is folded again.
    copyFileSync(kept, one.journalFile);
    new StateStore(dir).compact();
    expect(readFileSync(one.indexFile, 'utf8')).toBe(index);
    const r = new StateStore(dir).records();
    expect([r.get('a')?.status, r.get('b')?.status, r.get('c')]).toEqual(['done', 'failed', undefined]);
    expect(files(path.dirname(one.indexFile))).toEqual(['index.jsonl', 'jobs']);
  });

  it('the newest record of a job wins across the index and later journals', () => {
    const dir = tempDir('oxo-journal-');
    const first = new StateStore(dir, true, 'run-1');
    first.write(rec('a', 'done', '2026-01-01T00:00:05.000Z'));
    first.close();
    new StateStore(dir).compact();
    // A stale journal (an older record of a) must not win over the index's newer one.
    const stale = new StateStore(dir, true, 'run-0');
    stale.write(rec('a', 'running', '2026-01-01T00:00:01.000Z'));
    stale.close();
    expect(new StateStore(dir).records().get('a')?.status).toBe('done');
    const later = new StateStore(dir, true, 'run-2');
    later.write(rec('a', 'running', '2026-01-01T00:00:09.000Z'));
    later.close();
    expect(new StateStore(dir).records().get('a')?.status).toBe('running');
  });

  it('reads the index lazily: a lookup parses only the record asked for', () => {
    const dir = tempDir('oxo-journal-');
    const w = new StateStore(dir, false, 'big');
    for (let i = 0; i < 10_000; i++) w.write(rec(`old[sample=S${i}]`, 'done', '2026-01-01T00:00:00.000Z'));
    w.close();
    new StateStore(dir, false).compact();
    const records = new StateStore(dir).records();
    expect(records.get('old[sample=S42]')?.status).toBe('done');
    expect([...records.parsed()]).toHaveLength(1);
    expect(records.get('never')).toBeUndefined();
    expect(records.size).toBe(10_000);
  });

  it('finds every id in the sorted index, whatever its characters, and nothing else', () => {
    const dir = tempDir('oxo-journal-');
    const ids = ['a', 'b[sample=S1]', 'b[sample=S10]', 'b[sample=S2]', 'é', '\u{1F600}', '\uFFFD', 'z"q', 'tab\tin', 'A', ''];
    const w = new StateStore(dir, false, 'ids');
    for (const id of ids) w.write(rec(id, 'done', '2026-01-01T00:00:00.000Z'));
    w.close();
    new StateStore(dir, false).compact();
    const records = new StateStore(dir).records();
    for (const id of ids) expect(records.get(id)?.id, id).toBe(id);
    for (const id of ['b', 'b[sample=S3]', 'zz', '\u{1F601}']) expect(records.get(id), id).toBeUndefined();
  });

  it("keeps the journal of a writer that still runs: compaction folds it but does not remove it", () => {
    const dir = tempDir('oxo-journal-');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(child.pid!);
    const store = new StateStore(dir, true, 'live');
    store.write(rec('a', 'running', '2026-01-01T00:00:00.000Z'));
    store.close();
    // The journal now names the child as its writer.
    const text = readFileSync(store.journalFile, 'utf8').replace(/"pid":\d+/, `"pid":${child.pid}`).replace(/,"procStart":\d+/, '');
    writeFileSync(store.journalFile, text);
    new StateStore(dir).compact();
    expect(files(store.jobsDir)).toEqual(['live.jsonl']);
    expect(new StateStore(dir).records().get('a')?.status).toBe('running');
    child.kill('SIGKILL');
  });

  it('a write that fails midway (a full disk) throws its errno, and the next record after space is freed reads back', (ctx) => {
    const mnt = tempDir('oxo-tmpfs-');
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt]).status !== 0) {
      console.warn('skipped: cannot mount a tmpfs here (needs root)');
      ctx.skip();
    }
    mounts.push(mnt);
    const store = new StateStore(mnt, true, 'full');
    store.write(rec('first', 'done', '2026-01-01T00:00:00.000Z'));
    spawnSync('sh', ['-c', `head -c 1000000 /dev/zero > ${mnt}/filler`]);
    let error: NodeJS.ErrnoException | undefined;
    for (let i = 0; i < 200 && error === undefined; i++) {
      try {
        store.write(rec(`x${i}`, 'done', '2026-01-01T00:00:00.000Z', { log: 'y'.repeat(300) }));
      } catch (err) {
        error = err as NodeJS.ErrnoException;
      }
    }
    expect(error?.code).toBe('ENOSPC');
    rmSync(path.join(mnt, 'filler'));
    store.write(rec('after', 'done', '2026-01-01T00:00:01.000Z'));
    store.close();
    const r = new StateStore(mnt).records();
    expect(r.get('first')?.status).toBe('done');
    expect(r.get('after')?.status).toBe('done');
  });
});

describe('migration from per-job state files', () => {
  it('reads them, folds them into the index on the next run, and removes them; an unreadable one still reruns its job', () => {
    const dir = project(
      `[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a > a.txt"\n\n[[rules]]\nname = "b"\noutput = ["b.txt"]\nshell = "echo b > b.txt"\n\n[[rules]]\nname = "c"\noutput = ["c.txt"]\nshell = "echo c > c.txt"\n`,
    );
    expect(runCliJson(['run'], { cwd: dir }).code).toBe(0);
    const index = path.join(dir, '.oxo-flow', 'state', 'index.jsonl');
    const records = new StateStore(dir).records();
    // Today's state as an older version would have left it: one file per job, and no index.
    rmSync(index);
    const jobsDir = path.join(dir, '.oxo-flow', 'state', 'jobs');
    for (const id of ['a', 'b']) writeFileSync(path.join(jobsDir, legacyName(id)), JSON.stringify(records.get(id)));
    writeFileSync(path.join(jobsDir, legacyName('c')), '{"version":1,"id":"c","sta');
    writeFileSync(path.join(jobsDir, `${legacyName('a')}.123.tmp`), 'half');
    const dry = runCliJson(['dry-run'], { cwd: dir });
    const reasons = Object.fromEntries((dry.json.jobs as { id: string; reason: string }[]).map((j) => [j.id, j.reason]));
    expect(reasons).toEqual({ a: 'up to date', b: 'up to date', c: 'incomplete' });
    // dry-run changes nothing on disk.
    expect(files(jobsDir)).toHaveLength(4);
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect((r.json.jobs as { id: string }[]).map((j) => j.id)).toEqual(['c']);
    expect(JSON.stringify(r.json.diagnostics)).toContain('RUN043');
    expect(files(jobsDir)).toEqual([]);
    expect(existsSync(index)).toBe(true);
    expect(runCliJson(['dry-run'], { cwd: dir }).json.summary).toMatchObject({ run: 0 });
  }, 60_000);

  it('a no-op run folds per-job files too (so the next start reads only the index)', () => {
    const dir = project(`[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a > a.txt"\n`);
    expect(runCliJson(['run'], { cwd: dir }).code).toBe(0);
    const record = new StateStore(dir).records().get('a')!;
    rmSync(path.join(dir, '.oxo-flow', 'state', 'index.jsonl'));
    const jobsDir = path.join(dir, '.oxo-flow', 'state', 'jobs');
    writeFileSync(path.join(jobsDir, legacyName('a')), JSON.stringify(record));
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.json.summary).toMatchObject({ to_run: 0 });
    expect(files(jobsDir)).toEqual([]);
    expect(new StateStore(dir).records().get('a')?.status).toBe('done');
  }, 60_000);
});

describe('a run and its state files', () => {
  it('leaves one index and no per-job files; logs only for jobs that wrote something', () => {
    const rules = Array.from({ length: 20 }, (_, i) => `[[rules]]\nname = "r${i}"\noutput = ["o/${i}.txt"]\nshell = "${i === 3 ? 'echo said-something; ' : ''}touch o/${i}.txt"\n`).join('\n');
    const dir = project(rules);
    const r = runCliJson(['run', '-j', '2'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const state = path.join(dir, '.oxo-flow', 'state');
    expect(files(state)).toEqual(['index.jsonl', 'jobs']);
    expect(files(path.join(state, 'jobs'))).toEqual([]);
    expect(files(path.join(dir, '.oxo-flow', 'logs'))).toEqual(['r3.log']);
    expect(readFileSync(path.join(dir, '.oxo-flow', 'logs', 'r3.log'), 'utf8')).toContain('said-something');
    // runs, runs show and the trace still work.
    const runs = runCliJson(['runs'], { cwd: dir });
    expect((runs.json.runs as unknown[]).length).toBe(1);
    const shown = runCliJson(['runs', 'show'], { cwd: dir });
    expect((shown.json.trace as unknown[]).length).toBe(20);
    // A no-op run and a dry-run add no state files.
    expect(runCliJson(['run'], { cwd: dir }).json.summary).toMatchObject({ to_run: 0 });
    expect(files(state)).toEqual(['index.jsonl', 'jobs']);
    expect(files(path.join(state, 'jobs'))).toEqual([]);
  }, 60_000);

  it('a run killed with -9 leaves its journal; the next start reads it (resume), and its end folds it', async () => {
    const dir = project(
      `[[rules]]\nname = "quick"\noutput = ["q.txt"]\nshell = "echo q > q.txt"\n\n[[rules]]\nname = "slow"\ninput = ["q.txt"]\noutput = ["s.txt"]\nshell = "echo half > s.txt; sleep 30; echo done > s.txt"\n`,
    );
    const child = spawn(process.execPath, [CLI, 'run'], { cwd: dir, stdio: 'ignore' });
    children.push(child.pid!);
    const deadline = Date.now() + 20_000;
    while (!(existsSync(path.join(dir, 's.txt')) && readFileSync(path.join(dir, 's.txt'), 'utf8') === 'half\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const jobsDir = path.join(dir, '.oxo-flow', 'state', 'jobs');
    expect(files(jobsDir)).toHaveLength(1);
    const dry = runCliJson(['dry-run'], { cwd: dir });
    const reasons = Object.fromEntries((dry.json.jobs as { id: string; reason: string }[]).map((j) => [j.id, j.reason]));
    expect(reasons).toEqual({ quick: 'up to date', slow: 'incomplete' });
    // The job's own group is still running (the runner died, not it): the next run stops it and reruns.
    writeFileSync(path.join(dir, 'main.oxoflow'), readFileSync(path.join(dir, 'main.oxoflow'), 'utf8').replace('sleep 30', 'sleep 0'));
    const r = runCliJson(['run'], { cwd: dir, env: { OXO_FLOW_KILL_GRACE: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect((r.json.jobs as { id: string }[]).map((j) => j.id)).toEqual(['slow']);
    expect(files(jobsDir)).toEqual([]);
  }, 90_000);

  it('clean --state folds what a killed run left, under the lock; --keep-runs trims the run records', () => {
    const dir = project(`[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a > a.txt"\n`);
    expect(runCliJson(['run'], { cwd: dir }).code).toBe(0);
    expect(runCliJson(['run', '--forcerun', 'a'], { cwd: dir }).code).toBe(0);
    const store = new StateStore(dir, true, 'left-by-a-killed-run');
    store.write(rec('gone[sample=1]', 'running', new Date().toISOString()));
    store.close();
    // Its writer is gone (this test process still runs, so it plays a dead one).
    writeFileSync(store.journalFile, readFileSync(store.journalFile, 'utf8').replace(/"pid":\d+/, '"pid":999999999'));
    // A run holding the lock: clean refuses (RUN040) and touches nothing.
    mkdirSync(path.join(dir, '.oxo-flow'), { recursive: true });
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(holder.pid!);
    const lock = path.join(dir, '.oxo-flow', 'lock');
    const stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
    const procStart = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    writeFileSync(lock, JSON.stringify({ pid: holder.pid, host: hostname(), startedAt: new Date().toISOString(), command: 'oxo-flow run', runId: 'x', procStart }));
    const refused = runCliJson(['clean', '--state'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(JSON.stringify(refused.json.diagnostics)).toContain('RUN040');
    expect(files(path.join(dir, '.oxo-flow', 'state', 'jobs'))).toEqual(['left-by-a-killed-run.jsonl']);
    holder.kill('SIGKILL');
    rmSync(lock);
    const r = runCliJson(['clean', '--state', '--keep-runs', '1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.state).toMatchObject({ records: 2, journals_folded: 1 });
    expect((r.json.runs_removed as string[]).length).toBe(1);
    expect(files(path.join(dir, '.oxo-flow', 'state', 'jobs'))).toEqual([]);
    expect(files(path.join(dir, '.oxo-flow', 'runs'))).toHaveLength(1);
    expect(new StateStore(dir).records().get('gone[sample=1]')?.status).toBe('running');
    expect(runCli(['clean'], { cwd: dir }).code).toBe(2);
    expect(runCli(['clean', '--keep-runs', 'x'], { cwd: dir }).code).toBe(2);
  }, 60_000);
});
