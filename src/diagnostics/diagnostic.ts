// The one shape every problem takes, from the TOML loader to the MCP client.
import { codeInfo, type Code } from './registry.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  code: Code;
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  rule?: string;
  hint?: string;
}

export interface Location {
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

/** Build a diagnostic; its severity and default hint come from the registry. */
export function diagnostic(
  code: Code,
  message: string,
  where: Location & { rule?: string; hint?: string; severity?: Severity } = {},
): Diagnostic {
  const info = codeInfo(code);
  const d: Diagnostic = { code, severity: where.severity ?? info.severity, message };
  if (where.file !== undefined) d.file = where.file;
  if (where.line !== undefined) d.line = where.line;
  if (where.column !== undefined) d.column = where.column;
  if (where.endLine !== undefined) d.endLine = where.endLine;
  if (where.endColumn !== undefined) d.endColumn = where.endColumn;
  if (where.rule !== undefined) d.rule = where.rule;
  const hint = where.hint ?? info.hint;
  if (hint !== undefined) d.hint = hint;
  return d;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity] += 1;
  return counts;
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Code-unit order: the same on every machine and locale (and no ICU collator to load). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Stable order for output: file, line, column, then severity and code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compareText(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      severityRank[a.severity] - severityRank[b.severity] ||
      compareText(a.code, b.code),
  );
}
