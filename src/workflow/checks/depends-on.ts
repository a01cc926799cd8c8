// E007: depends_on (or scatter.gather) naming a rule that does not exist. E006: depends_on naming the
// rule itself, the shortest cycle.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import { nearestName } from '../../diagnostics/nearest-name.js';
import type { Locator } from './locate.js';

export function checkDependsOn(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  const names = new Set(w.rules.map((r) => r.name));
  const unknown = (name: string, what: string, path: (string | number)[], rule: string) => {
    const suggestion = nearestName(name, names);
    out.push(
      diagnostic('E007', `${what} of rule "${rule}" names "${name}", which is not a rule${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`, {
        ...loc.at(path, rule),
        hint: suggestion ? `change it to "${suggestion}"` : 'name a rule defined in this file',
      }),
    );
  };
  for (const rule of w.rules) {
    rule.dependsOn.forEach((dep, i) => {
      if (!names.has(dep)) unknown(dep, 'depends_on', ['rules', rule.index, 'depends_on', i], rule.name);
      else if (dep === rule.name) {
        out.push(
          diagnostic('E006', `cycle: rule "${rule.name}" depends on itself (${rule.name} → ${rule.name})`, {
            ...loc.at(['rules', rule.index, 'depends_on', i], rule.name),
            hint: 'remove the rule\'s own name from depends_on',
          }),
        );
      }
    });
    const gather = rule.scatter?.gather;
    if (gather !== undefined && !names.has(gather)) unknown(gather, 'scatter.gather', ['rules', rule.index, 'scatter', 'gather'], rule.name);
  }
}
