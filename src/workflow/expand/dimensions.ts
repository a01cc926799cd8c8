// Which wildcards a rule fans out over, and the value combinations each fan-out contributes.
// A rule mentions a wildcard in its input, output or shell; only declared sources supply values.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { PAIR_WILDCARDS, SAMPLE_WILDCARDS } from '../checks/placeholders.js';
import { unusableName, unusableNameDiagnostic } from '../checks/wildcard-values.js';
import type { ConfigValue, Pair, Rule, Workflow } from '../model.js';
import type { Template } from '../render/template.js';
import type { SampleMember, SampleSource } from './sources.js';

/**
 * One value combination of one fan-out: `id` values name the job; `values` holds everything its
 * templates may use (the id values too). Options are shared between jobs and never mutated.
 */
export interface Option {
  id: Record<string, string>;
  values: Record<string, string>;
}

export interface Dimension {
  kind: 'pairs' | 'samples' | 'scatter';
  options: Option[];
}

export interface DimensionContext {
  workflow: Workflow;
  samples: SampleSource;
  config: ReadonlyMap<string, ConfigValue>;
  /** Graph drawing and graph checks: a missing source yields one stand-in value instead of E021. */
  standIns: boolean;
}

/** Names a rule mentions in the templates that decide its fan-out. */
export function mentionedNames(templates: readonly Template[]): Set<string> {
  const names = new Set<string>();
  for (const t of templates) for (const v of t.vars) names.add(v);
  return names;
}

export function ruleDimensions(
  rule: Rule,
  mentioned: ReadonlySet<string>,
  ctx: DimensionContext,
  diagnostics: Diagnostic[],
): Dimension[] | undefined {
  const dims: Dimension[] = [];
  const where = () => locate(ctx.workflow, rule); // only for a diagnostic: positions cost a scan of the file
  const pairNames = [...mentioned].filter((n) => PAIR_WILDCARDS.has(n));
  if (pairNames.length > 0) {
    // Every pair makes a job: a pair without a value the rule uses (a control) is E034 in the checks,
    // never a silently missing job.
    const pairs = ctx.workflow.pairs;
    if (pairs.length === 0) {
      if (!ctx.standIns) {
        diagnostics.push(
          diagnostic('E021', `\`{${pairNames[0]}}\` in rule ${rule.name} has no source: declare [[pairs]]`, {
            ...where(),
            rule: rule.name,
            hint: 'add [[pairs]] entries with pair_id, experiment and control',
          }),
        );
        return undefined;
      }
      dims.push({ kind: 'pairs', options: [standIn(pairNames)] });
    } else {
      dims.push({ kind: 'pairs', options: pairs.map((p) => pairOption(p, pairNames)) });
    }
  }
  // `{sample.COLUMN}` is a value of the job's sample: the rule fans out over samples as for `{sample}`.
  const sampleNames = [...mentioned].filter((n) => SAMPLE_WILDCARDS.has(n) || n.startsWith('sample.'));
  if (sampleNames.length > 0) {
    const members = ctx.samples.members;
    if (members.length === 0) {
      if (!ctx.standIns) {
        const why = ctx.samples.emptyBecause ? ` (workflow.sample_pattern found nothing: ${ctx.samples.emptyBecause})` : '';
        diagnostics.push(
          diagnostic('E021', `\`{${sampleNames[0]}}\` in rule ${rule.name} has no source: declare [[sample_groups]], set workflow.sample_pattern, or pass --samples${why}`, {
            ...where(),
            rule: rule.name,
            hint: 'e.g. [[sample_groups]] with name = "all" and samples = ["S1", "S2"], or run with --samples S1,S2',
          }),
        );
        return undefined;
      }
      const ids = standIn([...new Set(sampleNames.map((n) => (n.startsWith('sample.') ? 'sample' : n)))]);
      const values = { ...ids.values };
      for (const n of sampleNames) if (n.startsWith('sample.')) values[n] = `<${n}>`;
      dims.push({ kind: 'samples', options: [{ id: ids.id, values }] });
    } else {
      const bySample = mentioned.has('sample') || sampleNames.some((n) => n.startsWith('sample.'));
      dims.push({ kind: 'samples', options: sampleOptions(members, bySample, mentioned.has('group')) });
    }
  }
  if (rule.scatter !== undefined) {
    const values = listValues(rule.scatter.values, rule.scatter.valuesFrom, ctx.config);
    if ((values === undefined || values.length === 0) && ctx.standIns) {
      // A rule-level view: the checks report the missing values (E005, E036); the rule keeps its place.
      dims.push({ kind: 'scatter', options: [standIn([rule.scatter.variable])] });
    } else if (values === undefined || values.length === 0) {
      diagnostics.push(
        diagnostic(values === undefined ? 'E005' : 'E021', `scatter of rule ${rule.name} has no values${rule.scatter.valuesFrom ? `: ${rule.scatter.valuesFrom} ${values === undefined ? 'is not defined in [config]' : 'is empty'}` : ''}`, {
          ...where(),
          rule: rule.name,
          hint: 'give scatter.values, or values_from = "config.KEY" naming a list in [config]',
        }),
      );
      return undefined;
    } else {
      const variable = rule.scatter.variable;
      // Declared values are checked with the file; values from config (a file value or an override) here.
      if (rule.scatter.valuesFrom !== undefined && !ctx.standIns) {
        const bad = unusableValues(values, `scatter value of rule "${rule.name}" (from ${rule.scatter.valuesFrom})`, where, rule.name);
        if (bad.length > 0) {
          diagnostics.push(...bad);
          return undefined;
        }
      }
      dims.push({ kind: 'scatter', options: values.map((v) => ({ id: { [variable]: v }, values: { [variable]: v } })) });
    }
  }
  return dims;
}

