// W017 absolute input/output paths, W018 paths starting with ~ (one finding per path, the ~ one wins).
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { pathTexts } from '../checks/rule-texts.js';
import type { LintContext } from './context.js';

export function lintPathStyle({ workflow: w, loc, out }: LintContext): void {
  for (const rule of w.rules) {
    for (const t of pathTexts(rule)) {
      if (t.text.startsWith('~')) {
        out.push(diagnostic('W018', `${t.field} "${t.text}" of rule "${rule.name}" starts with ~`, loc.at(t.path, rule.name)));
      } else if (t.text.startsWith('/')) {
        out.push(diagnostic('W017', `${t.field} "${t.text}" of rule "${rule.name}" is an absolute path`, loc.at(t.path, rule.name)));
      }
    }
  }
}
