// `oxo-flow runs` lists the recorded runs of a workflow directory (oldest first, like `nextflow log`);
// `oxo-flow runs show ID` prints one: what ran, with what, how it ended, and its jobs.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { ensureTraceTsv, findRun, listRuns, readTrace, runsDir, type LoadedRun } from '../../run/record/store.js';
import type { TraceRow } from '../../run/record/types.js';
import type { CliContext } from '../context.js';
import { failure, type CommandResult } from '../result.js';
import type { Style } from '../style.js';
import { terminalSafe } from '../terminal-safe.js';

export interface RunsOptions {
  project?: string;
  id?: string;
}

const projectOf = (opts: RunsOptions, ctx: CliContext) => path.resolve(ctx.cwd, opts.project ?? '.');

export interface RunSummary {
  id: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  duration_seconds: number | null;
  workflow: string;
  executor: string;
  jobs_done: number;
  jobs_failed: number;
  jobs_planned: number;
  exit_code: number | null;
  command_line: string[];
}

/** A run as listed; an incomplete run's counts come from its trace (its run.json never got them). */
export function summarise(run: LoadedRun): RunSummary {
  const m = run.meta;
  let done = m.counts?.done ?? 0;
  let failed = (m.counts?.failed ?? 0) + (m.counts?.blocked ?? 0);
  let ended = m.endedAt ?? null;
  if (m.status === 'running') {
    const rows = readTrace(run.dir);
    done = rows.filter((r) => r.outcome === 'done').length;
    failed = rows.filter((r) => r.outcome !== 'done').length;
    ended = rows.reduce<string | null>((t, r) => (r.endedAt !== null && (t === null || r.endedAt > t) ? r.endedAt : t), null);
  }
  return {
    id: m.id,
    status: run.incomplete ? 'incomplete' : m.status,
    started_at: m.startedAt,
    ended_at: ended,
    duration_seconds: ended !== null ? (Date.parse(ended) - Date.parse(m.startedAt)) / 1000 : null,
    workflow: m.workflow?.name ?? '',
    executor: m.executor,
    jobs_done: done,
    jobs_failed: failed,
    jobs_planned: m.counts?.toRun ?? 0,
    exit_code: m.exitCode ?? null,
    command_line: m.commandLine ?? [],
  };
}

export async function runsList(opts: RunsOptions, ctx: CliContext): Promise<CommandResult> {
  const dir = projectOf(opts, ctx);
  const loaded = listRuns(dir);
  const diagnostics = completeTraces(loaded);
  const runs = loaded.map(summarise);
  return {
    outcome: 'ok',
    ...(diagnostics.length > 0 ? { diagnostics } : {}),
    json: { directory: runsDir(dir), runs },
    human: (style) => {
      if (runs.length === 0) return `no runs recorded in ${runsDir(dir)} yet (each \`oxo-flow run\` records one)`;
      const head = ['RUN', 'STARTED', 'DURATION', 'STATUS', 'DONE', 'FAILED', 'EXIT', 'COMMAND'];
      const rows = runs.map((r) => [
        r.id,
        r.started_at.replace('T', ' ').slice(0, 19),
        r.duration_seconds === null ? '-' : duration(r.duration_seconds),
        r.status,
        String(r.jobs_done),
        String(r.jobs_failed),
        r.exit_code === null ? '-' : String(r.exit_code),
        terminalSafe(['oxo-flow', ...r.command_line].join(' ')),
      ]);
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      const fmt = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
      const lines = [style.bold(fmt(head))];
      for (const r of rows) lines.push(fmt(r).replace(r[3]!.padEnd(widths[3]!), statusText(r[3]!, style, widths[3]!)));
      lines.push('', `Show one with ${style.bold('oxo-flow runs show ID')}, or make a report with ${style.bold('oxo-flow report ID')}.`);
      return lines.join('\n');
    },
  };
}

export async function runsShow(opts: RunsOptions & { id: string }, ctx: CliContext): Promise<CommandResult> {
  const dir = projectOf(opts, ctx);
  const found = findRun(dir, opts.id);
  if ('error' in found) return failure('failed', [noRun(found, dir)], { id: opts.id });
  const run = found.run;
  const diagnostics = completeTraces([run]);
  const summary = summarise(run);
  const trace = readTrace(run.dir);
  return {
    outcome: 'ok',
    ...(diagnostics.length > 0 ? { diagnostics } : {}),
    json: { run: { ...run.meta, status: summary.status }, summary, directory: run.dir, trace },
    human: (style) => renderRun(run, summary, trace, style),
  };
}

