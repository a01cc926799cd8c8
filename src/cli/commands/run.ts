// `oxo-flow run`: the same plan dry-run shows (planWithState: files, times and the run state, decided
// once), checked up front (preflight), then executed by the local or Slurm executor.
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Plan } from '../../workflow/plan/index.js';
import type { JobResult, RunEvent, RunReport } from '../../run/events.js';
import { preflight } from '../../run/preflight.js';
import { killGraceMs } from '../../run/process-group.js';
import { runLocal } from '../../run/run-local.js';
import { runSlurm, slurmAvailable } from '../../run/slurm.js';
import type { CliContext } from '../context.js';
import { planCommand, type PlanCommandOptions } from '../plan-command.js';
import { isHabit, runHabit } from '../run-habits.js';
import type { CommandResult } from '../result.js';
import { makeProgress } from '../run-progress.js';
import { makeStyle, type Style } from '../style.js';
import { terminalSafe } from '../terminal-safe.js';

export interface RunOptions extends PlanCommandOptions {
  jobs?: string;
  keepGoing?: boolean;
  executor?: 'local' | 'slurm';
  partition?: string;
  account?: string;
  /** -n: what dry-run shows. */
  dryRun?: boolean;
  touch?: boolean;
  list?: boolean;
  summary?: boolean;
}

/** Lines of a failed job's log shown in the summary. */
const LOG_TAIL_LINES = 10;

export async function run(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  // -n, --list, --summary, --touch: Snakemake's habits, answered without running a job.
  if (isHabit(opts)) return runHabit(opts, ctx);
  const jobsLimit = parseJobs(opts.jobs);
  if (Array.isArray(jobsLimit)) return { outcome: 'usage', json: { workflow: opts.workflow ?? null, jobs: [] }, diagnostics: jobsLimit };
  // The same plan dry-run shows, assembled the same way (plan-command.ts).
  const planned = await planCommand(opts, ctx);
  if (!planned.ok) return { outcome: planned.outcome, json: { workflow: planned.shown, jobs: [] }, diagnostics: planned.diagnostics };
  const { plan, loaded, store, settings } = planned;
  const workflow = loaded.workflow;
  const all = [...planned.diagnostics];
  const emptyJson = { workflow: loaded.shown, jobs: [] };
  const limits = { jobs: jobsLimit ?? settings.cores, cores: settings.cores, memoryMb: settings.memoryMb };

  const slurm = opts.executor === 'slurm';
  const checked = preflight(plan, workflow, store, { cores: limits.cores, memoryMb: limits.memoryMb, checkFit: !slurm, env: ctx.env });
  all.push(...checked.diagnostics);
  if (slurm && checked.jobs.length > 0 && !hasErrors(all)) {
    const available = slurmAvailable(ctx.env as NodeJS.ProcessEnv);
    if (!available.ok) all.push(diagnostic('RUN030', `--executor slurm: ${available.why}`));
  }
  if (hasErrors(all)) return { outcome: 'failed', json: { ...emptyJson, summary: summaryJson(plan, []) }, diagnostics: all };

  const style = makeStyle(ctx.color && !ctx.json);
  const progress = makeProgress(checked.jobs.length, ctx.stderr, { tty: ctx.stderrIsTTY && !ctx.json, quiet: ctx.quiet, style });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  const releaseInterrupt = ctx.onInterrupt(onSignal);
  process.on('SIGTERM', onSignal);
  let report: RunReport;
  try {
    const common = {
      workflowDir: workflow.dir,
      store,
      keepGoing: Boolean(opts.keepGoing),
      env: ctx.env as NodeJS.ProcessEnv,
      signal: controller.signal,
      onEvent: (e: RunEvent) => progress.event(e),
    };
    report = slurm
      ? await runSlurm(checked.jobs, {
          ...common,
          ...(opts.partition !== undefined ? { partition: opts.partition } : {}),
          ...(opts.account !== undefined ? { account: opts.account } : {}),
        })
      : await runLocal(checked.jobs, checked.preparations, {
          ...common,
          limits: { jobs: limits.jobs, cores: limits.cores, memoryMb: limits.memoryMb },
          planJobs: plan.jobs,
          graceMs: killGraceMs(ctx.env),
        });
  } catch (err) {
    progress.close();
    releaseInterrupt();
    process.off('SIGTERM', onSignal);
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'ENOSPC' || e.code === 'EPERM') {
      return { outcome: 'failed', json: emptyJson, diagnostics: [...all, diagnostic('RUN009', `the run stopped: ${e.message}`, { file: workflow.file })] };
    }
    throw err;
  }
  progress.close();
  releaseInterrupt();
  process.off('SIGTERM', onSignal);
  return finish(plan, report, loaded.shown, all, slurm ? 'slurm' : 'local', workflow.dir);
}

