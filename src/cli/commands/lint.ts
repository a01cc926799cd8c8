// `oxo-flow lint`: the errors validate reports plus warnings and info. Fails on errors, and on
// warnings with --strict; info never fails.
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { lintWorkflow } from '../../workflow/lint/index.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import { addAiReview, aiRequest } from '../ai-review.js';
import { projectFlags, splitWorkflowArg } from '../plan-input.js';
import { loadAndCheck } from '../workflow-input.js';

export interface LintOptions {
  workflow?: string;
  /** KEY=VALUE config values (and a first word that commander took for the workflow). */
  overrides?: string[];
  directory?: string;
  configfile?: string[];
  strict?: boolean;
  ai?: boolean;
  skill?: string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 || word === 'info' ? '' : 's'}`;

export async function lint(opts: LintOptions, ctx: CliContext): Promise<CommandResult> {
  const strict = Boolean(opts.strict);
  const words = splitWorkflowArg(opts, ctx.cwd);
  const report = await loadAndCheck(words.workflow, ctx, { graph: true, overrides: words.overrides, project: projectFlags(opts) });
  if (report.kind === 'unreadable') {
    const unreadable: CommandResult = { outcome: 'usage', json: { workflow: report.shown ?? opts.workflow ?? null, strict, passed: false }, diagnostics: report.diagnostics };
    return addAiReview(unreadable, aiRequest('lint', opts, undefined, undefined, 'the workflow cannot be read as TOML'), ctx);
  }
  const diagnostics = [...report.diagnostics, ...(report.workflow ? lintWorkflow(report.workflow) : [])];
  const counts = countBySeverity(diagnostics);
  const passed = counts.error === 0 && !(strict && counts.warning > 0);
  const result: CommandResult = {
    outcome: passed ? 'ok' : 'failed',
    json: { workflow: report.shown, strict, passed },
    diagnostics,
    human: (s) => {
      const mark = passed ? s.green('✓') : s.red('✗');
      const why = !passed && counts.error === 0 ? ' (--strict fails on warnings)' : '';
      return `${mark} ${report.shown} — ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.info, 'info')}${why}`;
    },
  };
  return addAiReview(result, aiRequest('lint', opts, report.path, report.workflow), ctx);
}