/** trace.tsv for each incomplete run that has none (its runner died before writing it); REP020 when that fails. */
export function completeTraces(runs: readonly LoadedRun[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const run of runs) {
    const why = ensureTraceTsv(run);
    if (why !== undefined) out.push(diagnostic('REP020', `cannot write ${path.join(run.dir, 'trace.tsv')}: ${why}`, { file: path.join(run.dir, 'trace.tsv') }));
  }
  return out;
}

export function noRun(found: { error: string; known: string[] }, dir: string) {
  const recent = found.known.slice(-3).join(', ');
  return diagnostic('REP001', `${found.error} in ${runsDir(dir)}`, {
    hint: found.known.length > 0 ? `recent runs: ${recent}; list them all with \`oxo-flow runs\`` : 'run the workflow first: each `oxo-flow run` records one',
  });
}

function renderRun(run: LoadedRun, s: RunSummary, trace: readonly TraceRow[], style: Style): string {
  const m = run.meta;
  const safe = terminalSafe;
  const lines = [
    `${style.bold('run')} ${m.id}  ${statusText(s.status, style)}`,
    `  workflow:  ${safe(m.workflow.name)} ${style.dim(`${safe(m.workflow.file)} sha256:${m.workflow.sha256.slice(0, 12)}`)}`,
    `  command:   ${safe(['oxo-flow', ...m.commandLine].join(' '))}`,
    `  started:   ${m.startedAt}${s.duration_seconds !== null ? ` (${duration(s.duration_seconds)})` : ''}`,
    `  host:      ${safe(m.host.name)} ${style.dim(`${m.host.platform}/${m.host.arch}, ${m.host.cpus} CPUs, Node ${m.host.node}, oxo-flow ${m.oxoFlowVersion}`)}`,
    `  executor:  ${m.executor}${m.limits ? style.dim(` -j ${m.limits.jobs}, ${m.limits.cores} cores, ${m.limits.memoryMb} MB`) : ''}`,
    `  jobs:      ${s.jobs_done} done, ${s.jobs_failed} failed or blocked, of ${s.jobs_planned}${s.exit_code !== null ? `; exit ${s.exit_code}` : ''}`,
  ];
  if (s.status === 'incomplete') lines.push(style.yellow('  the runner stopped without finishing this record (killed or crashed); the rows below are the jobs that finished'));
  for (const t of m.tools) lines.push(`  tool:      ${safe(t.rule)}: ${t.version !== null ? safe(t.version) : style.red(`failed (${safe(t.error ?? '')})`)}`);
  for (const e of m.environments) lines.push(`  env:       ${safe(e.rule)}: ${e.kind} ${safe(Array.isArray(e.spec) ? e.spec.join(', ') : e.spec)}${e.fileSha256 ? style.dim(` sha256:${e.fileSha256.slice(0, 12)}`) : ''}`);
  lines.push(`  record:    ${safe(run.dir)}`);
  if (trace.length > 0) {
    lines.push('', style.bold('  JOB  OUTCOME  WALL  CPU  PEAK RSS'));
    const ordered = [...trace].sort((a, b) => Number(a.outcome === 'done') - Number(b.outcome === 'done'));
    for (const r of ordered) {
      const cpu = r.cpuUserSeconds !== null && r.cpuSystemSeconds !== null ? `${(r.cpuUserSeconds + r.cpuSystemSeconds).toFixed(2)}s` : '-';
      const rss = r.peakRssBytes !== null ? bytes(r.peakRssBytes) : '-';
      const wall = r.wallSeconds !== null ? `${r.wallSeconds.toFixed(2)}s` : '-';
      lines.push(`  ${safe(r.id)}  ${statusText(r.outcome, style)}  ${wall}  ${cpu}  ${rss}${r.executor === 'slurm' && r.executorId ? style.dim(` slurm ${r.executorId}`) : ''}`);
    }
  }
  return lines.join('\n');
}

function statusText(status: string, style: Style, width = 0): string {
  const padded = status.padEnd(width);
  return status === 'ok' || status === 'done' ? style.green(padded) : status === 'running' ? style.cyan(padded) : status === 'failed' || status === 'timed out' ? style.red(padded) : style.yellow(padded);
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
