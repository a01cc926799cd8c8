// W024: a wildcard that no declared source fills ([[sample_groups]], [[pairs]], sample_pattern,
// scatter, transform, expand_inputs). dry-run and run stop with E021 unless --samples supplies it;
// lint says so early, once per rule and wildcard.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { sourcedWildcards } from '../checks/output-wildcards.js';
import { wildcards } from '../checks/placeholders.js';
import { commandTexts, pathTexts } from '../checks/rule-texts.js';
import type { LintContext } from './context.js';

export function lintUnsourcedWildcards({ workflow: w, loc, out }: LintContext): void {
  for (const rule of w.rules) {
    const sourced = sourcedWildcards(w, rule);
    const reported = new Set<string>();
    for (const t of [...pathTexts(rule), ...commandTexts(rule)]) {
      for (const f of wildcards(t.text)) {
        if (sourced.has(f.name) || reported.has(f.name)) continue;
        reported.add(f.name);
        out.push(diagnostic('W024', `{${f.name}} in rule "${rule.name}" has no declared source`, loc.inValue(t.path, f.text, rule.name)));
      }
    }
  }
}
