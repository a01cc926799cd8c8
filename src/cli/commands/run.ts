// `oxo-flow run`: the same plan dry-run shows (planCommand → planWithState: files, times and the run
// state, decided once), checked up front (preflight and the executor's own checks), then, holding the
// project lock, executed by the job lifecycle (src/run/lifecycle.ts) on the chosen executor.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { parseTimeLimit } from '../../workflow/load/time-limit.js';
import type { Plan } from '../../workflow/plan/index.js';
import type { JobResult, RunEvent, RunReport } from '../../run/events.js';
import { EXECUTORS, type ExecutorName, FAILED_CODE, UNAVAILABLE_CODE } from '../../run/executors/index.js';
import { runJobs, type RunJob } from '../../run/lifecycle.js';
import { acquireLock, describeHolder } from '../../run/lock.js';
import { preflight } from '../../run/preflight.js';
import { killGraceMs } from '../../run/process-group.js';
import { withOverrides, type SectionOptions } from '../../run/profile.js';
import type { StateStore } from '../../run/state.js';
import { maskedCommandLine } from '../../run/record/provenance.js';
import { RunRecorder } from '../../run/record/recorder.js';
import type { TraceRow } from '../../run/record/types.js';
import type { CliContext } from '../context.js';
import { planCommand, type PlanCommandOptions } from '../plan-command.js';
import { isHabit, runHabit } from '../run-habits.js';
import { exitCodeFor, outcomeOf, type CommandResult } from '../result.js';
import { renderDiagnostics } from '../render-diagnostics.js';
import { redactorFor } from '../../ai/secrets.js';
import { makeProgress } from '../run-progress.js';
import { makeStyle, type Style } from '../style.js';
import { terminalSafe } from '../terminal-safe.js';

export interface RunOptions extends PlanCommandOptions {
  jobs?: string;
  keepGoing?: boolean;
  executor?: string;
  partition?: string;
  account?: string;
  profile?: string;
  pollInterval?: string;
  lockTimeout?: string;
  /** -n: what dry-run shows. */
  dryRun?: boolean;
  touch?: boolean;
  list?: boolean;
  summary?: boolean;
  /** false with --no-record: no run record under .oxo-flow/runs/. */
  record?: boolean;
}

/** Lines of a failed job's log shown in the summary. */
const LOG_TAIL_LINES = 10;
/** Jobs queued at once on a cluster unless -j or the profile says otherwise. */
const CLUSTER_JOBS = 100;
/** squeue / qstat are asked this often unless the profile or --poll-interval says otherwise. */
const DEFAULT_POLL_MS = 30_000;

