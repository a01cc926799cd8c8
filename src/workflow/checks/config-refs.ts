// E005: `{config.k}` or `config.k` (in when, values_from, expand_inputs) naming a key that [config]
// does not define and the engine does not provide.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KeyPath, Workflow } from '../model.js';
import { nearestName } from '../../diagnostics/nearest-name.js';
import { parseWhen, whenConfigKeys } from '../when.js';
import type { Locator } from './locate.js';
import { configRefs, engineConfigKeys } from './placeholders.js';
import { allTexts } from './rule-texts.js';

/** `values_from = "config.chromosomes"`: the key, or undefined for a literal list. */
export function configKeyOf(source: string): string | undefined {
  const m = /^\s*config\.([A-Za-z0-9_.-]+)\s*$/.exec(source);
  return m?.[1];
}

const PER_GROUP = /^\s*config\.([A-Za-z0-9_.-]*)\{group\}([A-Za-z0-9_.-]*)\s*$/;

export function checkConfigRefs(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  const engine = engineConfigKeys(w.sampleGroups.map((g) => g.name));
  const known = [...w.config.keys()];
  const defined = (key: string) => w.config.has(key) || engine.has(key);
  const report = (key: string, shown: string, where: ReturnType<Locator['at']>) => {
    const suggestion = nearestName(key, known);
    out.push(
      diagnostic('E005', `${shown} is not defined in [config]${suggestion ? ` (did you mean ${suggestion}?)` : ''}`, {
        ...where,
        hint: suggestion ? `use {config.${suggestion}}, or add ${key} = ... to [config]` : `add ${key} = ... to [config]`,
      }),
    );
  };
  const checkSource = (source: string | undefined, path: KeyPath, rule?: string) => {
    const key = source === undefined ? undefined : configKeyOf(source);
    if (key !== undefined && !defined(key)) report(key, `config.${key}`, loc.inValue(path, `config.${key}`, rule));
    // A per-group source (`config.samples_{group}`) names one key per declared group.
    const perGroup = source === undefined ? null : PER_GROUP.exec(source);
    if (perGroup === null) return;
    for (const g of w.sampleGroups) {
      const name = `${perGroup[1]}${g.name}${perGroup[2]}`;
      if (!defined(name)) report(name, `config.${name} (for group ${g.name})`, loc.inValue(path, source!.trim(), rule));
    }
  };

  if (w.meta.samplePattern !== undefined) {
    for (const ref of configRefs(w.meta.samplePattern)) {
      if (!defined(ref.name)) report(ref.name, ref.text, loc.inValue(['workflow', 'sample_pattern'], ref.text));
    }
  }
  for (const rule of w.rules) {
    const base = ['rules', rule.index] as const;
    for (const t of allTexts(rule)) {
      const seen = new Map<string, number>();
      for (const ref of configRefs(t.text)) {
        const n = seen.get(ref.text) ?? 0;
        seen.set(ref.text, n + 1);
        if (!defined(ref.name)) report(ref.name, ref.text, loc.inValue(t.path, ref.text, rule.name, n));
      }
    }
    if (rule.when !== undefined) {
      const parsed = parseWhen(rule.when);
      if (parsed.ok) {
        for (const key of new Set(whenConfigKeys(parsed.expr))) {
          if (!defined(key)) report(key, `config.${key}`, loc.inValue([...base, 'when'], `config.${key}`, rule.name));
        }
      }
    }
    checkSource(rule.scatter?.valuesFrom, [...base, 'scatter', 'values_from'], rule.name);
    checkSource(rule.transform?.split.valuesFrom, [...base, 'transform', 'split', 'values_from'], rule.name);
    rule.expandInputs.forEach((e, i) => {
      for (const [variable, source] of Object.entries(e.variables)) {
        checkSource(source, [...base, 'expand_inputs', i, 'variables', variable], rule.name);
      }
    });
  }
}
