// The one way dry-run and run (any executor, and any later reader such as a report) get their plan:
// the workflow planned against the disk and the run state together, so whether a job runs is decided
// once, in src/workflow/plan/status.ts, and both commands show and do the same thing. What the state
// adds there: a job whose last run did not finish reruns ("incomplete"), one whose command,
// environment or outputs changed reruns ("command changed"), `--forcerun RULE` reruns a rule
// ("forced"), and a removed temp output is known to have been made.
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Workflow } from '../workflow/model.js';
import { planWorkflow, type PlanFs, type PlanResult, type PlanSettings, type PlanState } from '../workflow/plan/index.js';
import { StateStore } from './state.js';

export interface StatePlan extends PlanResult {
  /** True when a command-line value was wrong (exit 2), e.g. --forcerun of no rule. */
  usage: boolean;
  store: StateStore;
}

/** Plan `workflow` with its run state and `--forcerun`; `settings.state` is filled in here. */
export function planWithState(workflow: Workflow, settings: PlanSettings, forcerun: readonly string[], fs: PlanFs): StatePlan {
  const store = new StateStore(workflow.dir);
  const bad = checkForcerun(workflow, forcerun);
  if (bad.length > 0) return { diagnostics: bad, usage: true, store };
  const state: PlanState = { records: store.records(), forcerun };
  return { ...planWorkflow(workflow, { ...settings, state }, fs), usage: false, store };
}

/** RUN006 for each --forcerun name that is no rule of the workflow. */
export function checkForcerun(workflow: Workflow, names: readonly string[]): Diagnostic[] {
  const rules = workflow.rules.map((r) => r.name);
  return names
    .filter((n) => !rules.includes(n))
    .map((n) => diagnostic('RUN006', `--forcerun ${n}: the workflow has no rule ${n} (rules: ${rules.join(', ')})`));
}
