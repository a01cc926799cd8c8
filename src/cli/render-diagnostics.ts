// Human rendering of diagnostics: "file:line:col: error E005: message", then a caret excerpt of the
// source line when the file can be read, then the hint. Snippets are drawn here, never stored in messages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Style } from './style.js';
import { terminalSafe, terminalSafeLine } from './terminal-safe.js';

const MAX_EXCERPT = 100;

export function renderDiagnostics(diagnostics: readonly Diagnostic[], style: Style, cwd: string): string {
  const sources = new Map<string, string[] | null>();
  const linesOf = (file: string): string[] | null => {
    if (!sources.has(file)) {
      try {
        sources.set(file, readFileSync(path.resolve(cwd, file), 'utf8').split(/\r?\n/));
      } catch {
        sources.set(file, null);
      }
    }
    return sources.get(file) ?? null;
  };
  return diagnostics.map((d) => renderOne(d, style, cwd, linesOf)).join('\n');
}

function renderOne(d: Diagnostic, style: Style, cwd: string, linesOf: (f: string) => string[] | null): string {
  const colour = d.severity === 'error' ? style.red : d.severity === 'warning' ? style.yellow : style.cyan;
  const where = location(d, cwd);
  const rule = d.rule !== undefined ? style.dim(` [rule ${terminalSafeLine(d.rule)}]`) : '';
  const out = [`${where ? `${style.bold(where)}: ` : ''}${colour(`${d.severity} ${d.code}`)}: ${terminalSafe(d.message)}${rule}`];
  if (d.file !== undefined && d.line !== undefined) {
    const lines = linesOf(d.file);
    const text = lines?.[d.line - 1];
    if (text !== undefined) out.push(...excerpt(text, d, style));
  }
  if (d.hint) out.push(`  ${style.dim('hint:')} ${terminalSafe(d.hint)}`);
  return out.join('\n');
}

function location(d: Diagnostic, cwd: string): string {
  if (d.file === undefined) return '';
  const rel = path.isAbsolute(d.file) ? path.relative(cwd, d.file) || d.file : d.file;
  const shown = terminalSafeLine(rel.startsWith('..') ? d.file : rel);
  if (d.line === undefined) return shown;
  return `${shown}:${d.line}:${d.column ?? 1}`;
}

function excerpt(text: string, d: Diagnostic, style: Style): string[] {
  const column = Math.max(1, d.column ?? 1);
  let start = 0;
  if (column > MAX_EXCERPT - 20) start = column - (MAX_EXCERPT - 20);
  const shown = terminalSafeLine(text.slice(start, start + MAX_EXCERPT).replace(/\t/g, ' '));
  const width =
    d.endLine === d.line && d.endColumn !== undefined && d.endColumn > column ? d.endColumn - column : 1;
  const gutter = String(d.line).padStart(4);
  return [
    `${style.dim(`${gutter} |`)} ${start > 0 ? '…' : ''}${shown}`,
    `${style.dim(`${' '.repeat(gutter.length)} |`)} ${' '.repeat(column - 1 - start + (start > 0 ? 1 : 0))}${style.red('^'.repeat(Math.min(width, MAX_EXCERPT)))}`,
  ];
}
