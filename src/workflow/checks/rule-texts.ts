// Every piece of text a rule carries, with the key path where it is written, so checks and lints can
// scan them uniformly and point at the right line.
import type { KeyPath, PathSet, Rule } from '../model.js';

export type TextField = 'input' | 'output' | 'log' | 'shell' | 'script' | 'map' | 'combine' | 'expand_inputs' | 'expand_source' | 'params';

export interface RuleText {
  field: TextField;
  path: KeyPath;
  text: string;
}

function pathEntries(rule: Rule, field: 'input' | 'output', set: PathSet): RuleText[] {
  const byIndex = new Map<number, string>();
  for (const [name, i] of Object.entries(set.names)) byIndex.set(i, name);
  return set.paths.map((text, i) => ({ field, path: ['rules', rule.index, field, byIndex.get(i) ?? i], text }));
}

export function pathTexts(rule: Rule): RuleText[] {
  return [...pathEntries(rule, 'input', rule.input), ...pathEntries(rule, 'output', rule.output)];
}

/** Commands the rule runs: shell, transform map and combine. */
export function commandTexts(rule: Rule): RuleText[] {
  const out: RuleText[] = [];
  const base = ['rules', rule.index] as const;
  if (rule.shell !== undefined) out.push({ field: 'shell', path: [...base, 'shell'], text: rule.shell });
  if (rule.transform?.map !== undefined) out.push({ field: 'map', path: [...base, 'transform', 'map'], text: rule.transform.map });
  if (rule.transform?.combine) out.push({ field: 'combine', path: [...base, 'transform', 'combine', 'shell'], text: rule.transform.combine.shell });
  return out;
}

export function allTexts(rule: Rule): RuleText[] {
  const out = [...pathTexts(rule), ...commandTexts(rule)];
  const base = ['rules', rule.index] as const;
  if (rule.log !== undefined) out.push({ field: 'log', path: [...base, 'log'], text: rule.log });
  if (rule.script !== undefined) out.push({ field: 'script', path: [...base, 'script'], text: rule.script });
  rule.expandInputs.forEach((e, i) => {
    out.push({ field: 'expand_inputs', path: [...base, 'expand_inputs', i, 'pattern'], text: e.pattern });
    // A variable's source may name the job's own values: `config.samples_{group}`.
    for (const [name, source] of Object.entries(e.variables)) out.push({ field: 'expand_source', path: [...base, 'expand_inputs', i, 'variables', name], text: source });
  });
  out.push(...paramsTexts(rule));
  return out;
}

/** Each string of `params` (an option list's strings one by one): they hold placeholders too. */
export function paramsTexts(rule: Rule): RuleText[] {
  const out: RuleText[] = [];
  const base = ['rules', rule.index, 'params'] as const;
  for (const [key, v] of Object.entries(rule.params)) {
    if (typeof v === 'string') out.push({ field: 'params', path: [...base, key], text: v });
    else if (Array.isArray(v)) v.forEach((x, i) => typeof x === 'string' && out.push({ field: 'params', path: [...base, key, i], text: x }));
  }
  return out;
}
