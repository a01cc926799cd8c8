// scatter and transform.split take their values from a literal list or from `values_from =
// "config.KEY"`. E035: values_from that does not say `config.` (it would be read as one literal
// value). E036: an empty literal list (no job could be made).
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KeyPath, Workflow } from '../model.js';
import { configKeyOf } from './config-refs.js';
import type { Locator } from './locate.js';

export function checkValueLists(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  for (const rule of w.rules) {
    const base = ['rules', rule.index] as const;
    const sources: [string, { values?: string[]; valuesFrom?: string } | undefined, KeyPath][] = [
      ['scatter', rule.scatter, [...base, 'scatter']],
      ['transform.split', rule.transform?.split, [...base, 'transform', 'split']],
    ];
    for (const [what, src, path] of sources) {
      if (src === undefined) continue;
      const none = src.values === undefined && src.valuesFrom === undefined;
      if (none || (src.values !== undefined && src.values.length === 0)) {
        out.push(
          diagnostic('E036', `${what}${none ? ' of rule "' + rule.name + '" has neither values nor values_from' : `.values of rule "${rule.name}" is empty`}, so the rule would make no jobs`, {
            ...loc.at(none ? path : [...path, 'values'], rule.name),
            hint: 'list at least one value, or use values_from = "config.KEY"',
          }),
        );
      }
      const from = src.valuesFrom;
      if (from === undefined || configKeyOf(from) !== undefined) continue;
      const bare = from.trim();
      const hint = w.config.has(bare) ? `write values_from = "config.${bare}"` : undefined;
      out.push(
        diagnostic('E035', `${what}.values_from of rule "${rule.name}" is ${JSON.stringify(from)}, which does not name a config key`, {
          ...loc.at([...path, 'values_from'], rule.name),
          ...(hint !== undefined ? { hint } : {}),
        }),
      );
    }
  }
}
