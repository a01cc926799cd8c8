// The part of "what will run" that needs the run state. planWorkflow decides from files and times
// alone; this adds what only the state knows, and both dry-run and run call it on the same plan, so
// they always agree:
// - a job whose last run did not finish (`running` left by a crash, or `failed`) reruns: its outputs
//   may be partial even when they look newer than the inputs ("incomplete");
// - a job whose command, environment or outputs changed since it last ran reruns ("command changed");
// - `--forcerun RULE` reruns every job of the rule ("forced");
// and everything downstream of a job that now runs reruns too ("upstream will run").
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Workflow } from '../workflow/model.js';
import type { JobReason, JobSpec, Plan } from '../workflow/plan/index.js';
import { jobHash, type JobRecord } from './state.js';

export interface FreshnessOptions {
  forcerun?: readonly string[];
  /** CPUs, for the suggested -j (as planWorkflow was given). */
  cpus?: number;
}

/** Update the plan's statuses in place from the run state, and its summary with them. */
export function applyRunState(plan: Plan, records: ReadonlyMap<string, JobRecord>, options: FreshnessOptions = {}): Plan {
  const forced = new Set(options.forcerun ?? []);
  const runs = new Set<string>();
  // plan.jobs is in dependency order: a job's upstream jobs are decided before it.
  for (const job of plan.jobs) {
    if (job.reason === 'when false') continue;
    if (job.status === 'skip') {
      const why = stateReason(job, records.get(job.id), forced);
      if (why !== undefined) set(job, why.reason, why.detail);
      else {
        const upstream = job.dependsOn.find((d) => runs.has(d));
        if (upstream !== undefined) set(job, 'upstream will run', upstream);
      }
    }
    if (job.status === 'run') runs.add(job.id);
  }
  plan.summary = { ...summaryOf(plan.jobs), phases: plan.summary.phases };
  plan.suggestedJobs = Math.max(1, Math.min(plan.summary.maxParallel, options.cpus ?? plan.summary.maxParallel));
  return plan;
}

function stateReason(job: JobSpec, record: JobRecord | undefined, forced: ReadonlySet<string>): { reason: JobReason; detail: string } | undefined {
  if (forced.has(job.rule)) return { reason: 'forced', detail: `--forcerun ${job.rule}` };
  if (record === undefined) return undefined;
  if (record.status !== 'done') {
    return { reason: 'incomplete', detail: record.status === 'running' ? 'a run stopped while this job ran' : 'its last run failed' };
  }
  if (record.hash !== jobHash(job)) return { reason: 'command changed', detail: 'command, environment or outputs differ from the last run' };
  return undefined;
}

function set(job: JobSpec, reason: JobReason, detail: string): void {
  job.status = 'run';
  job.reason = reason;
  job.detail = detail;
}

function summaryOf(jobs: readonly JobSpec[]): Omit<Plan['summary'], 'phases'> {
  const byReason = Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<JobReason, number>;
  const widths = new Map<number, number>();
  let run = 0;
  for (const j of jobs) {
    byReason[j.reason] += 1;
    if (j.status === 'run') {
      run += 1;
      widths.set(j.level, (widths.get(j.level) ?? 0) + 1);
    }
  }
  return { jobs: jobs.length, run, skip: jobs.length - run, byReason, maxParallel: Math.max(0, ...widths.values()) };
}

const REASONS: readonly JobReason[] = [
  'never completed',
  'outputs missing',
  'input newer',
  'upstream will run',
  'incomplete',
  'command changed',
  'forced',
  'up to date',
  'when false',
];

/** RUN006 for each --forcerun name that is no rule of the workflow. */
export function checkForcerun(workflow: Workflow, names: readonly string[]): Diagnostic[] {
  const rules = workflow.rules.map((r) => r.name);
  return names
    .filter((n) => !rules.includes(n))
    .map((n) => diagnostic('RUN006', `--forcerun ${n}: the workflow has no rule ${n} (rules: ${rules.join(', ')})`));
}
