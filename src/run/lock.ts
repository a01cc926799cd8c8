// The project lock: one run at a time per workflow directory. `.oxo-flow/lock` holds who runs (pid,
// host, start time, command, run id). It is created whole or not at all (written to a temporary file,
// then hard-linked into place, which fails when a lock exists), so a second run either gets the lock
// or reads a complete holder. A lock whose holder is provably gone is taken over with a notice: on this
// host when its pid no longer runs (or runs another program: the start time from /proc differs); from
// another host only after a timeout the user sets, since we cannot see that host's processes.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { processStartTime } from './process-group.js';
import { stateDir } from './state.js';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  runId: string;
  /** The holder's process start time (clock ticks since boot), to tell a reused pid apart. */
  procStart?: number;
}

export type Acquired =
  | { ok: true; lock: ProjectLock; tookOver?: { holder: LockHolder; why: string } }
  | { ok: false; holder: LockHolder | undefined; file: string; why: string };

export interface LockOptions {
  command: string;
  runId: string;
  /** Take over a lock from another host once it is older than this (milliseconds); never when undefined. */
  staleAfterMs?: number;
  pid?: number;
  host?: string;
  now?: () => number;
}

export function lockFile(workflowDir: string): string {
  return path.join(stateDir(workflowDir), 'lock');
}

export class ProjectLock {
  constructor(
    readonly file: string,
    readonly holder: LockHolder,
  ) {}

  /** Remove the lock if it is still ours (an `unlock` by hand may have removed it meanwhile). */
  release(): void {
    const current = readHolder(this.file);
    if (current.holder?.runId === this.holder.runId) rmSync(this.file, { force: true });
  }
}

export function acquireLock(workflowDir: string, options: LockOptions): Acquired {
  const file = lockFile(workflowDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const pid = options.pid ?? process.pid;
  const me: LockHolder = {
    pid,
    host: options.host ?? hostname(),
    startedAt: new Date((options.now ?? Date.now)()).toISOString(),
    command: options.command,
    runId: options.runId,
  };
  const start = processStartTime(pid);
  if (start !== undefined) me.procStart = start;
  let tookOver: { holder: LockHolder; why: string } | undefined;
  // Two rounds: the first may find a dead holder's lock and move it away; the second must then win.
  for (let round = 0; round < 2; round++) {
    if (createWhole(file, me)) return { ok: true, lock: new ProjectLock(file, me), ...(tookOver ? { tookOver } : {}) };
    const { holder, raw } = readHolder(file);
    if (holder === undefined) {
      if (raw === undefined) continue; // Gone between the link and the read: try again.
      return { ok: false, holder: undefined, file, why: 'the lock file cannot be read' };
    }
    const stale = staleReason(holder, me.host, options);
    if (stale === undefined) return { ok: false, holder, file, why: 'another run holds the lock' };
    // Move the stale lock aside under a unique name, then check that what moved is the lock we
    // judged (another run may have taken it over in between; then put it back and refuse).
    const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(file, aside);
    } catch {
      continue;
    }
    const moved = readHolder(aside).holder;
    if (moved?.runId !== holder.runId) {
      try {
        linkSync(aside, file);
      } catch {
        // Someone holds a new lock already; ours loses either way.
      }
      rmSync(aside, { force: true });
      return { ok: false, holder: moved, file, why: 'another run holds the lock' };
    }
    rmSync(aside, { force: true });
    tookOver = { holder, why: stale };
  }
  const { holder } = readHolder(file);
  return { ok: false, holder, file, why: 'another run holds the lock' };
}

/** Why a holder is gone, or undefined while it may still run. */
export function staleReason(holder: LockHolder, host: string, options: Pick<LockOptions, 'staleAfterMs' | 'now'>): string | undefined {
  if (holder.host === host) {
    if (!pidAlive(holder.pid)) return `process ${holder.pid} no longer runs`;
    const start = processStartTime(holder.pid);
    if (holder.procStart !== undefined && start !== undefined && start !== holder.procStart) return `process ${holder.pid} is now another program`;
    return undefined;
  }
  if (options.staleAfterMs === undefined) return undefined;
  const age = (options.now ?? Date.now)() - Date.parse(holder.startedAt);
  return Number.isFinite(age) && age > options.staleAfterMs ? `it is from host ${holder.host} and older than the lock timeout` : undefined;
}

export function readHolder(file: string): { holder: LockHolder | undefined; raw: string | undefined } {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return { holder: undefined, raw: undefined };
  }
  try {
    const h = JSON.parse(raw) as LockHolder;
    if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.runId === 'string') return { holder: h, raw };
  } catch {
    // Not ours or damaged: reported as unreadable.
  }
  return { holder: undefined, raw };
}

function createWhole(file: string, holder: LockHolder): boolean {
  const temp = `${file}.${holder.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One line naming the holder, for messages. */
export function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} on ${h.host}, started ${h.startedAt}, \`${h.command}\``;
}
