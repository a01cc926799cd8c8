// The local executor: a job attempt is a process group on this machine, its output written straight
// into the job's log. Jobs start through the light spawner (src/run/spawner/): one helper process
// per run forks and execs each job, so the runner never forks itself. Where the helper cannot run
// (no perl) or dies, jobs start with Node's spawn, as before, and the run says so (RUN050, RUN051);
// OXO_FLOW_SPAWNER=fork asks for Node's spawn. Through the helper, a script that is one plain command
// is exec'd without /bin/sh (directArgv; sh stays the fallback when the exec fails). Watching is the job's exit; cancelling is SIGTERM to
// the group, a grace period, then SIGKILL.
import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { openJobLog } from '../job-log.js';
import { groupAlive, processStartTime, signalGroup, stopGroup } from '../process-group.js';
import { findPerl, Spawner } from '../spawner/index.js';
import { directEnvironmentOk, simpleCommand } from '../../workflow/render/simple-command.js';
import type { Ended, Executor, ExecutorContext, StartRequest, Started } from './types.js';

/** A started process: its group id (undefined when it never started) and how it ended. */
interface Proc {
  pgid: number | undefined;
  /** The leader's start time, when the starter read it (the helper does, before it reaps the job). */
  procStart?: number;
  /** Where the attempt's part of the log begins. */
  logOffset: number;
  ended: Promise<Ended>;
}

export function localExecutor(ctx: ExecutorContext): Executor {
  const notes: Diagnostic[] = [];
  let spawner: Spawner | undefined;
  let useHelper = ctx.env.OXO_FLOW_SPAWNER !== 'fork';
  const helper = (): Spawner | undefined => {
    if (!useHelper) return undefined;
    if (spawner === undefined) {
      const perl = findPerl(ctx.env);
      if (perl === undefined) {
        useHelper = false;
        notes.push(diagnostic('RUN050', 'no perl was found (in /usr/bin, /bin or PATH) to run the light job spawner: jobs were started by forking the runner, which costs it a few milliseconds of CPU per job'));
        return undefined;
      }
      spawner = new Spawner(perl, (why, wasReady) => {
        useHelper = false;
        notes.push(
          wasReady
            ? diagnostic('RUN051', `the light job spawner ended during the run (${why}): the jobs it was running were stopped and failed, and later jobs were started by forking the runner`)
            : diagnostic('RUN050', `the light job spawner could not start (${why}): jobs were started by forking the runner, which costs it a few milliseconds of CPU per job`),
        );
      });
    }
    return spawner.alive ? spawner : undefined;
  };
  return {
    name: 'local',
    label: 'local',
    cluster: false,
    lostCode: 'RUN020',
    // Each attempt's log is opened here (through the helper, or below for Node's spawn), not by the lifecycle.
    writesLogs: true,
    available: () => ({ ok: true }),
    check: () => [],
    start: (request) => {
      const sp = helper();
      return sp === undefined ? started(forkWithLog(request, ctx.workflowDir), ctx.graceMs) : helperStart(sp, request, ctx.workflowDir, ctx.graceMs);
    },
    notes: () => notes,
    // Waits (briefly) for the helper to exit, so the runner reaps it: no orphan, and its CPU time counts.
    close: () => spawner?.close(),
  };
}

/** Node's spawn into the attempt's log, opened (and its header written) here. Throws as forkStart does. */
function forkWithLog(request: StartRequest, cwd: string): Proc {
  const log = openJobLog(request.logPath, request.logHeader, request.logFresh);
  try {
    return forkStart(request, cwd, log.fd, log.offset);
  } finally {
    closeSync(log.fd);
  }
}

/** Node's spawn: a fork of the runner. Throws synchronously for some errors (E2BIG on Linux, bad arguments). */
function forkStart(request: StartRequest, cwd: string, logFd: number, logOffset: number): Proc {
  const { launch } = request;
  const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
    cwd,
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: request.env,
  });
  const pgid = child.pid;
  const ended = new Promise<Ended>((resolve) => {
    let spawnError: string | undefined;
    child.on('error', (err) => {
      spawnError = `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${err.message}`;
      // A process that never started emits no 'close' on every Node version: settle here too.
      if (pgid === undefined) resolve({ code: null, spawnError });
    });
    child.on('close', (code, signal) => {
      const e: Ended = { code, ...(signal !== null ? { signal } : {}) };
      if (spawnError !== undefined) e.spawnError = spawnError;
      resolve(e);
    });
  });
  return { pgid, logOffset, ended };
}