export async function run(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  // -n, --list, --summary, --touch: Snakemake's habits, answered without running a job.
  if (isHabit(opts)) return runHabit(opts, ctx);
  const jobsFlag = parseJobs(opts.jobs);
  if (Array.isArray(jobsFlag)) return { outcome: 'usage', json: { workflow: opts.workflow ?? null, jobs: [] }, diagnostics: jobsFlag };
  // The same plan dry-run shows, assembled the same way (plan-command.ts).
  const planned = await planCommand(opts, ctx);
  if (!planned.ok) return { outcome: planned.outcome, json: { workflow: planned.shown, jobs: [] }, diagnostics: planned.diagnostics };
  const { plan, loaded, settings, overrides } = planned;
  const workflow = loaded.workflow;
  const all = [...planned.diagnostics];
  const emptyJson = { workflow: loaded.shown, jobs: [] };
  const limits = { jobs: jobsFlag ?? settings.cores, cores: settings.cores, memoryMb: settings.memoryMb };

  // The profile (site defaults, read by planCommand), then the flags over it.
  const cli: SectionOptions = {};
  if (opts.partition !== undefined) cli.partition = opts.partition;
  if (opts.account !== undefined) cli.account = opts.account;
  const profile = withOverrides(planned.profile, 'slurm', cli);
  const executorName = planned.executor;
  const pollMs = durationFlag('--poll-interval', opts.pollInterval, all) ?? profile.pollMs ?? DEFAULT_POLL_MS;
  const lockTimeoutMs = durationFlag('--lock-timeout', opts.lockTimeout, all) ?? profile.lockTimeoutMs;
  if (hasErrors(all)) return { outcome: outcomeOf(all), json: emptyJson, diagnostics: all };

  // The plan read the records; the runner appends to its own journal (fsync unless turned off).
  const runId = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
  const store = planned.store.forWriting(runId, ctx.env.OXO_FLOW_FSYNC !== '0');

  const env = ctx.env as NodeJS.ProcessEnv;
  const executor = EXECUTORS[executorName]({ workflowDir: workflow.dir, graceMs: killGraceMs(ctx.env), pollMs, profile, env });
  // -j: the flag, else the profile's, else this machine's cores locally and CLUSTER_JOBS on a cluster.
  const jobsLimit = opts.jobs !== undefined ? limits.jobs : (profile.jobs ?? (executor.cluster ? CLUSTER_JOBS : limits.jobs));
  const checked = preflight(plan, workflow, store, { cores: limits.cores, memoryMb: limits.memoryMb, checkFit: !executor.cluster, env: ctx.env });
  all.push(...checked.diagnostics);
  const rules = new Map(workflow.rules.map((r) => [r.name, r]));
  const jobs: RunJob[] = checked.jobs.map((j) => {
    const rule = rules.get(j.spec.rule);
    const job: RunJob = Object.assign(j, { priority: rule?.priority ?? 0 });
    if (rule?.resources.gpu !== undefined) job.gpu = rule.resources.gpu;
    return job;
  });
  if (checked.jobs.length > 0 && !hasErrors(all)) {
    all.push(...executor.check(jobs));
    if (executor.cluster && !hasErrors(all)) {
      const available = executor.available();
      if (!available.ok) all.push(diagnostic(UNAVAILABLE_CODE[executorName] as 'RUN030', `--executor ${executorName}: ${available.why}`));
    }
  }
  if (hasErrors(all)) {
    executor.close();
    return { outcome: 'failed', json: { ...emptyJson, executor: executorName, summary: summaryJson(plan, []) }, diagnostics: all };
  }

  // The project lock: taken only when something will run (dry-run, graph and validate never need it).
  let lock: ReturnType<typeof acquireLock> | undefined;
  if (jobs.length === 0) {
    // Nothing runs, but an older version's per-job files or a crashed run's journal are folded now
    // (when the lock is free at once), so the next start reads the index alone.
    if (store.needsCompaction()) compactUnderLock(workflow.dir, store, runId, all);
  }
  if (jobs.length > 0) {
    try {
      lock = acquireLock(workflow.dir, { command: `oxo-flow run ${loaded.shown}${executorName !== 'local' ? ` --executor ${executorName}` : ''}`, runId, ...(lockTimeoutMs !== undefined ? { staleAfterMs: lockTimeoutMs } : {}) });
    } catch (err) {
      executor.close();
      return { outcome: 'failed', json: { ...emptyJson, executor: executorName, summary: summaryJson(plan, []) }, diagnostics: [...all, diagnostic('RUN009', `the lock cannot be written: ${(err as Error).message}`, { file: workflow.file })] };
    }
    if (!lock.ok) {
      executor.close();
      const who = lock.holder !== undefined ? `: ${describeHolder(lock.holder)}` : '';
      return {
        outcome: 'failed',
        json: { ...emptyJson, executor: executorName, lock: lock.holder ?? null, summary: summaryJson(plan, []) },
        diagnostics: [...all, diagnostic('RUN040', `${lock.why} (${terminalSafe(path.relative(ctx.cwd, lock.file) || lock.file)})${who}`, { file: lock.file })],
      };
    }
    if (lock.tookOver !== undefined) all.push(diagnostic('RUN041', `took over the lock of a run that is gone (${lock.tookOver.why}): ${describeHolder(lock.tookOver.holder)}`, { file: lock.lock.file }));
  }

  const style = makeStyle(ctx.color && !ctx.json);
  // Job ids and messages can carry a sensitive value (a wildcard from it, a path built with it).
  const mask = redactorFor([...ctx.secrets]);
  const progress = makeProgress(jobs.length, ctx.stderr, { tty: ctx.stderrIsTTY && !ctx.json, quiet: ctx.quiet, style, mask, columns: () => terminalColumns(ctx) });
  const controller = new AbortController();
  const hard = new AbortController();
  let hardResult: CommandResult | undefined;
  const onSignal = (again?: boolean): CommandResult | undefined => {
    if (again === true || controller.signal.aborted) {
      // The second Ctrl-C: the lifecycle kills and records what is left, synchronously, and reports
      // (onHardStop); the process then ends at once (main.ts), so the lock goes now too.
      hard.abort();
      if (lock?.ok) lock.lock.release();
    }
    controller.abort();
    return hardResult;
  };
  const onSigterm = () => void onSignal();
  const releaseInterrupt = ctx.onInterrupt(onSignal);
  process.on('SIGTERM', onSigterm);
  let report: RunReport;
  // The run record (src/run/record/): fed the same events as the progress display.
  const recorder =
    opts.record !== false && jobs.length > 0
      ? startRecorder(all, () =>
          new RunRecorder({
            workflow,
            plan,
            jobs,
            executor: executorName,
            ...(executor.cluster ? {} : { limits: { jobs: jobsLimit, cores: limits.cores, memoryMb: limits.memoryMb } }),
            oxoFlowVersion: ctx.version,
            commandLine: maskedCommandLine(process.argv.slice(2), workflow, ctx.secrets),
            overrides,
            cwd: ctx.cwd,
            env,
            secrets: ctx.secrets,
            jobRunId: runId,
          }),
        )
      : undefined;
  const logged = recorder === undefined ? undefined : makeProgress(jobs.length, recorder.logStream as NodeJS.WritableStream, { tty: false, quiet: false, style: makeStyle(false), mask });
  const onEvent =
    recorder === undefined
      ? (e: RunEvent) => progress.event(e)
      : (e: RunEvent) => {
          progress.event(e);
          logged!.event(e);
          recorder.event(e);
        };
  try {
    await recorder?.recordTools();
    report = await runJobs(jobs, checked.preparations, {
      workflowDir: workflow.dir,
      store,
      executor,
      limits: { jobs: jobsLimit, cores: limits.cores, memoryMb: limits.memoryMb },
      keepGoing: Boolean(opts.keepGoing),
      env,
      runId,
      graceMs: killGraceMs(ctx.env),
      signal: controller.signal,
      hardSignal: hard.signal,
      onHardStop: (partial) => {
        progress.close();
        hardResult = finish(plan, partial, loaded.shown, [...all, ...(partial.diagnostics ?? [])], executorName, workflow.dir);
      },
      onEvent,
      planJobs: plan.jobs,
    });
  } catch (err) {
    recorder?.close();
    throw err;
  } finally {
    progress.close();
    releaseInterrupt();
    process.off('SIGTERM', onSigterm);
    if (lock?.ok) {
      // Still holding the lock: this run's journal (and any left before) goes into the index.
      compact(store, all);
      lock.lock.release();
    }
  }
  const result = finish(plan, report, loaded.shown, [...all, ...(report.diagnostics ?? [])], executorName, workflow.dir);
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
  const fields = result.json as () => Record<string, unknown>;
  result.json = () => {
    const traces = new Map<string, TraceRow>();
    for (const row of recorder.rows()) traces.set(row.id, row);
    return { ...fields(), run_id: recorder.id, record: path.relative(workflow.dir, recorder.dir), jobs: report.results.map((r) => jobJson(r, traces.get(r.id))) };
  };
  return result;
}

