// A job's processes live in their own process group (spawned with detached: true), so one signal
// reaches the shell and everything it started. Stopping is SIGTERM to the group, a grace period,
// then SIGKILL to whatever is left. The runner signals only groups it can prove are its own: a group
// it started in this run, or one a record names whose leader's start time matches and whose processes
// carry the record's run id in their environment (OXO_FLOW_RUN_ID). Never a group id of 1 or less.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The environment variable every job carries: the run that started it. */
export const RUN_ID_VAR = 'OXO_FLOW_RUN_ID';

/** True while any process of the group exists. */
export function groupAlive(pgid: number): boolean {
  if (!safeGroup(pgid)) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function safeGroup(pgid: number): boolean {
  return Number.isSafeInteger(pgid) && pgid > 1;
}

/** Signal a whole group; false when it is gone (or the id is one no runner may signal). */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!safeGroup(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, wait up to graceMs for the group to go, then SIGKILL. Resolves when done. */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
  if (!safeGroup(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(25);
  if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  // Give the kernel a moment to deliver SIGKILL (zombies of another parent may keep the id alive).
  for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(25);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The grace between SIGTERM and SIGKILL: OXO_FLOW_KILL_GRACE seconds, default 10. */
export function killGraceMs(env: Readonly<Record<string, string | undefined>>): number {
  const v = Number(env.OXO_FLOW_KILL_GRACE);
  return Number.isFinite(v) && v >= 0 && env.OXO_FLOW_KILL_GRACE !== '' && env.OXO_FLOW_KILL_GRACE !== undefined ? v * 1000 : 10_000;
}

/** A process's start time in clock ticks since boot (/proc/PID/stat field 22), or undefined. */
export function processStartTime(pid: number): number | undefined {
  const stat = procStat(pid);
  return stat?.start;
}

function procStat(pid: number): { pgrp: number; start: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': fields restart after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const pgrp = Number(rest[2]);
  const start = Number(rest[19]);
  return Number.isFinite(pgrp) && Number.isFinite(start) ? { pgrp, start } : undefined;
}

function carriesRunId(pid: number, runId: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${RUN_ID_VAR}=${runId}`);
  } catch {
    return false; // Another user's process (EACCES), or gone.
  }
}

export type Ownership = { own: true } | { own: false; why: string } | { gone: true };

/**
 * Whether the group a `running` record names is provably that job's: pgid > 1, the leader (if it
 * still runs) started when the record says, and a live member of the group carries the record's run id.
 * Without /proc (not Linux) nothing can be proven, so nothing is signalled.
 */
export function proveOwnGroup(pgid: number | undefined, procStart: number | undefined, runId: string | undefined): Ownership | { gone: true } {
  if (pgid === undefined) return { gone: true };
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return { own: false, why: `process group ${pgid} is never signalled` };
  if (!groupAlive(pgid)) return { gone: true };
  if (runId === undefined || procStart === undefined) return { own: false, why: `process group ${pgid} is alive, but the record (from an older version) cannot prove it is the job's` };
  const leader = procStat(pgid);
  if (leader !== undefined && leader.start !== procStart) return { own: false, why: `process group ${pgid} belongs to another program now (its leader started at another time)` };
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return { own: false, why: `process group ${pgid} is alive, but /proc cannot be read to prove it is the job's` };
  }
  for (const p of pids) {
    const pid = Number(p);
    if (procStat(pid)?.pgrp !== pgid) continue;
    if (carriesRunId(pid, runId)) return { own: true };
  }
  return { own: false, why: `process group ${pgid} is alive, but none of its processes carries this job's run id` };
}

/**
 * The process groups of jobs whose runner died after starting them but before it recorded their
 * group (the light spawner tells the pid a moment after the exec, and a job may already be writing):
 * a process whose standard output is a job's own log and which carries that record's run id is that
 * job's, and so is its group. `wanted`: log path → run id; the answer: log path → group, for those
 * found (none where there is no /proc). One pass over /proc for all of them.
 */
export function findJobGroups(wanted: ReadonlyMap<string, string>): Map<string, number> {
  const found = new Map<string, number>();
  if (wanted.size === 0) return found;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return found;
  }
  for (const p of pids) {
    let out: string;
    try {
      out = readlinkSync(`/proc/${p}/fd/1`);
    } catch {
      continue; // Gone, or another user's.
    }
    const runId = wanted.get(out);
    if (runId === undefined || found.has(out)) continue;
    const pgrp = procStat(Number(p))?.pgrp;
    if (pgrp !== undefined && safeGroup(pgrp) && carriesRunId(Number(p), runId)) found.set(out, pgrp);
  }
  return found;
}
