// The one way dry-run and run assemble their plan, in one order: the words on the command line
// (workflow, overrides, targets), the run's resource settings, the workflow loaded and checked, then
// planWithState (files, times and the run state, decided once). What differs after this is only
// what each command does with the plan.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { planWithState } from '../run/freshness.js';
import type { StateStore } from '../run/state.js';
import type { Plan } from '../workflow/plan/index.js';
import type { CliContext } from './context.js';
import { diskFs, type Loaded, loadChecked, planSettings, type PlanOptions, projectFlags } from './plan-input.js';
import type { Outcome } from './result.js';
import { outcomeOf } from './result.js';
import { environmentChoice, type ResourceFlags, type RunSettings, runSettings, splitPositionals, unknownRules } from './run-args.js';

export interface PlanCommandOptions extends PlanOptions, ResourceFlags {
  forcerun?: string[];
  omitFrom?: string[];
  /** `local` (the default) caps threads and memory to the machine; a cluster executor does not. */
  executor?: string;
}

export type PlannedCommand =
  | { ok: true; loaded: Extract<Loaded, { ok: true }>; plan: Plan; diagnostics: Diagnostic[]; store: StateStore; settings: RunSettings; overrides: string[] }
  | { ok: false; outcome: Outcome; shown: string | null; diagnostics: Diagnostic[]; loaded?: Extract<Loaded, { ok: true }> };

export async function planCommand(opts: PlanCommandOptions, ctx: CliContext): Promise<PlannedCommand> {
  const words = splitPositionals(opts.workflow, opts.overrides ?? [], ctx.cwd);
  const settings = runSettings(opts, (opts.executor ?? 'local') === 'local');
  if ('diagnostics' in settings) return { ok: false, outcome: 'usage', shown: words.workflow ?? null, diagnostics: settings.diagnostics };
  const loaded = await loadChecked(words.workflow, ctx, words.overrides, projectFlags(opts));
  if (!loaded.ok) return { ok: false, outcome: loaded.outcome, shown: loaded.shown ?? words.workflow ?? null, diagnostics: loaded.diagnostics };
  const workflow = loaded.workflow;
  const badRules = unknownRules(settings.resources, workflow.rules.map((r) => r.name));
  if (badRules.length > 0) return { ok: false, outcome: 'usage', shown: loaded.shown, diagnostics: [...loaded.diagnostics, ...badRules], loaded };
  const base = planSettings({ ...opts, target: [...(opts.target ?? []), ...words.targets] }, words.overrides);
  const planned = planWithState(
    workflow,
    { ...base, ...(opts.omitFrom !== undefined ? { omitFrom: opts.omitFrom } : {}), resources: settings.resources, environments: environmentChoice(settings.env, { project: workflow.dir, pipeline: workflow.pipelineDir }, ctx.env) },
    opts.forcerun ?? [],
    diskFs,
  );
  const diagnostics = [...loaded.diagnostics, ...planned.diagnostics];
  if (planned.usage) return { ok: false, outcome: 'usage', shown: loaded.shown, diagnostics, loaded };
  if (planned.plan === undefined) return { ok: false, outcome: outcomeOf(diagnostics), shown: loaded.shown, diagnostics, loaded };
  return { ok: true, loaded, plan: planned.plan, diagnostics, store: planned.store, settings, overrides: words.overrides };
}
