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
  // One indexed pass groups the jobs by phase, then rule, keeping only what is printed: the first
  // few jobs and counts for the rest. (It runs once, before V8 optimises it, where a for-of would
  // allocate an iterator result per job; 12,000 jobs need no 12,000-element lists either.)
  const phases: Map<string, RuleGroup>[] = [];
  const phaseSizes: number[] = [];
  const { jobs } = plan;
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    const byRule = (phases[j.level] ??= new Map());
    phaseSizes[j.level] = (phaseSizes[j.level] ?? 0) + 1;
    let group = byRule.get(j.rule);
    if (group === undefined) byRule.set(j.rule, (group = { shown: [], folded: 0, counts: new Map() }));
    if (options.verbose || group.shown.length < SHOWN_PER_RULE) {
      group.shown.push(j);
      continue;
    }
    group.folded += 1;
    let byReason = group.counts.get(j.status);
    if (byReason === undefined) group.counts.set(j.status, (byReason = new Map()));
    byReason.set(j.reason, (byReason.get(j.reason) ?? 0) + 1);
  }
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

/** A rule's jobs in one phase: those printed in full, and status → reason → count for the rest. */
interface RuleGroup {
  shown: JobSpec[];
  folded: number;
  counts: Map<string, Map<string, number>>;
}

/** `12 run: never completed, 3 skip: up to date`, by status, then reason. */
function statusCounts(counts: RuleGroup['counts']): string {
  return [...counts].flatMap(([status, byReason]) => [...byReason].map(([reason, n]) => `${n} ${status}: ${reason}`)).join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
