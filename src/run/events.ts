// What a run reports while it goes (the command line turns these into a progress line or log lines)
// and what it hands back at the end. Shared by every executor (src/run/lifecycle.ts emits them).

import type { Diagnostic } from '../diagnostics/diagnostic.js';

export type JobOutcome = 'done' | 'failed' | 'timed out' | 'interrupted' | 'blocked' | 'not started';

export interface JobResult {
  id: string;
  rule: string;
  outcome: JobOutcome;
  /** Exit code or signal, when the job ran and failed. */
  exit?: string;
  /** Failed: why, in one line (e.g. "exit 1", "did not write out/x.txt"). */
  message?: string;
  /** The failed job a blocked one needed. */
  blockedBy?: string;
  attempts: number;
  seconds?: number;
  log: string;
  /** The rule's own `log` file, when it declares one (commands often send their stderr there). */
  ruleLog?: string;
  /** Scheduler job id (Slurm or Grid Engine) of its last attempt. */
  slurmJobId?: string;
  /** The diagnostic code of a failure (RUN020 exit, RUN021 missing output, RUN022 time limit, RUN042 could not prepare/start/record…). */
  code?: string;
  /** Where the last attempt's part of the runner's log begins (the failure tail shows only that attempt). */
  logOffset?: number;
}

export type RunEvent =
  | { kind: 'start'; id: string; attempt: number; attempts: number }
  /** A local attempt's process group exists (its leader's pid is the group id): for resource sampling. */
  | { kind: 'spawned'; id: string; attempt: number; pgid: number }
  /**
   * A local attempt's shell exited and was reaped (code, or the signal that ended it). `silent`: it
   * wrote nothing, so the spawner removed its log (src/run/spawner/helper.ts).
   */
  | { kind: 'exited'; id: string; attempt: number; code: number | null; signal: string | null; cpu?: { user: number; system: number }; silent?: true }
  | { kind: 'retry'; id: string; attempt: number; attempts: number; message: string }
  | { kind: 'done'; id: string; seconds: number }
  | { kind: 'failed'; id: string; message: string; log: string; code?: string }
  | { kind: 'blocked'; id: string; blockedBy: string }
  | { kind: 'submitted'; id: string; slurmJobId: string; adopted: boolean }
  | { kind: 'note'; message: string };

export interface RunReport {
  results: JobResult[];
  interrupted: boolean;
  /** Notices and warnings of the run itself (unreadable records, groups left alone, a lock taken over). */
  diagnostics?: Diagnostic[];
}
