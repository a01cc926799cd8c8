// `oxo-flow validate`: errors only (warnings belong to lint). Exit 0 valid, 1 errors, 2 unreadable/TOML.
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import { addAiReview, aiRequest } from '../ai-review.js';
import { projectFlags, splitWorkflowArg } from '../plan-input.js';
import { loadAndCheck } from '../workflow-input.js';

export interface ValidateOptions {
  workflow?: string;
  /** KEY=VALUE config values (and a first word that commander took for the workflow). */
  overrides?: string[];
  directory?: string;
  configfile?: string[];
  ai?: boolean;
  skill?: string[];
}

export async function validate(opts: ValidateOptions, ctx: CliContext): Promise<CommandResult> {
  const words = splitWorkflowArg(opts, ctx.cwd);
  const report = await loadAndCheck(words.workflow, ctx, { graph: true, overrides: words.overrides, project: projectFlags(opts) });
  const file = report.shown ?? opts.workflow ?? null;
  if (report.kind === 'unreadable') {
    const unreadable: CommandResult = {
      outcome: 'usage',
      json: { workflow: file, valid: false, rules: 0 },
      diagnostics: report.diagnostics,
      human: (s) => (report.shown ? `${s.red('✗')} ${report.shown} — ${unreadableWhy(report.diagnostics)}` : ''),
    };
    return addAiReview(unreadable, aiRequest('validate', opts, undefined, undefined, 'the workflow cannot be read as TOML'), ctx);
  }
  const errors = report.diagnostics.filter((d) => d.severity === 'error');
  // Config keys the run must be given: noted (info), never a failure of the pipeline.
  const notes = report.diagnostics.filter((d) => d.code === 'W028');
  const rules = report.workflow?.rules.length ?? 0;
  const valid = errors.length === 0;
  const result: CommandResult = {
    outcome: valid ? 'ok' : 'failed',
    json: { workflow: report.shown, valid, rules },
    diagnostics: [...errors, ...notes],
    human: (s) =>
      valid
        ? `${s.green('✓')} ${report.shown} — ${rules} rule${rules === 1 ? '' : 's'}`
        : `${s.red('✗')} ${report.shown} — ${errors.length} error${errors.length === 1 ? '' : 's'}`,
  };
  return addAiReview(result, aiRequest('validate', opts, report.path, report.workflow), ctx);
}

/** Why a workflow could not be checked: its file, or the values the command line gave its [config]. */
function unreadableWhy(diagnostics: readonly { code: string }[]): string {
  if (diagnostics.some((d) => d.code === 'E000' || d.code === 'E033' || d.code === 'CLI003')) return 'cannot be read as TOML';
  return 'the config values given (KEY=VALUE, --configfile) do not fit its [config]';
}
