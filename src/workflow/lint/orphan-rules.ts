// W019: a rule that runs a command, declares no outputs and nothing depends on it: the engine can
// never tell whether it is up to date, so it runs every time. `when = "false"` rules are parked, not orphans.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintContext } from './context.js';

export function lintOrphanRules({ workflow: w, loc, out }: LintContext): void {
  const needed = new Set<string>();
  for (const r of w.rules) {
    for (const dep of r.dependsOn) needed.add(dep);
    if (r.scatter?.gather) needed.add(r.scatter.gather);
  }
  for (const rule of w.rules) {
    const runs = rule.shell !== undefined || rule.script !== undefined;
    if (!runs || rule.transform || rule.output.paths.length > 0 || needed.has(rule.name)) continue;
    if (rule.when?.trim() === 'false') continue;
    out.push(diagnostic('W019', `rule "${rule.name}" runs a command but declares no outputs and no rule depends on it`, loc.at(['rules', rule.index, 'name'], rule.name)));
  }
}