/** E030 for each value that cannot be part of a file name. */
export function unusableValues(values: readonly string[], what: string, where: () => { file: string; line?: number; column?: number }, rule: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const v of values) {
    const why = unusableName(v);
    if (why !== undefined) out.push({ ...unusableNameDiagnostic(what, v, why, where()), rule });
  }
  return out;
}

/**
 * Values for scatter/split/expand_inputs: a literal list, or `config.KEY` (a list, or a string split
 * on commas), or a literal comma-separated list. Undefined when a config key is missing.
 */
export function listValues(
  values: readonly string[] | undefined,
  from: string | undefined,
  config: ReadonlyMap<string, ConfigValue>,
): string[] | undefined {
  if (values !== undefined) return [...values];
  if (from === undefined) return [];
  if (from.startsWith('config.')) {
    const v = config.get(from.slice('config.'.length));
    if (v === undefined) return undefined;
    return splitValue(v);
  }
  return splitValue(from);
}

function splitValue(v: ConfigValue): string[] {
  if (Array.isArray(v)) return v.map((x) => String(x));
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return [String(v)];
}

// Sample options depend only on the members and on which of {sample} and {group} name the job, so
// rules that mention the same ones share one list: a 12-rule chain over 1,000 samples builds 1,000
// options instead of 12,000. Safe because options are never mutated.
const sampleOptionCache = new WeakMap<readonly SampleMember[], Map<string, Option[]>>();

function sampleOptions(members: readonly SampleMember[], bySample: boolean, byGroup: boolean): Option[] {
  let cached = sampleOptionCache.get(members);
  if (cached === undefined) sampleOptionCache.set(members, (cached = new Map()));
  const key = `${bySample},${byGroup}`;
  let options = cached.get(key);
  if (options === undefined) {
    options = members.map((m) => {
      const id: Record<string, string> = {};
      if (bySample) id.sample = m.sample;
      if (byGroup) id.group = m.group;
      const values: Record<string, string> = { ...stringValues(m.metadata), sample: m.sample, group: m.group };
      if (m.cells !== undefined) for (const [k, v] of Object.entries(m.cells)) values[`sample.${k}`] = v;
      return { id, values };
    });
    cached.set(key, options);
  }
  return options;
}

function pairOption(p: Pair, mentioned: readonly string[]): Option {
  const all: Record<string, string | undefined> = {
    pair_id: p.pairId,
    experiment: p.experiment,
    tumor: p.experiment,
    control: p.control,
    normal: p.control,
    experiment_type: p.experimentType,
    tumor_type: p.experimentType,
  };
  const id: Record<string, string> = {};
  for (const n of mentioned) {
    const v = all[n];
    if (v !== undefined) id[n] = v;
  }
  const values: Record<string, string> = stringValues(p.metadata);
  for (const [k, v] of Object.entries(all)) if (v !== undefined) values[k] = v;
  return { id, values };
}

function standIn(names: readonly string[]): Option {
  const id: Record<string, string> = {};
  for (const n of names) id[n] = `<${n}>`;
  return { id, values: id };
}

function stringValues(meta: Readonly<Record<string, ConfigValue>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta)) out[k] = Array.isArray(v) ? v.join(' ') : String(v);
  return out;
}

export function locate(workflow: Workflow, rule: Rule, key?: string): { file: string; line?: number; column?: number } {
  const pos = workflow.positions.locate(key === undefined ? ['rules', rule.index] : ['rules', rule.index, key]);
  return pos === undefined ? { file: workflow.file } : { file: workflow.file, line: pos.line, column: pos.column };
}
