// The one validation entry point: the loader's findings, the cross-field checks, and what the
// expansion pipeline finds (cycles, duplicate producers, values that make a command destructive or
// a path leave the project, config keys without a value). `oxo-flow validate`, lint, and the model's
// read-only validate_workflow tool all call it, so they report the same problems.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkWorkflow } from './checks/index.js';
import { expandWorkflow } from './expand/expand-workflow.js';
import { loadWorkflow, type LoadOptions } from './load/index.js';
import type { Workflow } from './model.js';

/** Every error of a loaded workflow, each independent problem once, in one run. */
export function validateWorkflow(workflow: Workflow): Diagnostic[] {
  const checks = checkWorkflow(workflow);
  // Rule-level expansion: a wildcard with no source gets a stand-in (that is lint's W024 and
  // dry-run's E021), so the DAG of every rule is still checked.
  const { diagnostics } = expandWorkflow(workflow, { standIns: true });
  // A problem the checks found on the template may show up again once expanded: keep the first.
  const seen = new Set(checks.map((d) => `${d.code}\0${d.rule ?? ''}`));
  return [...checks, ...diagnostics.filter((d) => !seen.has(`${d.code}\0${d.rule ?? ''}`))];
}

/** Load workflow text and validate it: what a caller holding only the text (the AI tool) needs. */
export function validateWorkflowText(text: string, file: string, options: LoadOptions = {}): { workflow?: Workflow; diagnostics: Diagnostic[] } {
  const loaded = loadWorkflow(text, file, options);
  if (loaded.workflow === undefined) return { diagnostics: loaded.diagnostics };
  return { workflow: loaded.workflow, diagnostics: [...loaded.diagnostics, ...validateWorkflow(loaded.workflow)] };
}
