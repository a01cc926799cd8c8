// `oxo-flow validate`: errors only (warnings belong to lint). Exit 0 valid, 1 errors, 2 unreadable/TOML.
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import { addAiReview, aiRequest } from '../ai-review.js';
import { loadAndCheck } from '../workflow-input.js';

export interface ValidateOptions {
  workflow?: string;
  ai?: boolean;
  skill?: string[];
}

export async function validate(opts: ValidateOptions, ctx: CliContext): Promise<CommandResult> {
  const report = await loadAndCheck(opts.workflow, ctx, { graph: true });
  const file = report.shown ?? opts.workflow ?? null;
  if (report.kind === 'unreadable') {
    const unreadable: CommandResult = {
      outcome: 'usage',
      json: { workflow: file, valid: false, rules: 0 },
      diagnostics: report.diagnostics,
      human: (s) => (report.shown ? `${s.red('✗')} ${report.shown} — cannot be read as TOML` : ''),
    };
    return addAiReview(unreadable, aiRequest('validate', opts, undefined, undefined, 'the workflow cannot be read as TOML'), ctx);
  }
  const errors = report.diagnostics.filter((d) => d.severity === 'error');
  const rules = report.workflow?.rules.length ?? 0;
  const valid = errors.length === 0;
  const result: CommandResult = {
    outcome: valid ? 'ok' : 'failed',
    json: { workflow: report.shown, valid, rules },
    diagnostics: errors,
    human: (s) =>
      valid
        ? `${s.green('✓')} ${report.shown} — ${rules} rule${rules === 1 ? '' : 's'}`
        : `${s.red('✗')} ${report.shown} — ${errors.length} error${errors.length === 1 ? '' : 's'}`,
  };
  return addAiReview(result, aiRequest('validate', opts, report.path, report.workflow), ctx);
}
