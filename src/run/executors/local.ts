// The local executor: a job attempt is a process group on this machine, its output written straight
// into the job's log. Watching is the child's exit; cancelling is SIGTERM to the group, a grace
// period, then SIGKILL.
import { spawn } from 'node:child_process';
import { groupAlive, processStartTime, signalGroup, stopGroup } from '../process-group.js';
import type { Ended, Executor, ExecutorContext, StartRequest, Started } from './types.js';

export function localExecutor(ctx: ExecutorContext): Executor {
  return {
    name: 'local',
    label: 'local',
    cluster: false,
    lostCode: 'RUN020',
    available: () => ({ ok: true }),
    check: () => [],
    start: (request) => startLocal(request, ctx.workflowDir, ctx.graceMs),
    close() {},
  };
}

function startLocal(request: StartRequest, cwd: string, graceMs: number): Started {
  const { launch } = request;
  // spawn() throws synchronously for some errors (E2BIG on Linux, bad arguments): the lifecycle
  // catches that and fails the job with the reason.
  const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
    cwd,
    detached: true,
    stdio: ['ignore', request.logFd, request.logFd],
    env: request.env,
  });
  const pgid = child.pid;
  let stopping: Promise<void> | undefined;
  const ended = new Promise<Ended>((resolve) => {
    let spawnError: string | undefined;
    child.on('error', (err) => {
      spawnError = `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${err.message}`;
      // A process that never started emits no 'close' on every Node version: settle here too.
      if (pgid === undefined) resolve({ code: null, spawnError });
    });
    child.on('close', (code, signal) => {
      // The shell is gone; when it was being stopped, wait until the rest of its group is too.
      void (stopping ?? Promise.resolve()).then(() => {
        const e: Ended = { code, ...(signal !== null ? { signal } : {}) };
        if (spawnError !== undefined) e.spawnError = spawnError;
        resolve(e);
      });
    });
  });
  const started: Started = {
    running: Promise.resolve(),
    ended,
    cancel: () => {
      if (pgid === undefined) return Promise.resolve();
      stopping ??= stopGroup(pgid, graceMs);
      return stopping;
    },
    killNow: () => {
      if (pgid !== undefined && groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    },
  };
  if (pgid !== undefined) {
    started.pgid = pgid;
    const start = processStartTime(pgid);
    if (start !== undefined) started.procStart = start;
  }
  return started;
}
