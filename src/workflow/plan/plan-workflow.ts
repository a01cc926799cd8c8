// The one planning function: dry-run prints what it returns and run executes it, so the jobs a
// dry-run says will run are exactly the jobs run runs on the same disk state. Given the run state
// (settings.state), it decides every job's status once (status.ts); nothing rewrites it afterwards.
import path from 'node:path';
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ConfigValue, Rule, Workflow } from '../model.js';
import { evaluateWhen, parseWhen, type WhenExpr } from '../when.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import { expandWorkflow } from '../expand/expand-workflow.js';
import { locate } from '../expand/dimensions.js';
import type { Dag } from '../dag/build-dag.js';
import { downstreamClosure, resolveTargets, upstreamClosure } from '../dag/targets.js';
import { PlannedJob, type RuleFacts } from './planned-job.js';
import { adjustRules } from './resources.js';
import { decideStatuses } from './status.js';
import { zeroByReason, type JobReason, type JobSpec, type Plan, type PlanFs, type PlanSettings } from './types.js';

export interface PlanResult {
  plan?: Plan;
  diagnostics: Diagnostic[];
}

const NO_TARGETS: ReadonlySet<number> = new Set();

export function planWorkflow(declared: Workflow, settings: PlanSettings, fs: PlanFs): PlanResult {
  const diagnostics: Diagnostic[] = [];
  // The run's caps, --set-threads/--set-resources and --env change rules before anything renders.
  const adjusted = adjustRules(declared, settings.resources, settings.environments);
  const workflow = adjusted.workflow;
  const whenByRule = parseConditions(workflow, diagnostics);
  const result = expandWorkflow(workflow, {
    ...(settings.overrides !== undefined ? { overrides: settings.overrides } : {}),
    ...(settings.samples !== undefined ? { samples: settings.samples } : {}),
    list: fs.list,
  });
  diagnostics.push(...result.diagnostics);
  if (result.expanded === undefined || hasErrors(diagnostics)) return { diagnostics };
  const { jobs, dag, config, samples } = result.expanded;

  let keep: Uint8Array | undefined;
  let targets: ReadonlySet<number> = NO_TARGETS;
  if (settings.targets !== undefined && settings.targets.length > 0) {
    const t = resolveTargets(jobs, dag, settings.targets, workflow.rules.map((r) => r.name));
    if (hasErrors(t.diagnostics)) return { diagnostics: [...diagnostics, ...t.diagnostics] };
    keep = upstreamClosure(dag, t.selected);
    targets = new Set(t.selected);
  }
  if (settings.omitFrom !== undefined && settings.omitFrom.length > 0) {
    const o = resolveTargets(jobs, dag, settings.omitFrom, workflow.rules.map((r) => r.name));
    if (hasErrors(o.diagnostics)) return { diagnostics: [...diagnostics, ...o.diagnostics] };
    const omitted = downstreamClosure(dag, o.selected);
    const kept = keep ?? new Uint8Array(jobs.length).fill(1);
    for (let i = 0; i < kept.length; i++) if (omitted[i]) kept[i] = 0;
    keep = kept;
  }

  const resolved = resolverFor(workflow.dir);
  const whenFalse = evaluateConditions(whenByRule, config, (p) => fs.stat(resolved(p)) !== undefined);
  const statuses = decideStatuses({
    jobs,
    dag,
    keep,
    targets,
    whenFalse,
    fs,
    resolve: resolved,
    ...(settings.state !== undefined ? { state: settings.state } : {}),
    ...(workflow.defaults.environment !== undefined ? { defaultEnvironment: workflow.defaults.environment } : {}),
  });
  const { specs, counts } = toSpecs(workflow, jobs, dag, keep, targets, statuses);
  // Notices about changed rules, for the rules that have a job to run (an up-to-date rule is untouched).
  if (adjusted.diagnostics.length > 0) {
    const running = new Set(specs.filter((j) => j.status === 'run').map((j) => j.rule));
    diagnostics.push(...adjusted.diagnostics.filter((d) => d.rule === undefined || running.has(d.rule)));
  }
  return { plan: summarise(workflow, specs, counts, settings.cpus, samples.origin, samples.members.length), diagnostics };
}

/**
 * `path.resolve(dir, p)` for every file the plan looks at. Most are plain relative paths, and for
 * those a join gives the same string without path.resolve's cost (thousands of calls per plan).
 */
function resolverFor(dir: string): (p: string) => string {
  // The join is exact only for POSIX separators and a directory that is already absolute and normal.
  if (path.sep !== '/' || dir !== path.resolve(dir)) return (p) => path.resolve(dir, p);
  const prefix = dir === '/' ? '/' : `${dir}/`;
  return (p) => (p !== '' && !NEEDS_RESOLVE.test(p) ? prefix + p : path.resolve(dir, p));
}

/** Absolute, a trailing or doubled slash, or a `.` or `..` segment: path.resolve normalises these. */
const NEEDS_RESOLVE = /^\/|\/$|\/\/|(?:^|\/)\.\.?(?:\/|$)/;

