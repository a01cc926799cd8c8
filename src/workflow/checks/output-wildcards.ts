// E003: an output wildcard that no input carries, so the engine cannot tell which value an output
// gets. Checked only for rules with inputs (a rule without inputs creates its outputs from nothing).
// Exempt, as in the reference engine: the rule's own scatter/split variable, pair wildcards when
// [[pairs]] exist, {sample}/{group} when [[sample_groups]] exist, and `_internal` names. A wildcard
// with no declared source at all is not E003 but W024 (lint) / E021 (dry-run): one finding, one code.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Rule, Workflow } from '../model.js';
import type { Locator } from './locate.js';
import { PAIR_WILDCARDS, SAMPLE_WILDCARDS, wildcards } from './placeholders.js';
import { pathTexts } from './rule-texts.js';

/** rule name → scatter variables of the rules it gathers; built once per workflow, so lookups stay linear. */
const gatheredVariables = new WeakMap<Workflow, Map<string, string[]>>();

function gathered(w: Workflow, ruleName: string): string[] {
  let map = gatheredVariables.get(w);
  if (!map) {
    map = new Map();
    for (const r of w.rules) {
      if (!r.scatter?.gather) continue;
      map.set(r.scatter.gather, [...(map.get(r.scatter.gather) ?? []), r.scatter.variable]);
    }
    gatheredVariables.set(w, map);
  }
  return map.get(ruleName) ?? [];
}

/** Sample groups, or a sheet that gives them (perhaps read only once a config value is given at run time). */
function declaresSamples(w: Workflow): boolean {
  return w.sampleGroups.length > 0 || w.meta.sampleGroupsFile !== undefined || w.meta.samplesFile !== undefined;
}

/** Wildcards some declared source fills for this rule. */
export function sourcedWildcards(w: Workflow, rule: Rule): Set<string> {
  const names = new Set<string>();
  if (w.pairs.length > 0 || w.meta.pairsFile !== undefined) for (const n of PAIR_WILDCARDS) names.add(n);
  if (declaresSamples(w) || w.meta.samplePattern !== undefined) for (const n of SAMPLE_WILDCARDS) names.add(n);
  if (rule.scatter) names.add(rule.scatter.variable);
  if (rule.transform) names.add(rule.transform.split.by);
  for (const e of rule.expandInputs) for (const v of Object.keys(e.variables)) names.add(v);
  for (const v of gathered(w, rule.name)) names.add(v);
  return names;
}

export function checkOutputWildcards(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  const hasPairs = w.pairs.length > 0 || w.meta.pairsFile !== undefined;
  const hasGroups = declaresSamples(w);
  for (const rule of w.rules) {
    if (rule.input.paths.length === 0 && rule.expandInputs.length === 0) continue;
    const texts = pathTexts(rule);
    const inInputs = new Set(texts.filter((t) => t.field === 'input').flatMap((t) => wildcards(t.text).map((f) => f.name)));
    const sourced = sourcedWildcards(w, rule);
    const reported = new Set<string>();
    for (const t of texts) {
      if (t.field !== 'output') continue;
      for (const f of wildcards(t.text)) {
        if (inInputs.has(f.name) || reported.has(f.name)) continue;
        if (rule.scatter?.variable === f.name || rule.transform?.split.by === f.name) continue;
        if (hasPairs && PAIR_WILDCARDS.has(f.name)) continue;
        if (hasGroups && SAMPLE_WILDCARDS.has(f.name)) continue;
        if (!sourced.has(f.name)) continue; // no source at all: W024 / E021 says so
        reported.add(f.name);
        out.push(
          diagnostic('E003', `output ${JSON.stringify(t.text)} of rule "${rule.name}" uses {${f.name}}, which none of its inputs has`, {
            ...loc.inValue(t.path, f.text, rule.name),
            hint: `add {${f.name}} to an input path, or remove it from the output`,
          }),
        );
      }
    }
  }
}
