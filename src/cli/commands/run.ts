// `oxo-flow run`: the same plan dry-run shows (planWorkflow, then the run state through
// applyRunState), checked up front (preflight), then executed by the local executor.
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { parseMemory } from '../../workflow/load/memory.js';
import { planWorkflow, type Plan } from '../../workflow/plan/index.js';
import type { JobResult, RunEvent, RunReport } from '../../run/events.js';
import { applyRunState, checkForcerun } from '../../run/freshness.js';
import { preflight } from '../../run/preflight.js';
import { killGraceMs } from '../../run/process-group.js';
import { runLocal } from '../../run/run-local.js';
import { runSlurm, slurmAvailable } from '../../run/slurm.js';
import { StateStore } from '../../run/state.js';
import { maskedCommandLine } from '../../run/record/provenance.js';
import { RunRecorder } from '../../run/record/recorder.js';
import type { TraceRow } from '../../run/record/types.js';
import type { CliContext } from '../context.js';
import { diskFs, loadChecked, planSettings, splitWorkflowArg, type PlanOptions } from '../plan-input.js';
import { exitCodeFor, outcomeOf } from '../result.js';
import { renderDiagnostics } from '../render-diagnostics.js';
import type { CommandResult } from '../result.js';
import { makeProgress } from '../run-progress.js';
import { makeStyle, type Style } from '../style.js';
import { terminalSafe } from '../terminal-safe.js';

export interface RunOptions extends PlanOptions {
  jobs?: string;
  cores?: string;
  memory?: string;
  keepGoing?: boolean;
  forcerun?: string[];
  executor?: 'local' | 'slurm';
  partition?: string;
  account?: string;
  /** false with --no-record: no run record under .oxo-flow/runs/. */
  record?: boolean;
}

/** Lines of a failed job's log shown in the summary. */
const LOG_TAIL_LINES = 10;

