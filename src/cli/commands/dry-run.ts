// `oxo-flow dry-run`: load, check, plan (the same planWorkflow that run executes), and show the plan.
import type { JobSpec, Plan } from '../../workflow/plan/index.js';
import { addAiReview, aiRequest } from '../ai-review.js';
import type { CliContext } from '../context.js';
import { StreamedArray } from '../json-stream.js';
import { planCommand, type PlanCommandOptions } from '../plan-command.js';
import { planText, summaryLine } from '../plan-text.js';
import type { CommandResult } from '../result.js';

export interface DryRunOptions extends PlanCommandOptions {
  ai?: boolean;
  skill?: string[];
}

export async function dryRun(opts: DryRunOptions, ctx: CliContext): Promise<CommandResult> {
  // The same plan run executes, assembled the same way (plan-command.ts).
  const planned = await planCommand(opts, ctx);
  if (!planned.ok) {
    const failed: CommandResult = { outcome: planned.outcome, json: { workflow: planned.shown, jobs: [] }, diagnostics: planned.diagnostics };
    const loaded = planned.loaded;
    // --ai on a workflow that does not load: the review says why it did not run.
    if (loaded === undefined) return addAiReview(failed, aiRequest('dry-run', opts, undefined, undefined, 'the workflow has errors, so dry-run could not load it'), ctx);
    return planned.outcome === 'usage' ? failed : addAiReview(failed, aiRequest('dry-run', opts, loaded.path, loaded.workflow), ctx);
  }
  const { plan, loaded, diagnostics } = planned;
  const request = aiRequest('dry-run', opts, loaded.path, loaded.workflow);
  return addAiReview({
    outcome: 'ok',
    // Building the JSON view of 12,000 jobs costs real time; only --json needs it.
    json: ctx.json ? { ...planJson(plan, loaded.shown), project: loaded.workflow.dir } : {},
    diagnostics,
    human: (style) =>
      planText(plan, style, { verbose: ctx.verbose, workflowArg: loaded.shown, ...(loaded.workflow.dir !== loaded.workflow.pipelineDir ? { project: loaded.workflow.dir } : {}) }),
    quietHuman: (style) => summaryLine(plan, style),
  }, request, ctx);
}

/** The --json document's fields (docs/dry-run.md documents them). */
function planJson(plan: Plan, shown: string): Record<string, unknown> {
  return {
    workflow: shown,
    name: plan.workflow,
    // One row per job, built and written a chunk at a time (json-stream.ts): never all in memory.
    jobs: new StreamedArray(plan.jobs.length, (i) => jobJson(plan.jobs[i]!)),
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
  const forms = j.commandForms();
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
    command: forms.shownCommand,
    // What run executes: the exact script (no value in it) and the values it gets, masked as shown.
    script: forms.command,
    env: forms.shownEnv,
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
