// E030: values that become parts of file names (sample and group names, pair members, scatter and
// split values) must be usable as one: no "/", no control character (NUL, newline, tab, escape), no
// leading "-", not ".", ".." or "~". Declared values (lists, sheets) are checked here; --samples,
// names found by sample_pattern and values_from values are checked by the expansion pipeline
// (expand/expand-workflow.ts, expand/dimensions.ts, expand/expand-jobs.ts) with the same function.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KeyPath, Workflow } from '../model.js';
import type { Locator, Where } from './locate.js';

/** Why a value cannot be part of a file name, or undefined when it can. */
export function unusableName(value: string): string | undefined {
  if (value === '') return 'it is empty';
  if (value === '.' || value === '..') return `"${value}" names a directory, not a file`;
  if (value === '~') return '"~" reads as the home directory';
  if (value.includes('/')) return 'it contains "/"';
  if (value.includes('\0')) return 'it contains a NUL character';
  if (value.includes('\n') || value.includes('\r')) return 'it contains a line break';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'it contains a control character';
  if (value.startsWith('-')) return 'it starts with "-", which commands read as an option';
  return undefined;
}

/** The diagnostic for one unusable value (shared with the pipeline). */
export function unusableNameDiagnostic(what: string, value: string, why: string, where: Where): Diagnostic {
  return diagnostic('E030', `${what} ${JSON.stringify(value)} cannot be used in file names: ${why}`, where);
}

export function checkWildcardValues(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  const check = (what: string, value: string | undefined, where: () => Where) => {
    if (value === undefined) return;
    const why = unusableName(value);
    if (why !== undefined) out.push(unusableNameDiagnostic(what, value, why, where()));
  };
  const sheetOr = (row: { file: string; line: number } | undefined, path: KeyPath) => () => (row ? { file: row.file, line: row.line, column: 1 } : loc.at(path));
  w.sampleGroups.forEach((g, gi) => {
    const first = g.sampleRows?.[g.samples[0] ?? ''];
    check('group name', g.name, first && 'group' in first.at ? () => ({ file: first.file, line: first.line, column: first.at.group ?? 1 }) : sheetOr(g.row, ['sample_groups', gi, 'name']));
    g.samples.forEach((s, si) => {
      const row = g.sampleRows?.[s];
      check('sample name', s, row ? () => ({ file: row.file, line: row.line, column: row.at.sample ?? 1 }) : sheetOr(g.row, ['sample_groups', gi, 'samples', si]));
    });
  });
  w.pairs.forEach((p, pi) => {
    check('pair_id', p.pairId, sheetOr(p.row, ['pairs', pi, 'pair_id']));
    check('experiment', p.experiment || undefined, sheetOr(p.row, ['pairs', pi]));
    check('control', p.control, sheetOr(p.row, ['pairs', pi]));
    check('experiment_type', p.experimentType, sheetOr(p.row, ['pairs', pi, 'experiment_type']));
  });
  for (const rule of w.rules) {
    const base = ['rules', rule.index] as const;
    rule.scatter?.values?.forEach((v, i) => check(`scatter value of rule "${rule.name}"`, v, () => loc.at([...base, 'scatter', 'values', i], rule.name)));
    rule.transform?.split.values?.forEach((v, i) =>
      check(`transform.split value of rule "${rule.name}"`, v, () => loc.at([...base, 'transform', 'split', 'values', i], rule.name)),
    );
  }
}
