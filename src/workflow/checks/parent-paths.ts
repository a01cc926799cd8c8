// E009: a `..` segment in an input, output or log path escapes the project directory.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import type { Locator } from './locate.js';
import { allTexts } from './rule-texts.js';

const PARENT_SEGMENT = /(^|[/\\])\.\.([/\\]|$)/;

export function checkParentPaths(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  for (const rule of w.rules) {
    for (const t of allTexts(rule)) {
      if (t.field !== 'input' && t.field !== 'output' && t.field !== 'log' && t.field !== 'expand_inputs') continue;
      if (!PARENT_SEGMENT.test(t.text)) continue;
      const what = t.field === 'expand_inputs' ? 'expand_inputs pattern' : t.field;
      out.push(diagnostic('E009', `${what} ${JSON.stringify(t.text)} of rule "${rule.name}" contains "..", which leaves the project directory`, loc.inValue(t.path, '..', rule.name)));
    }
  }
}
