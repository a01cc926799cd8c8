// E022: a `when` that does not parse. The reference engine treats such text as true; we refuse it.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import { parseWhen } from '../when.js';
import type { Locator } from './locate.js';

export function checkWhenSyntax(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  for (const rule of w.rules) {
    if (rule.when === undefined) continue;
    const parsed = parseWhen(rule.when);
    if (parsed.ok) continue;
    const path = ['rules', rule.index, 'when'];
    // Point into the expression when its text appears verbatim in the file (no escapes).
    const start = loc.inValue(path, rule.when, rule.name);
    const where = start.line !== undefined && start.column !== undefined && !rule.when.includes('\n') && loc.at(path).column !== start.column
      ? { ...start, column: start.column + parsed.column - 1 }
      : loc.at(path, rule.name);
    out.push(
      diagnostic('E022', `when of rule "${rule.name}" does not parse: ${parsed.message}`, {
        ...where,
        hint: 'conditions use true, false, !, &&, ||, ( ), config.KEY, config.KEY == "value" (also != < <= > >=) and file_exists("path")',
      }),
    );
  }
}
