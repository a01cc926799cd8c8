// E041, E042 and E050: each rule command is parsed by a real shell parser (render/shell-contexts.ts). A
// command that does not parse, and a placeholder where no value could be given to the shell as data
// (inside '…', a quoted here-document, arithmetic, a case pattern, the argument of eval or sh -c),
// are errors at the placeholder's own line and column, with the reason and what to write instead.
// An option list (an array in params) where the shell takes one word is E050.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Rule, Workflow } from '../model.js';
import { analyseShell, type SlotContext } from '../render/shell-contexts.js';
import { compileTemplate, type Template, type TemplateRef } from '../render/template.js';
import type { Locator } from './locate.js';
import { commandTexts } from './rule-texts.js';

export function checkShellContexts(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  for (const rule of w.rules) {
    // A placeholder that cannot be filled at all (E031) stays as written: it needs no second finding.
    const unfillable = new Set(out.filter((d) => d.code === 'E031' && d.rule === rule.name).map((d) => d.message.split(' ')[0]));
    for (const t of commandTexts(rule)) {
      const template = compileTemplate(t.text);
      const analysis = analyseShell(t.text, template);
      const what = t.field === 'shell' ? 'shell' : t.field === 'map' ? 'transform.map' : 'transform.combine.shell';
      if (analysis.syntaxError !== undefined) {
        const e = analysis.syntaxError;
        out.push(
          diagnostic('E042', `${what} of rule "${rule.name}" is not valid shell: ${e.message} (line ${e.line}, column ${e.column} of the command)`, {
            ...loc.atOffset(t.path, t.text, e.at, rule.name),
          }),
        );
        continue;
      }
      checkOptionLists(rule, template, analysis.contexts, (raw, where, at) => {
        out.push(
          diagnostic('E050', `${raw} in ${what} of rule "${rule.name}" is an option list (an array in params), but it is ${where}, where it can only be one word`, {
            ...loc.inValue(t.path, raw, rule.name, countBefore(t.text, raw, at)),
            hint: `put ${raw} where a command takes arguments (\`tool ${raw} …\`: one argument per element), or make the value one string if the command wants one word`,
          }),
        );
      });
      for (const r of analysis.refused) {
        const occurrence = countBefore(t.text, r.raw, r.at);
        if (unfillable.has(r.raw)) continue;
        out.push(
          diagnostic('E041', `${r.raw} in ${what} of rule "${rule.name}" cannot be given to the shell as data: ${r.why}`, {
            ...loc.inValue(t.path, r.raw, rule.name, occurrence),
            hint: r.hint,
          }),
        );
      }
    }
  }
}

const ONE_WORD: Record<string, string> = { quoted: 'inside "…" or a here-document', word: 'a word by itself (an assignment value, a redirection target, a test operand)' };

/**
 * E050: an array in params is an option list, each element its own argument. Where the shell takes
 * one word, its elements could only be joined, which is never what a list of options means.
 */
function checkOptionLists(rule: Rule, template: Template, contexts: readonly (SlotContext | undefined)[], report: (raw: string, where: string, at: number) => void): void {
  const seen = new Set<string>();
  let k = -1;
  for (const part of template.parts) {
    if (typeof part === 'string') continue;
    k += 1;
    const where = ONE_WORD[contexts[k] ?? ''];
    if (where === undefined || !isOptionList(rule, part) || seen.has(part.raw)) continue;
    seen.add(part.raw);
    report(part.raw, where, part.at);
  }
}

function isOptionList(rule: Rule, part: TemplateRef): boolean {
  return part.ref.kind === 'params' && Array.isArray(rule.params[part.ref.key]);
}

/** How many times `needle` occurs in `text` before offset `at`. */
function countBefore(text: string, needle: string, at: number): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0 && i < at; i = text.indexOf(needle, i + needle.length)) n += 1;
  return n;
}
