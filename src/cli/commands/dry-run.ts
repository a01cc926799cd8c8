// `oxo-flow dry-run`: load, check, plan (the same planWorkflow that run executes), and show the plan.
import { planWorkflow, type JobSpec, type Plan } from '../../workflow/plan/index.js';
import { addAiReview, aiRequest } from '../ai-review.js';
import type { CliContext } from '../context.js';
import { diskFs, loadChecked, planSettings, splitWorkflowArg, type PlanOptions } from '../plan-input.js';
import { planText, summaryLine } from '../plan-text.js';
import { outcomeOf, type CommandResult } from '../result.js';
import { applyRunState, checkForcerun } from '../../run/freshness.js';
import { StateStore } from '../../run/state.js';

export interface DryRunOptions extends PlanOptions {
  forcerun?: string[];
  ai?: boolean;
  skill?: string[];
}

export async function dryRun(opts: DryRunOptions, ctx: CliContext): Promise<CommandResult> {
  const { workflow: arg, overrides } = splitWorkflowArg(opts, ctx.cwd);
  const loaded = await loadChecked(arg, ctx, overrides);
  if (!loaded.ok) return { outcome: loaded.outcome, json: { workflow: loaded.shown ?? arg ?? null, jobs: [] }, diagnostics: loaded.diagnostics };
  const badForcerun = checkForcerun(loaded.workflow, opts.forcerun ?? []);
  if (badForcerun.length > 0) return { outcome: 'usage', json: { workflow: loaded.shown, jobs: [] }, diagnostics: [...loaded.diagnostics, ...badForcerun] };
  const settings = planSettings(opts, overrides);
  const { plan, diagnostics } = planWorkflow(loaded.workflow, settings, diskFs);
  // The run state (unfinished jobs, changed commands, --forcerun) decides as it does for run.
  if (plan !== undefined) applyRunState(plan, new StateStore(loaded.workflow.dir).records(), { forcerun: opts.forcerun ?? [], cpus: settings.cpus });
  const all = [...loaded.diagnostics, ...diagnostics];
  const request = aiRequest('dry-run', opts, loaded.path, loaded.workflow);
  if (plan === undefined) return addAiReview({ outcome: outcomeOf(all), json: { workflow: loaded.shown, jobs: [] }, diagnostics: all }, request, ctx);
  return addAiReview({
    outcome: 'ok',
    // Building the JSON view of 12,000 jobs costs real time; only --json needs it.
    json: ctx.json ? planJson(plan, loaded.shown) : {},
    diagnostics: all,
    human: (style) => planText(plan, style, { verbose: ctx.verbose, workflowArg: loaded.shown }),
    quietHuman: (style) => summaryLine(plan, style),
  }, request, ctx);
}

/** The --json document's fields (docs/dry-run.md documents them). */
function planJson(plan: Plan, shown: string): Record<string, unknown> {
  return {
    workflow: shown,
    name: plan.workflow,
    jobs: plan.jobs.map(jobJson),
    summary: {
      jobs: plan.summary.jobs,
      run: plan.summary.run,
      skip: plan.summary.skip,
      by_reason: plan.summary.byReason,
      phases: plan.summary.phases,
      max_parallel: plan.summary.maxParallel,
      suggested_jobs: plan.suggestedJobs,
    },
    samples: plan.samples,
  };
}

function jobJson(j: JobSpec): Record<string, unknown> {
  return {
    id: j.id,
    rule: j.rule,
    step: j.step ?? null,
    wildcards: j.wildcards,
    status: j.status,
    reason: j.reason,
    detail: j.detail ?? null,
    inputs: j.inputs,
    outputs: j.outputs,
    log: j.log ?? null,
    command: j.shownCommand,
    // What run executes: the exact script (no value in it) and the values it gets, masked as shown.
    script: j.command,
    env: j.shownEnv,
    retries: j.retries,
    time_limit_seconds: j.timeLimitSeconds ?? null,
    temp_outputs: j.tempOutputs,
    protected_outputs: j.protectedOutputs,
    threads: j.threads,
    memory: j.memory ?? null,
    memory_mb: j.memoryMb ?? null,
    environment: j.environment ? { kind: j.environment.kind, spec: j.environment.spec } : null,
    level: j.level,
    depends_on: j.dependsOn,
    missing_inputs: j.missingInputs,
  };
}
