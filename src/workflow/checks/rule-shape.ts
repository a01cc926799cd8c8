// E002: a rule that cannot run as written: bad or duplicate name, outputs with nothing to produce
// them, zero threads, negative retries, or two fan-out mechanisms at once.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Rule, Workflow } from '../model.js';
import type { Locator } from './locate.js';

const RULE_NAME = /^[A-Za-z0-9_:-]+$/;

function checkRule(rule: Rule, loc: Locator, out: Diagnostic[]): void {
  const base = ['rules', rule.index] as const;
  const name = rule.name;
  if (!RULE_NAME.test(name)) {
    out.push(
      diagnostic('E002', name === '' ? 'rule name is empty' : `rule name "${name}" may only contain letters, digits, _, : and -`, {
        ...loc.at([...base, 'name'], name),
        hint: 'use a name such as "align_reads"',
      }),
    );
  }
  const runs = rule.shell !== undefined || rule.script !== undefined || rule.transform?.map !== undefined;
  if (rule.output.paths.length > 0 && !runs) {
    out.push(
      diagnostic('E002', `rule "${name}" declares outputs but has no shell, script or transform.map to produce them`, {
        ...loc.at([...base, 'output'], name),
        hint: 'add shell = "..." (or script = "...")',
      }),
    );
  }
  // rule.threads is the effective value; when it differs from resources.threads it was set on the rule.
  const { threads } = rule;
  const resourceThreads = rule.resources.threads;
  if (resourceThreads !== undefined && resourceThreads < 1) {
    out.push(diagnostic('E002', `rule "${name}": resources.threads must be at least 1, got ${resourceThreads}`, loc.at([...base, 'resources', 'threads'], name)));
  }
  if (threads !== undefined && threads < 1 && threads !== resourceThreads) {
    out.push(diagnostic('E002', `rule "${name}": threads must be at least 1, got ${threads}`, loc.at([...base, 'threads'], name)));
  }
  if (rule.retries < 0) {
    out.push(diagnostic('E002', `rule "${name}": retries must be 0 or more, got ${rule.retries}`, loc.at([...base, 'retries'], name)));
  }
  if (rule.scatter && rule.transform) {
    out.push(
      diagnostic('E002', `rule "${name}" has both scatter and transform; use one fan-out per rule`, {
        ...loc.at([...base, 'transform'], name),
        hint: 'transform covers scatter: split → map → combine',
      }),
    );
  }
  if (rule.transform && rule.shell !== undefined) {
    out.push(
      diagnostic('E002', `rule "${name}" has both shell and transform; the transform's map is the command`, {
        ...loc.at([...base, 'shell'], name),
        hint: 'move the command into transform.map',
      }),
    );
  }
}

export function checkRuleShape(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  const seen = new Map<string, number>();
  for (const rule of w.rules) {
    checkRule(rule, loc, out);
    const first = seen.get(rule.name);
    if (first === undefined) seen.set(rule.name, rule.index);
    else {
      const firstLine = loc.at(['rules', first, 'name']).line;
      out.push(
        diagnostic('E002', `rule name "${rule.name}" is used twice${firstLine ? ` (first on line ${firstLine})` : ''}`, {
          ...loc.at(['rules', rule.index, 'name'], rule.name),
          hint: 'give each rule a unique name',
        }),
      );
    }
  }
  if (w.defaults.threads !== undefined && w.defaults.threads < 1) {
    out.push(diagnostic('E002', `[defaults] threads must be at least 1, got ${w.defaults.threads}`, loc.at(['defaults', 'threads'])));
  }
}
