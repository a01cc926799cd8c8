// The one way dry-run and run assemble their plan, in one order: the words on the command line
// (workflow, overrides, targets), the run's resource settings, the workflow loaded and checked, then
// planWithState (files, times and the run state, decided once). What differs after this is only
// what each command does with the plan.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { planWithState } from '../run/freshness.js';
import type { StateStore } from '../run/state.js';
import type { Plan } from '../workflow/plan/index.js';
import type { CliContext } from './context.js';
import { diskFs, type Loaded, loadChecked, planSettings, type PlanOptions } from './plan-input.js';
import type { Outcome } from './result.js';
import { outcomeOf } from './result.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { EXECUTOR_NAMES, type ExecutorName, isExecutorName } from '../run/executors/names.js';
import { type ExecutorProfile, loadProfile } from '../run/profile.js';
import { environmentChoice, onCluster, type ResourceFlags, type RunSettings, runSettings, splitPositionals, unknownRules } from './run-args.js';

export interface PlanCommandOptions extends PlanOptions, ResourceFlags {
  forcerun?: string[];
  omitFrom?: string[];
  /** `local` caps threads and memory to the machine; a cluster executor does not. Default: the profile's, else local. */
  executor?: string;
  /** The executor profile (`--profile FILE`, else `.oxo-flow/profile.toml` when it exists). */
  profile?: string;
}

export type PlannedCommand =
  | {
      ok: true;
      loaded: Extract<Loaded, { ok: true }>;
      plan: Plan;
      diagnostics: Diagnostic[];
      store: StateStore;
      settings: RunSettings;
      overrides: string[];
      /** The profile read for this plan, and the executor it was planned for (flag, else profile, else local). */
      profile: ExecutorProfile;
      executor: ExecutorName;
    }
  | { ok: false; outcome: Outcome; shown: string | null; diagnostics: Diagnostic[]; loaded?: Extract<Loaded, { ok: true }> };

export async function planCommand(opts: PlanCommandOptions, ctx: CliContext): Promise<PlannedCommand> {
  const words = splitPositionals(opts.workflow, opts.overrides ?? [], ctx.cwd);
  if (opts.executor !== undefined && !isExecutorName(opts.executor)) {
    return { ok: false, outcome: 'usage', shown: words.workflow ?? null, diagnostics: [diagnostic('CLI001', `--executor ${opts.executor} is not an executor (executors: ${EXECUTOR_NAMES.join(', ')})`)] };
  }
  const flagSettings = runSettings(opts);
  if ('diagnostics' in flagSettings) return { ok: false, outcome: 'usage', shown: words.workflow ?? null, diagnostics: flagSettings.diagnostics };
  const loaded = await loadChecked(words.workflow, ctx, words.overrides);
  if (!loaded.ok) return { ok: false, outcome: loaded.outcome, shown: loaded.shown ?? words.workflow ?? null, diagnostics: loaded.diagnostics };
  const workflow = loaded.workflow;
  // The executor decides the caps, so it is chosen before planning: the flag, else the profile's.
  const profile = loadProfile(workflow.dir, opts.profile, ctx.cwd);
  if (profile.diagnostics.some((d) => d.severity === 'error')) return { ok: false, outcome: 'usage', shown: loaded.shown, diagnostics: [...loaded.diagnostics, ...profile.diagnostics], loaded };
  const executor: ExecutorName = (opts.executor as ExecutorName | undefined) ?? profile.profile.executor ?? 'local';
  const settings = executor === 'local' ? flagSettings : onCluster(flagSettings);
  const badRules = unknownRules(settings.resources, workflow.rules.map((r) => r.name));
  if (badRules.length > 0) return { ok: false, outcome: 'usage', shown: loaded.shown, diagnostics: [...loaded.diagnostics, ...badRules], loaded };
  const base = planSettings({ ...opts, target: [...(opts.target ?? []), ...words.targets] }, words.overrides);
  const planned = planWithState(
    workflow,
    { ...base, ...(opts.omitFrom !== undefined ? { omitFrom: opts.omitFrom } : {}), resources: settings.resources, environments: environmentChoice(settings.env, workflow.dir, ctx.env) },
    opts.forcerun ?? [],
    diskFs,
  );
  const diagnostics = [...loaded.diagnostics, ...profile.diagnostics, ...planned.diagnostics];
  if (planned.usage) return { ok: false, outcome: 'usage', shown: loaded.shown, diagnostics, loaded };
  if (planned.plan === undefined) return { ok: false, outcome: outcomeOf(diagnostics), shown: loaded.shown, diagnostics, loaded };
  return { ok: true, loaded, plan: planned.plan, diagnostics, store: planned.store, settings, overrides: words.overrides, profile: profile.profile, executor };
}
