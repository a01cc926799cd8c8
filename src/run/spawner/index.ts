// The light spawner: jobs start through one long-lived helper process (helper.ts, a small Perl
// program), not by forking the runner. Forking a Node process copies the page tables of its whole heap
// and faults them back in (≈ 115 page faults and 2–5 ms of the runner's CPU per job); the helper's fork
// costs a few hundred microseconds of its own, and the runner only writes a request down a pipe and
// reads a line back. The helper also creates the job's log and writes the attempt's header into it,
// reads the job's start time, reaps each job itself and reports the CPU time of what it reaped and
// the log's size, so the run record's figures stay exact (src/run/record/sampler.ts) and the runner's
// one thread does none of that work.
//
// Requests carry the argument list and the environment as NUL-ended fields, read by the helper with a
// split: no value is ever parsed by a shell. The environment is sent as what changed since the last
// job (the helper keeps the last one). The helper is started with an empty environment (no PERL5OPT
// or PERL5LIB of the user can reach it) and in its own session (a terminal's Ctrl-C goes to the
// runner only, which stops the jobs itself).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { getSystemErrorMap } from 'node:util';
import { HELPER_SOURCE } from './helper.js';

/** What one job start came to. */
export type Outcome =
  /**
   * Exited (wait status decoded), with the CPU time of what the helper reaped, in clock ticks, and the
   * log's size at that moment (undefined when it is gone).
   */
  | { kind: 'exited'; code: number | null; signal?: string; cpu: { user: number; system: number }; logBytes?: number; logDropped?: true }
  /**
   * Could not be started: errno's name first, as Node's spawn errors read (`E2BIG: …`). `untried`:
   * the helper died before it read any request (nothing was forked), so starting it another way is safe.
   */
  | { kind: 'not started'; why: string; untried?: true }
  /** The helper ended while the job ran: its exit status is lost (the caller stops the group). */
  | { kind: 'lost'; why: string };

/** A job that runs: its pid (the leader of its own group), its start time, where its attempt's part of the log begins. */
export interface Running {
  pid: number;
  /** Clock ticks since boot (/proc/PID/stat field 22); undefined where it cannot be read. */
  start?: number;
  /** The log's size before this attempt's header. */
  logOffset: number;
}

export interface Launched {
  /** Resolves once the job runs, or undefined when it did not start. */
  pid: Promise<Running | undefined>;
  outcome: Promise<Outcome>;
}

export interface LaunchRequest {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The job's log (absolute): stdout and stderr go to it, after the header. */
  logPath: string;
  /** The attempt's header, written first. */
  header: string;
  /** A new log (the first attempt), or appended to (a retry). */
  fresh: boolean;
  /**
   * When set, `argv` is exec'd directly (PWD set as sh sets it) and, if that exec fails, this one
   * instead (`/bin/sh -c SCRIPT`: the same messages and exit codes as a job started through sh).
   */
  fallback?: readonly string[];
}

interface Pending {
  request: LaunchRequest;
  pid?: number;
  resolvePid(pid: Running | undefined): void;
  resolveOutcome(o: Outcome): void;
}

/**
 * The helper program's interpreter: OXO_FLOW_PERL when set (the only one tried), else the system's
 * perl first (a conda environment's may be any version), else the first on PATH.
 */