/** Fold the journals into the index; a failure leaves the journals, which later starts still read (RUN053). */
function compact(store: StateStore, diagnostics: Diagnostic[]): void {
  try {
    store.compact();
  } catch (err) {
    diagnostics.push(diagnostic('RUN053', `the run state was not compacted (its journal stays and is read as it is): ${(err as Error).message}`, { file: store.indexFile }));
  }
}

/** compact(), taking the project lock only if it is free now: a busy lock means a run will fold them itself. */
function compactUnderLock(workflowDir: string, store: StateStore, runId: string, diagnostics: Diagnostic[]): void {
  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(workflowDir, { command: 'oxo-flow run (compacting the run state)', runId });
  } catch {
    return;
  }
  if (!lock.ok) return;
  try {
    compact(store, diagnostics);
  } finally {
    lock.lock.release();
  }
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

function terminalColumns(ctx: CliContext): number {
  const c = (ctx.stderr as NodeJS.WriteStream).columns;
  if (typeof c === 'number' && c > 0) return c;
  const env = Number(ctx.env.COLUMNS);
  return Number.isSafeInteger(env) && env > 0 ? env : 80;
}

function durationFlag(flag: string, v: string | undefined, out: Diagnostic[]): number | undefined {
  if (v === undefined) return undefined;
  const d = parseTimeLimit(v);
  if (d.ok) return d.seconds * 1000;
  out.push(diagnostic('RUN049', `${flag} ${v}: expected a duration such as "30s", "5m" or "2h" (${d.message})`));
  return undefined;
}

