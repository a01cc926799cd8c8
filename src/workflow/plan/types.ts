// The plan: data that dry-run renders and run executes, so an executor needs only a JobSpec. A job's
// command and dependsOn are computed on first read (planned-job.ts); everything else is plain data.
import type { Environment } from '../model.js';

export interface PlanSettings {
  /** `KEY=VALUE` config overrides as typed on the command line. */
  overrides?: readonly string[];
  /** `--samples a,b,c`, already split. */
  samples?: readonly string[];
  /** `-t`: rule names, job ids or output paths; empty means every job. */
  targets?: readonly string[];
  /** CPUs available, for the suggested `-j`. */
  cpus?: number;
}

/** The file system as the planner sees it: paths are absolute. */
export interface PlanFs {
  stat(path: string): { mtimeMs: number } | undefined;
  list(dir: string): string[] | undefined;
}

export type JobStatus = 'run' | 'skip';
export type JobReason =
  | 'never completed'
  | 'outputs missing'
  | 'input newer'
  | 'upstream will run'
  // The last three come from the run state (src/run/freshness.ts), which dry-run and run both apply.
  | 'incomplete'
  | 'command changed'
  | 'forced'
  | 'up to date'
  | 'when false';

export const RUN_REASONS: readonly JobReason[] = ['never completed', 'outputs missing', 'input newer', 'upstream will run', 'incomplete', 'command changed', 'forced'];
export const SKIP_REASONS: readonly JobReason[] = ['up to date', 'when false'];

export interface JobSpec {
  /** `rule`, `rule[sample=S1]`, `rule[group=g,sample=S1]` (keys sorted), `rule.combine[…]`. */
  id: string;
  rule: string;
  /** Transform steps: `map` (one per split value) and `combine`. */
  step?: 'map' | 'combine';
  wildcards: Record<string, string>;
  /**
   * The exact script the job runs (`/bin/sh -c`), empty when the rule has none. It holds no value:
   * every placeholder is a reference to a variable of `env` ("${OXO_SAMPLE}"), so no value can be
   * read as shell code (see docs/format.md, "How values reach commands").
   */
  readonly command: string;
  /** The variables the script refers to, with their values. Never print it: sensitive values are in clear. */
  readonly env: Readonly<Record<string, string>>;
  /** `env` as every display shows it: sensitive config values read `***`. */
  readonly shownEnv: Readonly<Record<string, string>>;
  /** The command as a person reads it, values written in, for every display and log: sensitive values read `***`. */
  readonly shownCommand: string;
  inputs: string[];
  outputs: string[];
  log?: string;
  threads: number;
  memoryMb?: number;
  /** Memory as written in the workflow ("8G"), for display. */
  memory?: string;
  environment?: Environment;
  /** How many times run retries the job after a failure (the rule's `retries`, 0 by default). */
  retries: number;
  /** The rule's `resources.time_limit` in seconds, when it has one. */
  timeLimitSeconds?: number;
  /** Outputs the rule marks `temp_output`: removed once every job that reads them is done. */
  tempOutputs: string[];
  /** Outputs the rule marks `protected_output`: made read-only after the job. */
  protectedOutputs: string[];
  /** Ids of the jobs this one waits for. */
  readonly dependsOn: string[];
  /** Longest path from a job that waits for nothing (0-based). */
  level: number;
  status: JobStatus;
  reason: JobReason;
  /** The file or job behind the reason, e.g. which input is newer. */
  detail?: string;
  /** Inputs that do not exist and that no planned job produces: the run would fail on them. */
  missingInputs: string[];
}

export interface PlanSummary {
  jobs: number;
  run: number;
  skip: number;
  byReason: Record<JobReason, number>;
  phases: number;
  /** Widest phase counting only jobs that will run. */
  maxParallel: number;
}

export interface Plan {
  workflow: string;
  file: string;
  jobs: JobSpec[];
  summary: PlanSummary;
  /** A `-j` for `oxo-flow run`: the widest phase of runnable jobs, at most the CPUs available. */
  suggestedJobs: number;
  samples: { origin: 'sample_groups' | 'samples_flag' | 'sample_pattern' | 'none'; count: number };
}
