// `oxo-flow report [RUN]`: one self-contained HTML file of a recorded run (or, with --format json,
// the same data). Where it goes: --output, else the workflow's `[report] output`, else
// report-<run id>.html beside the workflow. The workflow file is read only for `[report]`; a
// record whose workflow has changed or gone still makes a report.
import { redactorFor } from '../../ai/secrets.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { readWorkflowFile } from '../../workflow/load/index.js';
import { buildReport } from '../../report/data.js';
import { renderHtml } from '../../report/html.js';
import { findRun, writeAtomic } from '../../run/record/store.js';
import type { CliContext } from '../context.js';
import { failure, type CommandResult } from '../result.js';
import { completeTraces, noRun } from './runs.js';

export interface ReportOptions {
  run?: string;
  output?: string;
  format?: 'html' | 'json';
  project?: string;
}

export async function report(opts: ReportOptions, ctx: CliContext): Promise<CommandResult> {
  const format = opts.format ?? 'html';
  if (format !== 'html' && format !== 'json') return failure('usage', [diagnostic('REP004', `--format ${format}: expected html or json`)]);
  const dir = path.resolve(ctx.cwd, opts.project ?? '.');
  const found = findRun(dir, opts.run);
  if ('error' in found) return failure('failed', [noRun(found, dir)], { run: opts.run ?? null });
  const run = found.run;
  const warnings = completeTraces([run]);
  const settings = reportSettings(path.resolve(dir, run.meta.workflow.file));
  const data = buildReport(run, { now: ctx.now(), redact: redactorFor([...ctx.secrets]), ...(settings.title !== undefined ? { title: settings.title } : {}) });
  const wanted = opts.output ?? (settings.output !== undefined ? path.resolve(dir, settings.output) : undefined);
  const file = path.resolve(ctx.cwd, wanted ?? path.join(dir, `report-${run.meta.id}.${format}`));
  const text = format === 'json' ? `${JSON.stringify(data, null, 1)}\n` : renderHtml(data);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeAtomic(file, text);
  } catch (err) {
    return failure('failed', [diagnostic('REP003', `cannot write ${file}: ${(err as Error).message}`, { file })], { run: run.meta.id });
  }
  const shown = path.relative(ctx.cwd, file) || file;
  return {
    outcome: 'ok',
    ...(warnings.length > 0 ? { diagnostics: warnings } : {}),
    json: { run: run.meta.id, status: data.status, format, file, bytes: Buffer.byteLength(text), jobs: data.jobs.length },
    human: (style) => `${style.green('wrote')} ${shown} ${style.dim(`(${format}, ${data.jobs.length} jobs, run ${run.meta.id}, ${data.status})`)}`,
  };
}

/** `[report] title` and `output` of the workflow, when its file still loads; nothing otherwise. */
function reportSettings(file: string): { title?: string; output?: string } {
  try {
    return readWorkflowFile(file).workflow?.report ?? {};
  } catch {
    return {};
  }
}