function finish(plan: Plan, report: RunReport, shown: string, diagnostics: Diagnostic[], executor: ExecutorName, workflowDir: string): CommandResult {
  const failed = report.results.filter((r) => r.outcome === 'failed' || r.outcome === 'timed out');
  const blocked = report.results.filter((r) => r.outcome === 'blocked');
  for (const r of failed) {
    const code = (r.code ?? (r.outcome === 'timed out' ? 'RUN022' : FAILED_CODE[executor])) as 'RUN020';
    diagnostics.push(diagnostic(code, `${r.id} failed: ${r.message ?? r.outcome} (log: ${r.log})`, { rule: r.rule }));
  }
  if (blocked.length > 0) diagnostics.push(diagnostic('RUN023', `${blocked.length} job${blocked.length === 1 ? ' was' : 's were'} not run because a job they need failed: ${blocked.slice(0, 5).map((b) => b.id).join(', ')}${blocked.length > 5 ? ', …' : ''}`));
  if (report.interrupted) diagnostics.push(diagnostic('RUN024', 'the run was interrupted; running jobs were stopped and their partial outputs removed'));
  const outcome = report.interrupted ? 'interrupted' : failed.length > 0 || blocked.length > 0 ? 'failed' : 'ok';
  return {
    outcome,
    // Built only for --json: a row per job.
    json: () => ({
      workflow: shown,
      name: plan.workflow,
      executor,
      interrupted: report.interrupted,
      run_id: null,
      record: null,
      jobs: report.results.map((r) => jobJson(r)),
      summary: summaryJson(plan, report.results),
    }),
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
    code: r.code ?? null,
  };
}

function summaryText(plan: Plan, report: RunReport, style: Style, workflowDir: string): string {
  const s = summaryJson(plan, report.results);
  const lines: string[] = [];
  for (const r of report.results) {
    if (r.outcome !== 'failed' && r.outcome !== 'timed out') continue;
    lines.push(style.red(`✗ ${terminalSafe(r.id)}: ${terminalSafe(r.message ?? r.outcome)}`), style.dim(`  log: ${terminalSafe(r.log)}`));
    for (const l of logTail(r.log, LOG_TAIL_LINES, r.logOffset ?? 0)) lines.push(style.dim(`  │ ${terminalSafe(l)}`));
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

/** The last lines of a log from `from` on (the failing attempt's part), read from its end (logs can be large). */
function logTail(file: string, lines: number, from = 0): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const length = Math.max(0, Math.min(size - from, 16 * 1024));
    if (length === 0) return [];
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
