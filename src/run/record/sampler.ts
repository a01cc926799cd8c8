// What a local job's processes cost, measured from /proc (Linux). Two sources, combined:
//
// 1. Sampling. Every 100 ms the leader of each job older than that is read; every 500 ms, once
//    some job has run that long (a pass costs the same for one job or ten, and a run of short jobs
//    should not pay for passes that find nothing worth measuring), one pass over /proc finds the
//    processes of each running job's process group (the job's shell is the leader; everything it
//    starts inherits the group) and sums
//    their CPU times, including the `cutime`/`cstime` totals of children they already reaped, their
//    resident memory (and the largest VmHWM), and their rchar/wchar I/O counters. The largest sum
//    seen is the job's figure so far. Sampling alone misses the last interval of a job's life.
// 2. The reap. The leader's parent is this process: when Node reaps it, the kernel adds the leader's
//    own and its reaped children's CPU times to this process's `cutime`/`cstime`. Read at the moment
//    the runner says the attempt exited, the growth since the last such reading is the exact CPU time
//    of what was reaped in between: exact for the job when it is the only one reaped in that window,
//    shared out over the sampled figures when several jobs ended together.
//
//    Jobs started through the light spawner (src/run/spawner/) are reaped by its helper, not by
//    this process: the helper reads its own children's times right after each reap and reports
//    them with the exit, which is exact for the job whatever else ended at the same moment.
//
// Memory and I/O come from sampling only (a job shorter than one interval reports none).
// Where /proc is missing (macOS, BSD), every figure is null and the run goes on as before.
import { openSync, readSync } from 'node:fs';
import { CLOCK_TICKS, listPids, parseStat, procAvailable, readIo, readMemory, readStat, type ProcStat } from './proc.js';

export interface Usage {
  userSeconds: number | null;
  systemSeconds: number | null;
  peakRssBytes: number | null;
  readBytes: number | null;
  writtenBytes: number | null;
  /** How many samples saw the job's processes. */
  samples: number;
  /** exact: CPU from the reap; shared: the reap's CPU split between jobs that ended together; sampled; none. */
  cpuMethod: 'exact' | 'shared' | 'sampled' | 'none';
}

interface Group {
  pgid: number;
  since: number;
  user: number;
  system: number;
  rss: number;
  read: number;
  written: number;
  samples: number;
}

interface Ticks {
  user: number;
  system: number;
}

export class ResourceSampler {
  readonly enabled: boolean;
  readonly #intervalMs: number;
  readonly #scanMs: number;
  #lastScan = 0;
  #started = false;
  readonly #groups = new Map<string, Group>();
  /** Groups settled from a reap reading before their own `end` call. */
  readonly #settled = new Map<string, Usage>();
  /** pid → process group, for processes seen before (a process keeps its group in practice). */
  #known = new Map<number, number>();
  #timer: NodeJS.Timeout | undefined;
  #base: Ticks = { user: 0, system: 0 };

  constructor(options: { intervalMs?: number; scanMs?: number; enabled?: boolean } = {}) {
    this.#intervalMs = options.intervalMs ?? 100;
    this.#scanMs = options.scanMs ?? 500;
    this.enabled = options.enabled ?? procAvailable();
  }

