// The local executor: one job attempt as a process group, its output appended to the job's log.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Launch } from './environment.js';
import { stopGroup } from './process-group.js';

export interface AttemptResult {
  /** Exit code of the job's shell, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  interrupted: boolean;
  /** Set when the process could not start at all. */
  spawnError?: string;
}

export interface AttemptOptions {
  cwd: string;
  logPath: string;
  /** Written at the top of the attempt's part of the log. */
  header: string;
  env: NodeJS.ProcessEnv;
  timeLimitMs?: number;
  graceMs: number;
  /** Aborting stops the job's group (Ctrl-C, or the run stopping). */
  signal: AbortSignal;
  /** Told the process group id as soon as the job starts (recorded in the state for resume). */
  onStart(pgid: number): void;
}

export function runAttempt(launch: Launch, options: AttemptOptions): Promise<AttemptResult> {
  mkdirSync(path.dirname(options.logPath), { recursive: true });
  const fd = openSync(options.logPath, 'a');
  writeSync(fd, options.header);
  return new Promise((resolve) => {
    let timedOut = false;
    let interrupted = false;
    let stopping: Promise<void> | undefined;
    const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', fd, fd],
      env: launch.env ? { ...options.env, ...launch.env } : options.env,
    });
    closeSync(fd);
    const pgid = child.pid;
    const stop = () => {
      if (pgid !== undefined) stopping ??= stopGroup(pgid, options.graceMs);
    };
    const onAbort = () => {
      interrupted = true;
      stop();
    };
    let timer: NodeJS.Timeout | undefined;
    if (pgid !== undefined) {
      options.onStart(pgid);
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
      if (options.timeLimitMs !== undefined) {
        timer = setTimeout(() => {
          timedOut = true;
          stop();
        }, options.timeLimitMs);
      }
    }
    let spawnError: string | undefined;
    child.on('error', (err) => {
      spawnError = err.message;
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      // The shell is gone; when it was being stopped, wait until the rest of its group is too.
      void (stopping ?? Promise.resolve()).then(() => {
        const result: AttemptResult = { code, signal, timedOut, interrupted };
        if (spawnError !== undefined) result.spawnError = spawnError;
        resolve(result);
      });
    });
  });
}