/**
 * Through the helper: the pid comes back a moment later (`spawned`), with the leader's start time and
 * where the attempt's part of the log begins (the helper opened the log and wrote the header). A helper
 * that died before it read anything started nothing (and wrote nothing), so the job then starts with
 * Node's spawn instead.
 */
function helperStart(sp: Spawner, request: StartRequest, cwd: string, graceMs: number): Started {
  const direct = directArgv(request.launch.argv, request.env);
  const argv = direct ?? request.launch.argv;
  const launched = sp.launch({ argv, env: request.env, cwd, logPath: path.resolve(cwd, request.logPath), header: request.logHeader, fresh: request.logFresh, ...(direct !== null ? { fallback: request.launch.argv } : {}) });
  const proc = launched.pid.then(async (running): Promise<Proc> => {
    const outcome = launched.outcome.then(async (o): Promise<Ended> => {
      if (o.kind === 'exited') return { code: o.code, ...(o.signal !== undefined ? { signal: o.signal } : {}), cpu: o.cpu, ...(o.logBytes !== undefined ? { logBytes: o.logBytes } : {}), ...(o.logDropped ? { logDropped: true as const } : {}) };
      if (o.kind === 'not started') return { code: null, spawnError: o.why };
      // The helper is gone and the job's status with it: stop the job rather than leave it unwatched.
      if (running !== undefined) await stopGroup(running.pid, graceMs);
      return { code: null, state: o.why };
    });
    if (running !== undefined) return { pgid: running.pid, ...(running.start !== undefined ? { procStart: running.start } : {}), logOffset: running.logOffset, ended: outcome };
    const o = await launched.outcome;
    if (o.kind === 'not started' && o.untried === true) {
      try {
        return forkWithLog(request, cwd);
      } catch (err) {
        return { pgid: undefined, logOffset: 0, ended: Promise.resolve({ code: null, spawnError: `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${(err as Error).message}` }) };
      }
    }
    return { pgid: undefined, logOffset: 0, ended: outcome };
  });
  return started(proc, graceMs, () => sp.kill(launched.id));
}

/**
 * The words to exec instead of `/bin/sh -c SCRIPT` when SCRIPT is one plain command and sh would pass
 * the environment on unchanged (docs/run.md, "How a job starts"); null keeps sh. Only a plain
 * `/bin/sh -c` launch qualifies: a backend's own runner (conda run, docker run…) keeps its argv.
 */
export function directArgv(launch: readonly string[], env: NodeJS.ProcessEnv): string[] | null {
  if (launch.length !== 3 || launch[0] !== '/bin/sh' || launch[1] !== '-c') return null;
  if (env.OXO_FLOW_DIRECT_EXEC === '0' || !directEnvironmentOk(env)) return null;
  return simpleCommand(launch[2]!, env);
}

/** The Started of a process, known now (fork) or soon (helper). */
function started(procOrPromise: Proc | Promise<Proc>, graceMs: number, killPending?: () => void): Started {
  let stopping: Promise<void> | undefined;
  let known: Proc | undefined;
  const s: Started = {
    running: Promise.resolve(),
    ended: Promise.resolve(procOrPromise).then((p) =>
      p.ended.then(async (e) => {
        // The shell is gone; when it was being stopped, wait until the rest of its group is too.
        await (stopping ?? Promise.resolve());
        return e;
      }),
    ),
    cancel: async () => {
      const p = known ?? (await procOrPromise);
      if (p.pgid === undefined) return;
      stopping ??= stopGroup(p.pgid, graceMs);
      return stopping;
    },
    killNow: () => {
      if (known?.pgid !== undefined) {
        if (groupAlive(known.pgid)) signalGroup(known.pgid, 'SIGKILL');
      } else if (known === undefined) killPending?.();
    },
  };
  const learn = (p: Proc) => {
    known = p;
    s.logOffset = p.logOffset;
    if (p.pgid !== undefined) {
      s.pgid = p.pgid;
      const start = p.procStart ?? processStartTime(p.pgid);
      if (start !== undefined) s.procStart = start;
    }
  };
  if (procOrPromise instanceof Promise) s.spawned = procOrPromise.then(learn);
  else learn(procOrPromise);
  return s;
}
