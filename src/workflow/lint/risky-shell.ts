// W023: shell constructs that are legal and sometimes needed but deserve a second look: eval, rm -rf,
// chmod 777. Commands already blocked (E011) are not reported again.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { findBlockedPattern } from '../checks/blocked-shell.js';
import { commandTexts } from '../checks/rule-texts.js';
import type { LintContext } from './context.js';

const RISKY: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /(?:^|[\s;&|(])eval\s/, why: 'eval runs text as code' },
  { pattern: /\brm\s+(?:-{1,2}[\w-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*[fF][a-zA-Z]*\b|\brm\s+(?:-{1,2}[\w-]+\s+)*-[a-zA-Z]*[fF][a-zA-Z]*[rR][a-zA-Z]*\b/, why: 'rm -rf deletes without asking' },
  { pattern: /\bchmod\s+(?:-{1,2}[\w-]+\s+)*[0-7]?777\b/, why: 'chmod 777 makes files world-writable' },
];

export function lintRiskyShell({ workflow: w, loc, out }: LintContext): void {
  for (const rule of w.rules) {
    for (const t of commandTexts(rule)) {
      if (findBlockedPattern(t.text)) continue;
      for (const r of RISKY) {
        const m = r.pattern.exec(t.text);
        if (!m) continue;
        out.push(diagnostic('W023', `rule "${rule.name}": \`${m[0].trim()}\` (${r.why})`, loc.inValue(t.path, m[0].trim(), rule.name)));
      }
    }
  }
}
