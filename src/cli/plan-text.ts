// Human text for a plan: phases with their jobs, then a summary and a suggested `-j`.
// Large plans stay readable: within a phase, each rule shows its first few jobs in full and folds the
// rest into one line with their status counts (`-v` shows every job).
import { RUN_REASONS, SKIP_REASONS, type JobSpec, type Plan } from '../workflow/plan/index.js';
import type { Style } from './style.js';
import { terminalSafeLine as safe } from './terminal-safe.js';

/** Jobs of one rule shown in full per phase before the rest are folded. */
const SHOWN_PER_RULE = 3;

export function planText(plan: Plan, style: Style, options: { verbose: boolean; workflowArg: string; project?: string }): string {
  const lines: string[] = [];
  const { summary } = plan;
  lines.push(style.bold(`dry-run: ${safe(plan.workflow)} (${safe(plan.file)}) — ${count(summary.jobs, 'job')} in ${count(summary.phases, 'phase')}`));
  // Said when the project is not the workflow's folder, so paths are never read from an unexpected place.
  if (options.project !== undefined) lines.push(style.dim(`project: ${safe(options.project)} (data, results and .oxo-flow/ are read and written there)`));
  const { phases, phaseSizes } = groupJobs(plan.jobs, options.verbose);
  phases.forEach((byRule, level) => {
    lines.push('', style.bold(`Phase ${level + 1}`) + style.dim(` · ${count(phaseSizes[level]!, 'job')}`));
    for (const [rule, group] of byRule) {
      for (const j of group.shown) lines.push(...jobLines(j, style));
      if (group.folded > 0) lines.push(style.dim(`  … ${count(group.folded, `more ${safe(rule)} job`)}: ${statusCounts(group.counts)} (-v shows every job)`));
    }
  });
  lines.push('', summaryLine(plan, style));
  // No "next command" line: this version has no `run` command yet, and a hint must never name one.
  if (summary.run === 0) lines.push('Nothing to do: every job is up to date or switched off.');
  return lines.join('\n');
}

export function summaryLine(plan: Plan, style: Style): string {
  const { summary } = plan;
  const parts = (reasons: readonly (keyof typeof summary.byReason)[]) =>
    reasons
      .filter((r) => summary.byReason[r] > 0)
      .map((r) => `${summary.byReason[r]} ${r}`)
      .join(', ');
  const runDetail = parts(RUN_REASONS);
  const skipDetail = parts(SKIP_REASONS);
  return (
    `${style.bold('Summary:')} ${count(summary.jobs, 'job')} — ${style.green(`${summary.run} will run`)}${runDetail ? ` (${runDetail})` : ''}, ` +
    `${summary.skip} skipped${skipDetail ? ` (${skipDetail})` : ''}; suggested -j ${plan.suggestedJobs}`
  );
}

function jobLines(j: JobSpec, style: Style): string[] {
  const mark = j.status === 'run' ? style.green('●') : style.dim('○');
  const status = `${j.status}: ${j.reason}`;
  const detail = j.detail ? style.dim(` (${safe(j.detail)})`) : '';
  const out = [`  ${mark} ${safe(j.id)}  ${j.status === 'run' ? style.green(status) : style.dim(status)}${detail}`];
  if (j.status === 'skip') return out;
  const command = j.shownCommand.trim().split('\n');
  command.forEach((line, i) => out.push(`      ${i === 0 ? style.dim('$') : ' '} ${safe(line.trimEnd())}`));
  const facts = [`threads ${j.threads}`];
  if (j.memory !== undefined) facts.push(`memory ${j.memory}`);
  if (j.environment !== undefined) facts.push(`${j.environment.kind} ${safe([j.environment.spec].flat().join(','))}`);
  out.push(style.dim(`      ${facts.join(' · ')}`));
  for (const m of j.missingInputs) out.push(style.yellow(`      input ✗ ${safe(m)} (does not exist and no job makes it)`));
  return out;
}

/**
 * The jobs by phase, then rule, keeping only what is printed: the first few jobs of each and counts
 * for the rest. One indexed pass in a function of its own (it runs once per job, mostly before V8
 * optimises it, where a for-of would allocate an iterator result per job; and V8 then compiles this
 * loop alone, not the whole listing). Jobs come phase by phase and rule by rule, so the group of
 * the job before is mostly this job's too.
 */
function groupJobs(jobs: readonly JobSpec[], verbose: boolean): { phases: Map<string, RuleGroup>[]; phaseSizes: number[] } {
  const phases: Map<string, RuleGroup>[] = [];
  const phaseSizes: number[] = [];
  let group: RuleGroup | undefined;
  let groupLevel = -1;
  let groupRule = '';
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    const level = j.level;
    const rule = j.rule;
    phaseSizes[level] = (phaseSizes[level] ?? 0) + 1;
    if (group === undefined || level !== groupLevel || rule !== groupRule) {
      const byRule = (phases[level] ??= new Map());
      group = byRule.get(rule);
      if (group === undefined) byRule.set(rule, (group = { shown: [], folded: 0, counts: [] }));
      groupLevel = level;
      groupRule = rule;
    }
    if (verbose || group.shown.length < SHOWN_PER_RULE) {
      group.shown.push(j);
      continue;
    }
    group.folded += 1;
    // Folded jobs mostly share their status and reason with the one before.
    const status = j.status;
    const reason = j.reason;
    const last = group.counts[group.counts.length - 1];
    if (last !== undefined && last.status === status && last.reason === reason) last.n += 1;
    else addCount(group.counts, status, reason);
  }
  return { phases, phaseSizes };
}

/** A rule's jobs in one phase: those printed in full, and how many of the rest have each status and reason. */
interface RuleGroup {
  shown: JobSpec[];
  folded: number;
  /** One entry per status and reason, in the order first seen. */
  counts: { status: string; reason: string; n: number }[];
}

function addCount(counts: RuleGroup['counts'], status: string, reason: string): void {
  const seen = counts.find((c) => c.status === status && c.reason === reason);
  if (seen !== undefined) seen.n += 1;
  else counts.push({ status, reason, n: 1 });
}

/** `12 run: never completed, 3 skip: up to date`: by status (in the order first seen), then reason. */
function statusCounts(counts: RuleGroup['counts']): string {
  const statuses = [...new Set(counts.map((c) => c.status))];
  return statuses.flatMap((status) => counts.filter((c) => c.status === status).map((c) => `${c.n} ${status}: ${c.reason}`)).join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
