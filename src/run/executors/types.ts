// The executor seam. The job lifecycle (src/run/lifecycle.ts) is written once: prepare the
// environment, start, watch, time limit, retry, collect outputs, record state. An executor only
// knows how a prepared job is started, watched and cancelled: on this machine as a process group
// (local.ts), or through a batch scheduler (cluster.ts with a driver: slurm.ts, sge.ts).
// Executors are registered in one table (index.ts).
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Launch } from '../environment.js';
import type { PreparedJob } from '../preflight.js';
import type { JobRecord } from '../state.js';
import type { ExecutorProfile } from '../profile.js';

/** What started: enough to record it (pgid or scheduler id), to wait for it and to stop it. */
export interface Started {
  /** Local: the process group id, and its leader's start time (to prove ownership later). */
  pgid?: number;
  procStart?: number;
  /** A scheduler's job id. */
  clusterId?: string;
  /** Where a cluster job writes its exit status (recorded, so a later run can adopt the job). */
  exitFile?: string;
  /** Local, through the light spawner: resolves once pgid and procStart are known (a moment after start). */
  spawned?: Promise<void>;
  /** Where this attempt's part of the log begins, when the executor wrote the header (writesLogs); known once spawned. */
  logOffset?: number;
  /** Resolves when the job has begun to run (at once locally; a queued cluster job later). */
  running: Promise<void>;
  /** Resolves when the job has ended. Never rejects. */
  ended: Promise<Ended>;
  /** Stop it: SIGTERM, grace, SIGKILL (local), or the scheduler's cancel. Resolves once it is gone. */
  cancel(): Promise<void>;
  /** Second Ctrl-C: stop it at once, synchronously (SIGKILL to the group, or the cancel command). */
  killNow(): void;
}

export interface Ended {
  /** Exit status of the job's command, when it reported one. */
  code: number | null;
  signal?: string;
  /** The scheduler's final word when the job left no exit status (CANCELLED, TIMEOUT, NODE_FAIL…). */
  state?: string;
  /** The scheduler stopped it for its time limit. */
  timedOut?: boolean;
  /** The process could not be started at all (E2BIG, ENOENT…). */
  spawnError?: string;
  /** Local, through the light spawner: the CPU time (clock ticks) of what its helper reaped when the job's leader exited. */
  cpu?: { user: number; system: number };
  /** The log's size when the job's leader exited, when the executor knows it (the light spawner's helper). */
  logBytes?: number;
  /** The helper removed the log: a first attempt that exited 0 and wrote nothing but its header. */
  logDropped?: true;
}

export interface StartRequest {
  job: PreparedJob;
  launch: Launch;
  /** The whole environment the job gets (the runner's, the backend's, OXO_FLOW_RUN_ID). */
  env: NodeJS.ProcessEnv;
  /** The runner's log of this job (absolute path). */
  logPath: string;
  /** The attempt's header (what ran, when): the first thing of the attempt's part of the log. */
  logHeader: string;
  /** The first attempt starts the log afresh; a retry appends to it. */
  logFresh: boolean;
  /**
   * For an executor that does not write logs itself: a descriptor on the log, its header already in
   * it (the executor must not close it). An executor with `writesLogs` gets none and opens the log itself.
   */
  logFd?: number;
  attempt: number;
  runId: string;
}

export interface ExecutorContext {
  workflowDir: string;
  graceMs: number;
  /** How often a scheduler's queue is asked (milliseconds). */
  pollMs: number;
  profile: ExecutorProfile;
  env: NodeJS.ProcessEnv;
}

export interface Executor {
  readonly name: string;
  /** In messages: "Slurm", "Grid Engine". */
  readonly label: string;
  /** A cluster runs jobs elsewhere: cores and memory of this machine do not limit them. */
  readonly cluster: boolean;
  /** The code of a job that ended without an exit status (cancelled, out of time, node lost…). */
  readonly lostCode: string;
  /** It opens each attempt's log and writes its header itself (the local executor: its helper does). */
  readonly writesLogs?: boolean;
  /** Whether it can run here at all (the scheduler's commands answer); checked before anything starts. */
  available(): { ok: true } | { ok: false; why: string };
  /** Everything about the jobs that the scheduler would refuse, found before any job is submitted. */
  check(jobs: readonly PreparedJob[]): Diagnostic[];
  /** Start one attempt. May throw (the lifecycle fails the job with the error's code). */
  start(request: StartRequest): Started;
  /** A `running` record of a dead runner whose job the scheduler still has: watch it instead of starting anew. */
  adopt?(record: JobRecord, job: PreparedJob): Started | undefined;
  /** Cancel a leftover cluster job a record names (it will not be adopted). */
  forget?(record: JobRecord): void;
  /** Warnings about how the run went (e.g. jobs started another way than planned), told once it ends. */
  notes?(): readonly Diagnostic[];
  /** Stop timers and pollers (and, locally, the spawner's helper: awaited when a promise is returned). */
  close(): void | Promise<void>;
}

export type ExecutorFactory = (ctx: ExecutorContext) => Executor;