export function findPerl(env: NodeJS.ProcessEnv): string | undefined {
  const forced = env.OXO_FLOW_PERL !== undefined && env.OXO_FLOW_PERL !== '' ? [env.OXO_FLOW_PERL] : undefined;
  const dirs = ['/usr/bin', '/bin', ...(env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d))];
  for (const p of forced ?? dirs.map((d) => path.join(d, 'perl'))) {
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** Errno number → `NAME: message` (Node's own table). */
function errnoText(errno: number): { name: string; message: string } {
  const known = getSystemErrorMap().get(-errno);
  return known !== undefined ? { name: known[0], message: known[1] } : { name: `errno ${errno}`, message: 'unknown error' };
}

export class Spawner {
  readonly #child: ChildProcess;
  readonly #jobs = new Map<string, Pending>();
  #next = 0;
  /** The environment the helper holds now (the last job's): a request sends what differs from it. */
  readonly #sent = new Map<string, string>();
  #ready = false;
  #stderr = '';
  #buffer = '';
  /** Why the helper is gone (undefined while it lives). */
  #gone: string | undefined;
  readonly #onGone: (why: string, wasReady: boolean) => void;
  #markExited!: () => void;
  /** Resolves once the helper has exited and been reaped. */
  readonly #exited = new Promise<void>((resolve) => (this.#markExited = resolve));

  /** Start the helper. `onGone` is told once if it ends while the run still needs it. */
  constructor(perl: string, onGone: (why: string, wasReady: boolean) => void) {
    this.#onGone = onGone;
    this.#child = spawn(perl, ['-e', HELPER_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'], env: {}, detached: true });
    const child = this.#child;
    child.stdout!.setEncoding('latin1');
    child.stdout!.on('data', (chunk: string) => this.#read(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (this.#stderr.length < 2000) this.#stderr += chunk;
    });
    // A helper that cannot start, or that ended: 'close' comes after its last reply was read.
    child.on('error', (err) => {
      this.#markExited();
      this.#lost(`${(err as NodeJS.ErrnoException).code ?? 'error'}: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      this.#markExited();
      this.#lost(signal !== null ? `killed by ${signal}` : `exit ${code}`);
    });
    child.stdin!.on('error', () => {
      // EPIPE: the helper is gone; 'exit' says why.
    });
    this.#idle();
  }

  /** True once the helper said it is ready. */
  get ready(): boolean {
    return this.#ready;
  }

  get alive(): boolean {
    return this.#gone === undefined;
  }

  /**
   * Start one job. Throws (synchronously, like Node's spawn) when a value cannot be passed at all:
   * a NUL byte in an argument or the environment.
   */
  launch(request: LaunchRequest): Launched & { id: string } {
    const { argv, env } = request;
    // What changed since the last job's environment: set, and gone.
    const set: string[] = [];
    let kept = 0;
    for (const k in env) {
      const v = env[k];
      if (v === undefined) continue;
      const was = this.#sent.get(k);
      if (was === v) kept++;
      else {
        if (k.includes('\0') || v.includes('\0')) throw nulError();
        set.push(k, v);
      }
    }
    const unset: string[] = [];
    if (kept + set.length / 2 !== this.#sent.size) {
      for (const k of this.#sent.keys()) if (env[k] === undefined) unset.push(k);
    }
    const fallback = request.fallback ?? [];
    for (const f of [...argv, ...fallback]) if (f.includes('\0')) throw nulError();
    if (request.cwd.includes('\0') || request.logPath.includes('\0') || request.header.includes('\0')) throw nulError();
    const id = String(++this.#next);
    let resolvePid!: (pid: Running | undefined) => void;
    let resolveOutcome!: (o: Outcome) => void;
    const pid = new Promise<Running | undefined>((r) => (resolvePid = r));
    const outcome = new Promise<Outcome>((r) => (resolveOutcome = r));
    if (this.#gone !== undefined) {
      resolvePid(undefined);
      resolveOutcome({ kind: 'not started', why: `ESRCH: the job spawner has ended (${this.#gone})` });
      return { id, pid, outcome };
    }
    this.#jobs.set(id, { request, resolvePid, resolveOutcome });
    let text = `S\0${id}\0${request.cwd}\0${request.logPath}\0${request.fresh ? 'w' : 'a'}\0${request.header}\0${argv.length}\0`;
    for (const a of argv) text += `${a}\0`;
    text += `${set.length / 2}\0`;
    for (let i = 0; i < set.length; i += 2) {
      text += `${set[i]}=${set[i + 1]}\0`;
      this.#sent.set(set[i]!, set[i + 1]!);
    }
    text += `${unset.length}\0`;
    for (const k of unset) {
      text += `${k}\0`;
      this.#sent.delete(k);
    }
    text += `${fallback.length}\0`;
    for (const a of fallback) text += `${a}\0`;
    this.#child.stdin!.write(text);
    this.#busy();
    return { id, pid, outcome };
  }

  /** SIGKILL a job's group at once, even one whose start the helper has not answered yet. */
  kill(id: string): void {
    const job = this.#jobs.get(id);
    if (job === undefined || this.#gone !== undefined) return;
    this.#child.stdin!.write(`K\0${id}\0`);
  }

  /**
   * The run is over: the helper reads the end of its input and exits, and the runner waits for that
   * (milliseconds) so that it reaps the helper itself: the helper's CPU time, and its jobs', then
   * count in the runner's own accounting (time, getrusage), and no orphan is left behind.
   */
  close(): Promise<void> {
    if (this.#gone !== undefined) return this.#exited;
    this.#gone = 'closed';
    this.#child.stdin!.end();
    // Bounded: a helper that does not go within two seconds is left to end by itself.
    const timer = setTimeout(() => this.#idle(), 2000);
    return this.#exited.then(() => clearTimeout(timer));
  }

  #read(chunk: string): void {
    const text = this.#buffer + chunk;
    const lines = text.split('\n');
    this.#buffer = lines.pop()!;
    for (const line of lines) this.#reply(line);
  }

  #reply(line: string): void {
    const f = line.split(' ');
    if (f[0] === 'R') {
      this.#ready = true;
      return;
    }
    const job = this.#jobs.get(f[1] ?? '');
    if (job === undefined) return;
    if (f[0] === 'P') {
      job.pid = Number(f[2]);
      const start = Number(f[3]);
      job.resolvePid({ pid: job.pid, ...(f[3] !== '-' && Number.isSafeInteger(start) ? { start } : {}), logOffset: Number(f[4]) || 0 });
    } else if (f[0] === 'F') {
      this.#settle(f[1]!);
      const e = errnoText(Number(f[2]));
      // What failed, named with what it was given (kept here: a value never travels back in a reply line).
      const step = f.slice(3).join(' ');
      const r = job.request;
      const stage = step === 'exec' ? `exec ${(r.fallback ?? r.argv)[0]}` : step === 'chdir' ? `chdir ${r.cwd}` : step === 'open its log' ? `open its log ${r.logPath}` : step;
      job.resolvePid(undefined);
      job.resolveOutcome({ kind: 'not started', why: `${e.name}: ${stage}: ${e.message}` });
    } else if (f[0] === 'X') {
      this.#settle(f[1]!);
      const status = Number(f[2]);
      const sig = status & 0x7f;
      const ticks = (s: string | undefined) => Math.max(0, Math.round(Number(s) * 100)) || 0;
      const cpu = { user: ticks(f[3]), system: ticks(f[4]) };
      const size = Number(f[5]);
      const logBytes = { ...(Number.isSafeInteger(size) && size >= 0 ? { logBytes: size } : {}), ...(f[6] === '1' ? { logDropped: true as const } : {}) };
      job.resolveOutcome(sig === 0 ? { kind: 'exited', code: (status >> 8) & 0xff, cpu, ...logBytes } : { kind: 'exited', code: null, signal: signalName(sig), cpu, ...logBytes });
    }
  }

  #settle(id: string): void {
    this.#jobs.delete(id);
    if (this.#jobs.size === 0) this.#idle();
  }

  #lost(why: string): void {
    if (this.#gone === 'closed' && this.#jobs.size === 0) {
      this.#idle();
      return;
    }
    if (this.#gone !== undefined && this.#gone !== 'closed') return;
    const detail = this.#stderr.trim().split('\n').slice(-2).join(' ');
    const reason = `${why}${detail !== '' ? `: ${detail}` : ''}`;
    this.#gone = reason;
    const wasReady = this.#ready;
    for (const [id, job] of this.#jobs) {
      this.#jobs.delete(id);
      if (job.pid !== undefined) job.resolveOutcome({ kind: 'lost', why: `the job spawner ended while the job ran (${reason}); its exit status is lost` });
      else {
        job.resolvePid(undefined);
        job.resolveOutcome({ kind: 'not started', why: `ESRCH: the job spawner ended before it started the job (${reason})`, ...(wasReady ? {} : { untried: true as const }) });
      }
    }
    this.#idle();
    this.#onGone(reason, wasReady);
  }

  // While a job runs, the helper's replies keep the runner's event loop alive; idle, nothing does
  // (a run that forgot to close the spawner still ends).
  #busy(): void {
    // Both: the replies, and the helper's exit (which may come after its output closed).
    this.#child.ref();
    (this.#child.stdout as unknown as { ref(): void }).ref();
  }

  #idle(): void {
    this.#child.unref();
    (this.#child.stdin as unknown as { unref?(): void }).unref?.();
    (this.#child.stdout as unknown as { unref(): void }).unref();
    (this.#child.stderr as unknown as { unref(): void }).unref();
  }
}

function nulError(): Error {
  return Object.assign(new TypeError('an argument or environment value holds a NUL byte, which no program can be given'), { code: 'ERR_INVALID_ARG_VALUE' });
}

function signalName(n: number): string {
  for (const [name, value] of Object.entries(osConstants.signals)) if (value === n) return name;
  return `signal ${n}`;
}