function finish(plan: Plan, report: RunReport, shown: string, diagnostics: Diagnostic[], executor: 'local' | 'slurm', workflowDir: string): CommandResult {
  const failed = report.results.filter((r) => r.outcome === 'failed' || r.outcome === 'timed out');
  const blocked = report.results.filter((r) => r.outcome === 'blocked');
  for (const r of failed) {
    const code = r.slurmJobId !== undefined && r.outcome === 'failed' && !r.message?.includes('did not write') ? 'RUN032' : r.outcome === 'timed out' ? 'RUN022' : r.message?.includes('did not write') ? 'RUN021' : 'RUN020';
    diagnostics.push(diagnostic(code, `${r.id} failed: ${r.message ?? r.outcome} (log: ${r.log})`, { rule: r.rule }));
  }
  if (blocked.length > 0) diagnostics.push(diagnostic('RUN023', `${blocked.length} job${blocked.length === 1 ? ' was' : 's were'} not run because a job they need failed: ${blocked.slice(0, 5).map((b) => b.id).join(', ')}${blocked.length > 5 ? ', …' : ''}`));
  if (report.interrupted) diagnostics.push(diagnostic('RUN024', 'the run was interrupted; running jobs were stopped and their partial outputs removed'));
  const outcome = report.interrupted ? 'interrupted' : failed.length > 0 || blocked.length > 0 ? 'failed' : 'ok';
  return {
    outcome,
    json: {
      workflow: shown,
      name: plan.workflow,
      executor,
      interrupted: report.interrupted,
      jobs: report.results.map(jobJson),
      summary: summaryJson(plan, report.results),
    },
    diagnostics,
    human: (style) => summaryText(plan, report, style, workflowDir),
    quietHuman: () => '',
  };
}

function summaryJson(plan: Plan, results: readonly JobResult[]): Record<string, number> {
  const count = (o: JobResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return {
    planned: plan.summary.jobs,
    to_run: plan.summary.run,
    skipped: plan.summary.skip,
    done: count('done'),
    failed: count('failed') + count('timed out'),
    blocked: count('blocked'),
    interrupted: count('interrupted'),
    not_started: count('not started'),
  };
}

function jobJson(r: JobResult): Record<string, unknown> {
  return {
    id: r.id,
    rule: r.rule,
    outcome: r.outcome,
    attempts: r.attempts,
    seconds: r.seconds ?? null,
    message: r.message ?? null,
    blocked_by: r.blockedBy ?? null,
    log: r.log,
    rule_log: r.ruleLog ?? null,
    slurm_job_id: r.slurmJobId ?? null,
  };
}

function summaryText(plan: Plan, report: RunReport, style: Style, workflowDir: string): string {
  const s = summaryJson(plan, report.results);
  const lines: string[] = [];
  for (const r of report.results) {
    if (r.outcome !== 'failed' && r.outcome !== 'timed out') continue;
    lines.push(style.red(`✗ ${terminalSafe(r.id)}: ${terminalSafe(r.message ?? r.outcome)}`), style.dim(`  log: ${terminalSafe(r.log)}`));
    for (const l of logTail(r.log, LOG_TAIL_LINES)) lines.push(style.dim(`  │ ${terminalSafe(l)}`));
    if (r.ruleLog !== undefined) {
      const tail = logTail(path.resolve(workflowDir, r.ruleLog), LOG_TAIL_LINES);
      if (tail.length > 0) lines.push(style.dim(`  rule log: ${terminalSafe(r.ruleLog)}`), ...tail.map((l) => style.dim(`  │ ${terminalSafe(l)}`)));
    }
  }
  const parts = [style.green(`${s.done} done`)];
  if (s.failed) parts.push(style.red(`${s.failed} failed`));
  if (s.blocked) parts.push(style.yellow(`${s.blocked} blocked`));
  if (s.interrupted) parts.push(style.yellow(`${s.interrupted} interrupted`));
  if (s.not_started) parts.push(`${s.not_started} not started`);
  parts.push(`${s.skipped} up to date or skipped`);
  lines.push(`${style.bold(report.interrupted ? 'Interrupted:' : 'Summary:')} ${plan.workflow} — ${parts.join(', ')}`);
  if (plan.summary.run === 0) lines.push('Nothing to do: every job is up to date or switched off.');
  return lines.join('\n');
}

/** The last lines of a log, read from its end (logs can be large). */
function logTail(file: string, lines: number): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, 16 * 1024);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf.toString('utf8').replace(/\n$/, '').split('\n').slice(-lines);
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** -j N: a positive whole number (default: as many as the cores). */
function parseJobs(v: string | undefined): number | undefined | Diagnostic[] {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (Number.isSafeInteger(n) && n > 0) return n;
  return [diagnostic('RUN008', `-j ${v}: expected a positive whole number`)];
}
