// W005 (> 8 threads) and W009 (> 32 threads) without memory; a rule gets one of the two, never both.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintContext } from './context.js';

export function lintRuleResources({ workflow: w, loc, out }: LintContext): void {
  for (const rule of w.rules) {
    const threads = rule.threads ?? w.defaults.threads;
    const hasMemory = rule.memoryMb !== undefined || rule.memoryText !== undefined || w.defaults.memoryText !== undefined;
    if (threads === undefined || hasMemory || threads <= 8) continue;
    const path =
      rule.threads === undefined
        ? ['defaults', 'threads']
        : rule.threads === rule.resources.threads
          ? ['rules', rule.index, 'resources', 'threads']
          : ['rules', rule.index, 'threads'];
    const where = loc.at(path, rule.name);
    const code = threads > 32 ? 'W009' : 'W005';
    out.push(diagnostic(code, `rule "${rule.name}" asks for ${threads} threads but sets no memory`, where));
  }
}
