// `oxo-flow run` with a Snakemake habit instead of a run: `-n` (what dry-run shows), `--list` (the
// rules), `--summary` (every output with its status, rule and date) and `--touch` (mark the outputs
// of the jobs that would run as up to date, and record them as done, without running anything).
import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { startRecord, type StateStore } from '../run/state.js';
import type { JobSpec } from '../workflow/plan/index.js';
import { dryRun } from './commands/dry-run.js';
import type { RunOptions } from './commands/run.js';
import type { CliContext } from './context.js';
import { planCommand } from './plan-command.js';
import { loadChecked, projectFlags } from './plan-input.js';
import type { CommandResult } from './result.js';
import { splitPositionals } from './run-args.js';
import { terminalSafeLine as safe } from './terminal-safe.js';

export function isHabit(opts: RunOptions): boolean {
  return opts.dryRun === true || opts.list === true || opts.summary === true || opts.touch === true;
}

export async function runHabit(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  const chosen = (['dryRun', 'list', 'summary', 'touch'] as const).filter((k) => opts[k] === true);
  if (chosen.length > 1) {
    const names = chosen.map((k) => (k === 'dryRun' ? '-n' : `--${k}`));
    return { outcome: 'usage', json: { workflow: opts.workflow ?? null }, diagnostics: [diagnostic('CLI001', `${names.join(' and ')} do not go together: choose one`)] };
  }
  if (opts.dryRun) return dryRun(opts, ctx);
  if (opts.list) return listRules(opts, ctx);
  return opts.summary ? summary(opts, ctx) : touch(opts, ctx);
}

async function listRules(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  const words = splitPositionals(opts.workflow, opts.overrides ?? [], ctx.cwd);
  const loaded = await loadChecked(words.workflow, ctx, words.overrides, projectFlags(opts));
  if (!loaded.ok) return { outcome: loaded.outcome, json: { workflow: loaded.shown ?? words.workflow ?? null, rules: [] }, diagnostics: loaded.diagnostics };
  const rules = loaded.workflow.rules.map((r) => ({ name: r.name, description: r.description ?? null, tags: r.tags }));
  const width = Math.max(0, ...rules.map((r) => r.name.length));
  return {
    outcome: 'ok',
    json: { workflow: loaded.shown, rules },
    diagnostics: loaded.diagnostics,
    stdout: rules.map((r) => (r.description === null ? safe(r.name) : `${safe(r.name).padEnd(width)}  ${safe(r.description)}`)).join('\n') + (rules.length > 0 ? '\n' : ''),
  };
}

interface OutputRow {
  output: string;
  rule: string;
  job: string;
  /** The file's modification time, or null when it does not exist. */
  date: string | null;
  status: 'ok' | 'missing' | 'update pending' | 'off';
  reason: string;
}

async function summary(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  const planned = await planCommand(opts, ctx);
  if (!planned.ok) return { outcome: planned.outcome, json: { workflow: planned.shown, outputs: [] }, diagnostics: planned.diagnostics };
  const dir = planned.loaded.workflow.dir;
  const rows: OutputRow[] = [];
  for (const job of planned.plan.jobs) {
    for (const output of job.outputs) {
      const s = statSync(path.resolve(dir, output), { throwIfNoEntry: false });
      const date = s === undefined ? null : new Date(s.mtimeMs).toISOString();
      const status = job.reason === 'when false' ? 'off' : job.status === 'run' ? (s === undefined ? 'missing' : 'update pending') : 'ok';
      rows.push({ output, rule: job.rule, job: job.id, date, status, reason: job.reason });
    }
  }
  const header = ['output', 'date', 'rule', 'status', 'reason'];
  const table = [header, ...rows.map((r) => [r.output, r.date ?? '-', r.rule, r.status, r.reason])].map((cols) => cols.map(safe).join('\t'));
  return { outcome: 'ok', json: { workflow: planned.loaded.shown, outputs: rows }, diagnostics: planned.diagnostics, stdout: `${table.join('\n')}\n` };
}

async function touch(opts: RunOptions, ctx: CliContext): Promise<CommandResult> {
  const planned = await planCommand(opts, ctx);
  if (!planned.ok) return { outcome: planned.outcome, json: { workflow: planned.shown, touched: [] }, diagnostics: planned.diagnostics };
  const { plan, store, loaded } = planned;
  const dir = loaded.workflow.dir;
  const diagnostics = [...planned.diagnostics];
  const touched: string[] = [];
  const jobs: string[] = [];
  // One time for every file, in dependency order: equal times are never "newer", so all are fresh.
  const now = new Date();
  const failed = new Set<string>();
  for (const job of plan.jobs) {
    if (job.status !== 'run') continue;
    // A temp output that is gone needs no marking: its readers decide (as Snakemake's touch does).
    const missing = job.outputs.filter((o) => !job.tempOutputs.includes(o) && statSync(path.resolve(dir, o), { throwIfNoEntry: false }) === undefined);
    const upstreamFailed = job.dependsOn.some((d) => failed.has(d));
    if (missing.length > 0 || upstreamFailed) {
      failed.add(job.id);
      if (missing.length > 0) diagnostics.push(diagnostic('RUN019', `--touch: ${job.id} has no ${missing.join(', ')} to mark up to date; run it instead`, { rule: job.rule }));
      continue;
    }
    const present = job.outputs.filter((o) => statSync(path.resolve(dir, o), { throwIfNoEntry: false }) !== undefined);
    const refused = touchAll(present, dir, now);
    if (refused !== undefined) {
      failed.add(job.id);
      diagnostics.push(diagnostic('RUN019', `--touch: cannot mark ${refused.path} of ${job.id} up to date: ${refused.why}`, { rule: job.rule, hint: 'check that you own the file (a protected output stays yours) and that its folder is writable' }));
      continue;
    }
    touched.push(...present);
    jobs.push(job.id);
    recordDone(job, store, now);
  }
  const outcome = failed.size > 0 ? 'failed' : 'ok';
  return {
    outcome,
    json: { workflow: loaded.shown, jobs, touched },
    diagnostics,
    human: () => (jobs.length === 0 && failed.size === 0 ? 'Nothing to touch: every job is up to date.' : `Touched ${touched.length} output${touched.length === 1 ? '' : 's'} of ${jobs.length} job${jobs.length === 1 ? '' : 's'}: they are up to date now.`),
  };
}

/** Set every file's times to `at`; the first file that refuses, with why. */
function touchAll(files: readonly string[], dir: string, at: Date): { path: string; why: string } | undefined {
  for (const f of files) {
    try {
      utimesSync(path.resolve(dir, f), at, at);
    } catch (err) {
      return { path: f, why: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
    }
  }
  return undefined;
}

/** The job is done as it stands: its next plan compares its command with this record. */
function recordDone(job: JobSpec, store: StateStore, at: Date): void {
  const record = startRecord(job, 'local', job.outputs, store.logPath(job.id), at.getTime());
  store.write({ ...record, status: 'done', endedAt: at.toISOString() });
}
