// W003 rule without description, W004 command without a log file, W006 "-" in a rule name.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintContext } from './context.js';

export function lintRuleDocs({ workflow: w, loc, out }: LintContext): void {
  for (const rule of w.rules) {
    // Located only for a finding: positions cost a scan of the file.
    const at = () => loc.at(['rules', rule.index, 'name'], rule.name);
    if (!rule.description?.trim()) out.push(diagnostic('W003', `rule "${rule.name}" has no description`, at()));
    if ((rule.shell !== undefined || rule.transform?.map !== undefined) && rule.log === undefined) {
      out.push(diagnostic('W004', `rule "${rule.name}" runs a command but sets no log file`, at()));
    }
    if (rule.name.includes('-')) out.push(diagnostic('W006', `rule name "${rule.name}" contains "-"`, { ...at(), hint: `e.g. "${rule.name.replace(/-/g, '_')}"` }));
  }
}
