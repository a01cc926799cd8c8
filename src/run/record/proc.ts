// Reading one process from Linux's /proc: CPU times, memory, I/O counters. Every reader returns
// undefined when the process is gone (or /proc is not Linux's): a job's processes come and go while
// they are sampled, and that is never an error.
import { readFileSync, readdirSync } from 'node:fs';

/** USER_HZ, the unit of the times in /proc/<pid>/stat: 100 on every Linux ABI. */
export const CLOCK_TICKS = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  /** Own CPU time, and the totals of the children it has reaped, in clock ticks. */
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
  zombie: boolean;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat; the command name may hold spaces and parentheses, so fields start after the last `)`. */
export function parseStat(pid: number, text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const f = text.slice(close + 2).split(' ');
  // f[0] is field 3 (state): field n is f[n - 3].
  if (f.length < 15) return undefined;
  return {
    pid,
    ppid: Number(f[1]),
    pgrp: Number(f[2]),
    utime: Number(f[11]),
    stime: Number(f[12]),
    cutime: Number(f[13]),
    cstime: Number(f[14]),
    zombie: f[0] === 'Z',
  };
}

export function readStat(pid: number | 'self'): ProcStat | undefined {
  const text = read(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseStat(pid === 'self' ? process.pid : pid, text);
}

/** Resident memory now and its high-water mark (VmRSS, VmHWM), in bytes. */
export function readMemory(pid: number): { rss: number; hwm: number } | undefined {
  const text = read(`/proc/${pid}/status`);
  if (text === undefined) return undefined;
  const kb = (key: string) => {
    const at = text.indexOf(`\n${key}:`);
    if (at < 0) return 0;
    return Number.parseInt(text.slice(at + key.length + 2).trimStart(), 10) * 1024 || 0;
  };
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * rchar and wchar of /proc/<pid>/io: bytes the process (and the children it reaped) read and wrote
 * through system calls, page cache included. Readable only for one's own processes.
 */
export function readIo(pid: number): { read: number; written: number } | undefined {
  const text = read(`/proc/${pid}/io`);
  if (text === undefined) return undefined;
  const m = /rchar:\s*(\d+)[\s\S]*?wchar:\s*(\d+)/.exec(text);
  return m ? { read: Number(m[1]), written: Number(m[2]) } : undefined;
}

/** Every pid under /proc, or undefined where there is no Linux /proc. */
export function listPids(): number[] | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const out: number[] = [];
  for (const n of names) {
    const c = n.charCodeAt(0);
    if (c >= 48 && c <= 57) out.push(Number(n));
  }
  return out;
}

/** True where this process can read its own /proc/self/stat (Linux). */
export function procAvailable(): boolean {
  return readStat('self') !== undefined;
}