  /** A job attempt's process group exists. */
  begin(key: string, pgid: number): void {
    if (!this.enabled) return;
    // The first job: whatever this process reaped before (environment preparation, version
    // commands) is not a job's, so the reap window starts now. Later windows start at each reap.
    if (!this.#started) {
      this.#started = true;
      this.#base = selfTicks() ?? this.#base;
    }
    this.#groups.set(key, { pgid, since: Date.now(), user: 0, system: 0, rss: 0, read: 0, written: 0, samples: 0 });
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.tick(), this.#intervalMs);
      this.#timer.unref();
    }
  }

  /** The attempt's leader exited and was reaped: its figures, final. `exact`: the reaper's exact figure (clock ticks). */
  end(key: string, exact?: Ticks): Usage {
    const none: Usage = { userSeconds: null, systemSeconds: null, peakRssBytes: null, readBytes: null, writtenBytes: null, samples: 0, cpuMethod: 'none' };
    if (!this.enabled) return none;
    if (exact !== undefined) {
      const group = this.#groups.get(key);
      this.#groups.delete(key);
      if (group === undefined) return none;
      // A sample never exceeds what was reaped, unless part of the group outlived its leader (reaped by init).
      return exact.user + exact.system >= group.user + group.system ? usage(group, exact.user, exact.system, 'exact') : usage(group, group.user, group.system, 'sampled');
    }
    const early = this.#settled.get(key);
    if (early !== undefined) {
      this.#settled.delete(key);
      return early;
    }
    const group = this.#groups.get(key);
    if (group === undefined) return none;
    const now = selfTicks();
    const reaped: [string, Group][] = [[key, group]];
    for (const [k, g] of this.#groups) if (k !== key && !exists(g.pgid)) reaped.push([k, g]);
    // The timer stays until close(): an idle tick costs nothing, and restarting it per job would.
    for (const [k] of reaped) this.#groups.delete(k);
    if (now === undefined) return usage(group, group.user, group.system, 'sampled');
    const delta = { user: now.user - this.#base.user, system: now.system - this.#base.system };
    this.#base = now;
    const sampled = reaped.reduce((t, [, g]) => t + g.user + g.system, 0);
    const total = delta.user + delta.system;
    if (total < sampled) {
      // Some of what was sampled was never reaped by us (an orphan adopted by init): trust the samples.
      for (const [k, g] of reaped) if (k !== key) this.#settled.set(k, usage(g, g.user, g.system, 'sampled'));
      return usage(group, group.user, group.system, 'sampled');
    }
    if (reaped.length === 1) return usage(group, delta.user, delta.system, 'exact');
    // Several jobs ended in one window: each keeps what was sampled, the rest is split evenly.
    const extraUser = Math.max(0, delta.user - reaped.reduce((t, [, g]) => t + g.user, 0)) / reaped.length;
    const extraSystem = Math.max(0, delta.system - reaped.reduce((t, [, g]) => t + g.system, 0)) / reaped.length;
    for (const [k, g] of reaped) if (k !== key) this.#settled.set(k, usage(g, g.user + extraUser, g.system + extraSystem, 'shared'));
    return usage(group, group.user + extraUser, group.system + extraSystem, 'shared');
  }

  /**
   * Every interval: a job younger than the scan interval gets its leader read alone (three small
   * reads: a single-process job, the usual `sh -c tool` that became `tool`, is fully measured); once
   * some job is older, one pass over /proc per scan interval finds every group's members.
   */
  tick(): void {
    if (this.#groups.size === 0) return;
    const now = Date.now();
    let scan = false;
    if (now - this.#lastScan >= this.#scanMs) for (const g of this.#groups.values()) if (now - g.since >= this.#scanMs) scan = true;
    if (scan) {
      this.#lastScan = now;
      this.#scan();
      return;
    }
    for (const g of this.#groups.values()) {
      if (now - g.since < this.#intervalMs) continue;
      const sum = emptySum();
      const st = readStat(g.pgid);
      if (st !== undefined && st.pgrp === g.pgid) {
        addProcess(sum, g.pgid, st);
        apply(g, sum);
      }
    }
  }

  /** One pass over /proc for every running group. */
  #scan(): void {
    const pids = listPids();
    if (pids === undefined) return;
    const byPgid = new Map<number, Group[]>();
    for (const g of this.#groups.values()) {
      const list = byPgid.get(g.pgid);
      if (list === undefined) byPgid.set(g.pgid, [g]);
      else list.push(g);
    }
    const sums = new Map<number, Sum>();
    const known = new Map<number, number>();
    for (const pid of pids) {
      let pgrp = this.#known.get(pid);
      // The leader is always read: seen between fork and setsid it would still carry our own group.
      if (pgrp === undefined || byPgid.has(pgrp) || byPgid.has(pid)) {
        const st = readStat(pid);
        if (st === undefined) continue;
        pgrp = st.pgrp;
        known.set(pid, pgrp);
        if (!byPgid.has(pgrp)) continue;
        let sum = sums.get(pgrp);
        if (sum === undefined) sums.set(pgrp, (sum = emptySum()));
        addProcess(sum, pid, st);
      } else known.set(pid, pgrp);
    }
    this.#known = known;
    for (const [pgid, sum] of sums) for (const g of byPgid.get(pgid) ?? []) apply(g, sum);
  }

  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#groups.clear();
  }
}

interface Sum {
  user: number;
  system: number;
  rss: number;
  hwm: number;
  read: number;
  written: number;
}

function emptySum(): Sum {
  return { user: 0, system: 0, rss: 0, hwm: 0, read: 0, written: 0 };
}

function addProcess(sum: Sum, pid: number, st: ProcStat): void {
  sum.user += st.utime + st.cutime;
  sum.system += st.stime + st.cstime;
  if (!st.zombie) {
    const mem = readMemory(pid);
    if (mem !== undefined) {
      sum.rss += mem.rss;
      if (mem.hwm > sum.hwm) sum.hwm = mem.hwm;
    }
  }
  const io = readIo(pid);
  if (io !== undefined) {
    sum.read += io.read;
    sum.written += io.written;
  }
}

/** A sample of a group: the largest figures seen are kept. */
function apply(g: Group, sum: Sum): void {
  g.samples += 1;
  if (sum.user + sum.system >= g.user + g.system) {
    g.user = sum.user;
    g.system = sum.system;
  }
  g.rss = Math.max(g.rss, sum.rss, sum.hwm);
  g.read = Math.max(g.read, sum.read);
  g.written = Math.max(g.written, sum.written);
}

function usage(g: Group, userTicks: number, systemTicks: number, cpuMethod: Usage['cpuMethod']): Usage {
  const sampled = g.samples > 0;
  return {
    userSeconds: userTicks / CLOCK_TICKS,
    systemSeconds: systemTicks / CLOCK_TICKS,
    // A sample that saw only a zombie or an exiting shell has no memory to tell.
    peakRssBytes: sampled && g.rss > 0 ? g.rss : null,
    readBytes: sampled ? g.read : null,
    writtenBytes: sampled ? g.written : null,
    samples: g.samples,
    cpuMethod,
  };
}

// /proc/self/stat is read twice per job: through one descriptor kept open (a read at offset 0 makes
// the kernel write the line afresh), which saves an open and a close each time.
let selfFd: number | undefined;
const selfBuf = Buffer.alloc(1024);

function selfTicks(): Ticks | undefined {
  try {
    selfFd ??= openSync('/proc/self/stat', 'r');
    const n = readSync(selfFd, selfBuf, 0, selfBuf.length, 0);
    const st = parseStat(process.pid, selfBuf.toString('latin1', 0, n));
    return st === undefined ? undefined : { user: st.cutime, system: st.cstime };
  } catch {
    return undefined;
  }
}

/** The process exists, zombie or not (signal 0 asks the kernel without sending anything). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
