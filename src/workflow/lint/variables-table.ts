// W026: `[variables]` (written by some editors) is accepted but means nothing to the engine.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintContext } from './context.js';

export function lintVariablesTable({ workflow: w, out }: LintContext): void {
  // Top-level keys have no ancestor to fall back to, so a position means the table is in the file.
  const pos = w.positions.locate(['variables']);
  if (!pos) return;
  out.push(diagnostic('W026', '[variables] is ignored: it is not a sample source and fills no wildcard', { file: w.file, line: pos.line, column: pos.column }));
}