export async function run(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  const { workflow: arg, overrides } = splitWorkflowArg(opts, ctx.cwd);
  const limits = parseLimits(opts);
  if ('diagnostics' in limits) return { outcome: 'usage', json: { workflow: arg ?? null, jobs: [] }, diagnostics: limits.diagnostics };
  const loaded = await loadChecked(arg, ctx, overrides);
  if (!loaded.ok) return { outcome: loaded.outcome, json: { workflow: loaded.shown ?? arg ?? null, jobs: [] }, diagnostics: loaded.diagnostics };
  const workflow = loaded.workflow;
  const settings = planSettings(opts, overrides);
  const { plan, diagnostics } = planWorkflow(workflow, settings, diskFs);
  const all = [...loaded.diagnostics, ...diagnostics];
  const emptyJson = { workflow: loaded.shown, jobs: [] };
  if (plan === undefined) return { outcome: outcomeOf(all), json: emptyJson, diagnostics: all };

  const badForcerun = checkForcerun(workflow, opts.forcerun ?? []);
  if (badForcerun.length > 0) return { outcome: 'usage', json: emptyJson, diagnostics: [...all, ...badForcerun] };
  const store = new StateStore(workflow.dir);
  applyRunState(plan, store.records(), { forcerun: opts.forcerun ?? [], cpus: settings.cpus });

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
  let recorder: RunRecorder | undefined;
  try {
    const runLimits = { jobs: limits.jobs, cores: limits.cores, memoryMb: limits.memoryMb };
    if (opts.record !== false && checked.jobs.length > 0) recorder = startRecorder(all, () => new RunRecorder({
        workflow,
        plan,
        jobs: checked.jobs,
        executor: slurm ? 'slurm' : 'local',
        ...(slurm ? {} : { limits: runLimits }),
        oxoFlowVersion: ctx.version,
        commandLine: maskedCommandLine(process.argv.slice(2), workflow, ctx.secrets),
        overrides,
        cwd: ctx.cwd,
        env: ctx.env as NodeJS.ProcessEnv,
        secrets: ctx.secrets,
      }));
    await recorder?.recordTools();
    // The run's own log gets what a non-terminal run shows, without colour.
    const logged = recorder === undefined ? undefined : makeProgress(checked.jobs.length, recorder.logStream as NodeJS.WritableStream, { tty: false, quiet: false, style: makeStyle(false) });
    const onEvent = recorder === undefined
      ? (e: RunEvent) => progress.event(e)
      : (e: RunEvent) => {
          progress.event(e);
          logged!.event(e);
          recorder!.event(e);
        };
    const common = {
      workflowDir: workflow.dir,
      store,
      keepGoing: Boolean(opts.keepGoing),
      env: ctx.env as NodeJS.ProcessEnv,
      signal: controller.signal,
      onEvent,
    };
    report = slurm
      ? await runSlurm(checked.jobs, {
          ...common,
          ...(opts.partition !== undefined ? { partition: opts.partition } : {}),
          ...(opts.account !== undefined ? { account: opts.account } : {}),
        })
      : await runLocal(checked.jobs, checked.preparations, {
          ...common,
          limits: runLimits,
          graceMs: killGraceMs(ctx.env),
        });
  } catch (err) {
    recorder?.close();
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
  const result = finish(plan, report, loaded.shown, all, slurm ? 'slurm' : 'local', workflow.dir);
  if (recorder === undefined) return result;
  const plain = makeStyle(false);
  const shownDiagnostics = result.diagnostics ?? [];
  if (shownDiagnostics.length > 0) recorder.log(renderDiagnostics(shownDiagnostics, plain, ctx.cwd));
  recorder.log(summaryText(plan, report, plain, workflow.dir));
  try {
    recorder.finish(report, result.outcome === 'ok' ? 'ok' : result.outcome === 'interrupted' ? 'interrupted' : 'failed', exitCodeFor(result.outcome));
  } catch (err) {
    recorder.close();
    result.diagnostics = [...shownDiagnostics, diagnostic('REP002', `the run record in ${recorder.dir} is incomplete: ${(err as Error).message}`)];
  }
  // --json carries each job's trace row, the same row as trace.tsv.
  const traces = new Map<string, TraceRow>();
  for (const row of recorder.rows()) traces.set(row.id, row);
  const json = result.json as Record<string, unknown>;
  json.run_id = recorder.id;
  json.record = path.relative(workflow.dir, recorder.dir);
  json.jobs = report.results.map((r) => jobJson(r, traces.get(r.id)));
  return result;
}

/** A record that cannot be written never stops the run: it goes on with a warning (REP002). */
function startRecorder(diagnostics: Diagnostic[], make: () => RunRecorder): RunRecorder | undefined {
  try {
    return make();
  } catch (err) {
    diagnostics.push(diagnostic('REP002', `no run record: ${(err as Error).message}`));
    return undefined;
  }
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
      run_id: null,
      record: null,
      jobs: report.results.map((r) => jobJson(r)),
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

function jobJson(r: JobResult, trace?: TraceRow): Record<string, unknown> {
  return {
    ...(trace !== undefined ? { trace } : {}),
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

interface Limits {
  jobs: number;
  cores: number;
  memoryMb: number;
}

/** -j, --cores and --memory: by default the machine's cores and memory, and -j as many as cores. */
function parseLimits(opts: RunOptions): Limits | { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const whole = (flag: string, v: string | undefined, fallback: number) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (Number.isSafeInteger(n) && n > 0) return n;
    diagnostics.push(diagnostic('RUN008', `${flag} ${v}: expected a positive whole number`));
    return fallback;
  };
  const cores = whole('--cores', opts.cores, availableParallelism());
  const jobs = whole('-j', opts.jobs, cores);
  let memoryMb = Math.floor(totalmem() / (1024 * 1024));
  if (opts.memory !== undefined) {
    const m = parseMemory(opts.memory);
    if (m.ok) memoryMb = m.mb;
    else diagnostics.push(diagnostic('RUN008', `--memory ${opts.memory}: ${m.message}`));
  }
  return diagnostics.length > 0 ? { diagnostics } : { jobs, cores, memoryMb };
}
