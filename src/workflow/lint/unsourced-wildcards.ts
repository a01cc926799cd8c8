// W024: a wildcard that no declared source fills ([[sample_groups]], [[pairs]], sample_pattern,
// scatter, transform, expand_inputs). dry-run and run stop with E021 unless --samples supplies it;
// lint says so early, once per rule and wildcard. A name only a command uses, that no source could
// ever fill, is E031 instead (dry-run could not stop on it: it decides no job's paths).
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { sourcedWildcards } from '../checks/output-wildcards.js';
import { PAIR_WILDCARDS, SAMPLE_WILDCARDS, wildcards } from '../checks/placeholders.js';
import { commandTexts, pathTexts } from '../checks/rule-texts.js';
import type { LintContext } from './context.js';

export function lintUnsourcedWildcards({ workflow: w, loc, out }: LintContext): void {
  for (const rule of w.rules) {
    const sourced = sourcedWildcards(w, rule);
    const reported = new Set<string>();
    const paths = pathTexts(rule);
    const inPaths = new Set(paths.flatMap((t) => wildcards(t.text).map((f) => f.name)));
    for (const t of [...paths, ...commandTexts(rule)]) {
      for (const f of wildcards(t.text)) {
        // A name only a command uses, and no source could fill, is E031 (cannot be filled) already.
        if (!inPaths.has(f.name) && !SAMPLE_WILDCARDS.has(f.name) && !PAIR_WILDCARDS.has(f.name)) continue;
        if (sourced.has(f.name) || reported.has(f.name)) continue;
        reported.add(f.name);
        out.push(diagnostic('W024', `{${f.name}} in rule "${rule.name}" has no declared source`, loc.inValue(t.path, f.text, rule.name)));
      }
    }
  }
}
