// The plan: data that dry-run renders and run executes, so an executor needs only a JobSpec. A job's
// command and dependsOn are computed on first read (planned-job.ts); everything else is plain data.
import type { CommandForms } from '../expand/expand-jobs.js';

export type { CommandForms };
import type { Environment } from '../model.js';
import type { EnvironmentChoice, ResourceSettings } from './resources.js';

export interface PlanSettings {
  /** `KEY=VALUE` config overrides as typed on the command line. */
  overrides?: readonly string[];
  /** `--samples a,b,c`, already split. */
  samples?: readonly string[];
  /** `-t`: rule names, job ids or output paths; empty means every job. */
  targets?: readonly string[];
  /** `--omit-from`: rule names, job ids or output paths left out, with everything downstream of them. */
  omitFrom?: readonly string[];
  /** CPUs available, for the suggested `-j`. */
  cpus?: number;
  /** The run state: unfinished jobs, changed commands and `--forcerun` decide here too. */
  state?: PlanState;
  /** Caps and `--set-threads` / `--set-resources` (resources.ts). */
  resources?: ResourceSettings;
  /** Which declared environments the jobs use (`--env`); default: all of them. */
  environments?: EnvironmentChoice;
}

/** The file system as the planner sees it: paths are absolute. */
export interface PlanFs {
  stat(path: string): { mtimeMs: number } | undefined;
  list(dir: string): string[] | undefined;
}

export type JobStatus = 'run' | 'skip';

/**
 * Every reason a job runs or is skipped, with its status, in the order they are checked (the first
 * that applies names the job's reason) and the order dry-run lists them. The one list: the type, the
 * summary's counts and the displays are all derived from it.
 */
export const JOB_REASONS = {
  'never completed': 'run',
  'outputs missing': 'run',
  // The next three come from the run state (PlanSettings.state), which dry-run and run both pass.
  forced: 'run',
  incomplete: 'run',
  'command changed': 'run',
  'upstream will run': 'run',
  'input newer': 'run',
  'up to date': 'skip',
  'when false': 'skip',
} as const satisfies Record<string, JobStatus>;

export type JobReason = keyof typeof JOB_REASONS;

const ALL_REASONS = Object.keys(JOB_REASONS) as JobReason[];
export const RUN_REASONS: readonly JobReason[] = ALL_REASONS.filter((r) => JOB_REASONS[r] === 'run');
export const SKIP_REASONS: readonly JobReason[] = ALL_REASONS.filter((r) => JOB_REASONS[r] === 'skip');

/** A count of zero for every reason, in the list's order. */
export function zeroByReason(): Record<JobReason, number> {
  const out = {} as Record<JobReason, number>;
  for (let k = 0; k < ALL_REASONS.length; k++) out[ALL_REASONS[k]!] = 0;
  return out;
}

/** What the run state says of a job's last run (src/run/state.ts keeps it; the plan only reads it). */
export interface PlanRecord {
  /** `done` when the last run finished; anything else (`running`, `failed`, unreadable) is unfinished. */
  status: string;
  /** jobHash() of the job as it ran. */
  hash: string;
}

export interface PlanState {
  /** The last run of each job, by id. */
  records: ReadonlyMap<string, PlanRecord>;
  /** `--forcerun RULE`: every job of these rules runs. */
  forcerun?: readonly string[];
}

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
  /**
   * command, env, shownCommand and shownEnv at once, worked out in one pass and not kept: for a
   * reader that reads each job once (dry-run --json). Reading the four fields gives the same values.
   */
  commandForms(): CommandForms;
  /** The values the job gets with the declared threads and memory: what the run state's hash takes. */
  readonly stateEnv?: Readonly<Record<string, string>>;
  /** A script rule's job as JSON (sensitive values `***`): the run writes it next to the log, named by OXO_JOB_JSON. */
  readonly jobJson?: string;
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
  /** Named by a target (`-t`, a positional target): its temp outputs are wanted, so kept. */
  targeted?: true;
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
