// The scheduler alone, with jobs that finish when the test says so: order, limits, failures.
import { describe, expect, it } from 'vitest';
import { schedule, type SchedJob } from '../../src/run/scheduler.js';
import { parseTimeLimit } from '../../src/workflow/load/time-limit.js';

function harness(fail: Set<string> = new Set()) {
  const started: string[] = [];
  let running = 0;
  let maxRunning = 0;
  let threads = 0;
  let maxThreads = 0;
  const run = async (j: SchedJob) => {
    started.push(j.id);
    running += 1;
    threads += j.threads;
    maxRunning = Math.max(maxRunning, running);
    maxThreads = Math.max(maxThreads, threads);
    await new Promise((r) => setImmediate(r));
    running -= 1;
    threads -= j.threads;
    return !fail.has(j.id);
  };
  return { run, started, max: () => ({ maxRunning, maxThreads }) };
}

const job = (id: string, dependsOn: string[] = [], threads = 1, memoryMb?: number): SchedJob => ({ id, dependsOn, threads, ...(memoryMb ? { memoryMb } : {}) });

describe('schedule', () => {
  it('starts a job only after what it needs, within -j and the core pool', async () => {
    const jobs = [job('a1', [], 2), job('a2', [], 2), job('a3', [], 2), job('b1', ['a1']), job('c', ['b1', 'a2', 'a3'])];
    const h = harness();
    const r = await schedule(jobs, { jobs: 3, cores: 4, memoryMb: 1e9 }, h.run, { keepGoing: false, signal: new AbortController().signal });
    expect([...r.done].sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'c']);
    expect(h.started.indexOf('b1')).toBeGreaterThan(h.started.indexOf('a1'));
    expect(h.started.at(-1)).toBe('c');
    expect(h.max().maxThreads).toBeLessThanOrEqual(4);
    expect(h.max().maxRunning).toBeLessThanOrEqual(3);
  });

  it('blocks dependents of a failure; -k keeps running the rest, without -k nothing new starts', async () => {
    const jobs = [job('a'), job('b'), job('a2', ['a']), job('b2', ['b']), job('z', ['a2', 'b2'])];
    const k = await schedule(jobs, { jobs: 1, cores: 1, memoryMb: 1 }, harness(new Set(['a'])).run, { keepGoing: true, signal: new AbortController().signal });
    expect([...k.done].sort()).toEqual(['b', 'b2']);
    expect([...k.blocked.keys()].sort()).toEqual(['a2', 'z']);
    const stop = await schedule(jobs, { jobs: 1, cores: 1, memoryMb: 1 }, harness(new Set(['a'])).run, { keepGoing: false, signal: new AbortController().signal });
    expect([...stop.done]).toEqual([]);
    expect([...stop.notStarted].sort()).toEqual(['b', 'b2']);
  });

  it('an aborted signal starts nothing more', async () => {
    const jobs = [job('a'), job('b', ['a'])];
    const ac = new AbortController();
    const r = await schedule(jobs, { jobs: 1, cores: 1, memoryMb: 1 }, async () => (ac.abort(), true), { keepGoing: false, signal: ac.signal });
    expect([...r.done]).toEqual(['a']);
    expect([...r.notStarted]).toEqual(['b']);
  });
});

describe('parseTimeLimit', () => {
  it('reads the time_limit forms and refuses the rest', () => {
    const seconds = (t: string) => { const r = parseTimeLimit(t); return r.ok ? r.seconds : undefined; };
    expect(seconds('90s')).toBe(90);
    expect(seconds('2h')).toBe(7200);
    expect(seconds('1h30m')).toBe(5400);
    expect(seconds('01:00:05')).toBe(3605);
    expect(seconds('1-00:00:00')).toBe(86400);
    expect(seconds('30')).toBeUndefined();
    expect(seconds('soon')).toBeUndefined();
    expect(seconds('0s')).toBeUndefined();
  });
});