function parseConditions(workflow: Workflow, diagnostics: Diagnostic[]): Map<string, WhenExpr> {
  const out = new Map<string, WhenExpr>();
  for (const rule of workflow.rules) {
    if (rule.when === undefined) continue;
    const parsed = parseWhen(rule.when);
    if (parsed.ok) out.set(rule.name, parsed.expr);
    else
      diagnostics.push(
        diagnostic('E022', `\`when\` of rule ${rule.name} does not parse: ${parsed.message} (column ${parsed.column} of the expression)`, {
          ...locate(workflow, rule, 'when'),
          rule: rule.name,
        }),
      );
  }
  return out;
}

/** Names of the rules whose `when` is false, each evaluated once with the effective config. */
function evaluateConditions(
  whenByRule: ReadonlyMap<string, WhenExpr>,
  config: ReadonlyMap<string, ConfigValue>,
  fileExists: (p: string) => boolean,
): Set<string> {
  const off = new Set<string>();
  for (const [name, expr] of whenByRule) {
    if (!evaluateWhen(expr, { config: (k) => config.get(k), fileExists })) off.add(name);
  }
  return off;
}

/** The plan's jobs in order, counted as they are made (the summary reads the decisions, not the jobs). */
function toSpecs(
  workflow: Workflow,
  jobs: readonly ExpandedJob[],
  dag: Dag,
  keep: Uint8Array | undefined,
  targets: ReadonlySet<number>,
  statuses: ReturnType<typeof decideStatuses>,
): { specs: JobSpec[]; counts: Counts } {
  const specs: JobSpec[] = [];
  const counts: Counts = { byReason: zeroByReason(), widths: [], run: 0, phases: 0 };
  // What every job of a rule shares, worked out once per rule (jobs come rule by rule: the last one is mostly it).
  const factsByRule = new Map<Rule, RuleFacts>();
  let lastRule: Rule | undefined;
  let facts: RuleFacts | undefined;
  // An indexed loop: once per job, mostly before V8 optimises it (see build-dag.ts).
  for (let o = 0; o < dag.order.length; o++) {
    const i = dag.order[o]!;
    if (keep !== undefined && !keep[i]) continue;
    const j = jobs[i]!;
    const s = statuses[i]!;
    const level = dag.levels[i]!;
    const rule = j.rule;
    if (rule !== lastRule) {
      facts = factsByRule.get(rule);
      if (facts === undefined) factsByRule.set(rule, (facts = ruleFacts(workflow, rule, jobs, dag, targets)));
      lastRule = rule;
    }
    specs.push(new PlannedJob(j, i, facts!, s));
    counts.byReason[s.reason] += 1;
    if (level + 1 > counts.phases) counts.phases = level + 1;
    if (s.status === 'run') {
      counts.run += 1;
      counts.widths[level] = (counts.widths[level] ?? 0) + 1;
    }
  }
  return { specs, counts };
}

/** Per reason, how many jobs; per phase, how many run; how many run; how many phases. */
interface Counts {
  byReason: Record<JobReason, number>;
  /** By level: how many jobs run (a hole where none does). */
  widths: number[];
  run: number;
  phases: number;
}

function ruleFacts(workflow: Workflow, rule: Rule, jobs: readonly ExpandedJob[], dag: Dag, targets: ReadonlySet<number>): RuleFacts {
  const memoryMb = rule.memoryMb ?? workflow.defaults.memoryMb;
  const memory = rule.memoryMb !== undefined ? rule.memoryText : workflow.defaults.memoryText;
  const environment = rule.environment ?? workflow.defaults.environment;
  const facts: { -readonly [K in keyof RuleFacts]: RuleFacts[K] } = { rule: rule.name, threads: rule.threads ?? workflow.defaults.threads ?? 1, jobs, dag, targets };
  if (memoryMb !== undefined) facts.memoryMb = memoryMb;
  if (memory !== undefined) facts.memory = memory;
  else if (memoryMb !== undefined) facts.memory = `${memoryMb}M`;
  if (environment !== undefined) facts.environment = environment;
  return facts;
}

function summarise(workflow: Workflow, jobs: JobSpec[], counts: Counts, cpus: number | undefined, origin: Plan['samples']['origin'], sampleCount: number): Plan {
  const { byReason, run, phases } = counts;
  let maxParallel = 0;
  for (let l = 0; l < counts.widths.length; l++) if ((counts.widths[l] ?? 0) > maxParallel) maxParallel = counts.widths[l]!;
  const suggestedJobs = Math.max(1, Math.min(maxParallel, cpus ?? maxParallel));
  return {
    workflow: workflow.meta.name,
    file: workflow.file,
    jobs,
    summary: { jobs: jobs.length, run, skip: jobs.length - run, byReason, phases, maxParallel },
    suggestedJobs,
    samples: { origin, count: sampleCount },
  };
}
