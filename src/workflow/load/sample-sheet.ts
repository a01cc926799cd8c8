// Sample sheets: `sample_groups_file` and `pairs_file`, TSV or CSV (chosen by the extension, `.csv`
// for CSV, anything else tab-separated), first row the header. Rows become the same SampleGroup and
// Pair values as the inline [[sample_groups]] and [[pairs]] tables; columns the engine does not know
// become metadata. Every problem names the sheet and the line of the row (E039).
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Pair, SampleGroup, SampleRow } from '../model.js';

export interface SheetText {
  /** The sheet as the user wrote it in the workflow (for messages). */
  file: string;
  text: string;
}

interface Row {
  line: number;
  cells: Record<string, string>;
  /** 1-based character column where each column's cell starts on the line. */
  at: Record<string, number>;
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** The first control character of a text, as a person can read it ("NUL", "U+001B"). */
export function describeControl(text: string): string {
  const c = CONTROL.exec(text)?.[0] ?? '';
  return c === '\0' ? 'NUL' : `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Split a sheet into rows keyed by header. CSV cells may be double-quoted ("a,b", "say ""hi"""). */
function parseSheet(sheet: SheetText, required: readonly string[], diagnostics: Diagnostic[]): Row[] | undefined {
  const csv = /\.csv$/i.test(sheet.file);
  const lines = sheet.text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const fail = (line: number, message: string, hint?: string) =>
    diagnostics.push(diagnostic('E039', message, { file: sheet.file, line, column: 1, ...(hint !== undefined ? { hint } : {}) }));
  let header: string[] | undefined;
  const rows: Row[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const split = csv ? splitCsv(raw) : splitTsv(raw);
    if (split === undefined) {
      fail(i + 1, 'a quoted cell is not closed on this line', 'close the "…" quote; cells cannot span lines');
      return undefined;
    }
    const { cells, starts } = split;
    const trimmed = cells.map((c) => c.trim());
    // A NUL or other control character in a cell would reach file names and commands (a NUL cannot
    // reach a job at all): an error at its line, never a job that silently fails to start.
    const control = trimmed.findIndex((c) => CONTROL.test(c));
    if (control >= 0) {
      diagnostics.push(
        diagnostic('E043', `cell ${control + 1} of this row holds a control character (${describeControl(trimmed[control]!)})`, {
          file: sheet.file,
          line: i + 1,
          column: starts[control]! + 1,
          hint: 'remove the NUL or control character from the sheet',
        }),
      );
      continue;
    }
    if (header === undefined) {
      header = trimmed;
      const twice = header.find((h, k) => h !== '' && header!.indexOf(h) !== k);
      if (twice !== undefined) {
        fail(i + 1, `the header names the column "${twice}" twice`, 'give every column its own name');
        return undefined;
      }
      const missing = required.filter((r) => !header!.includes(r));
      if (missing.length > 0) {
        fail(i + 1, `the header has no ${missing.map((m) => `"${m}"`).join(', ')} column (it has ${header.map((h) => JSON.stringify(h)).join(', ')})`, `the first row names the columns, ${csv ? 'comma' : 'tab'}-separated`);
        return undefined;
      }
      continue;
    }
    if (trimmed.length !== header.length) {
      fail(i + 1, `the row has ${trimmed.length} cell${trimmed.length === 1 ? '' : 's'}, the header ${header.length}`, `separate cells with ${csv ? 'commas (quote a cell that holds one)' : 'one tab each'}`);
      continue;
    }
    const record: Record<string, string> = {};
    const at: Record<string, number> = {};
    header.forEach((h, k) => {
      record[h] = trimmed[k]!;
      at[h] = starts[k]! + 1;
    });
    rows.push({ line: i + 1, cells: record, at });
  }
  if (header === undefined) {
    fail(1, 'the sheet is empty', `the first row names the columns: ${required.join(', ')}`);
    return undefined;
  }
  return rows;
}

interface Split {
  cells: string[];
  /** 0-based offset of each cell on the line. */
  starts: number[];
}

function splitTsv(line: string): Split {
  const cells = line.split('\t');
  const starts: number[] = [];
  let at = 0;
  for (const c of cells) {
    starts.push(at);
    at += c.length + 1;
  }
  return { cells, starts };
}

/** One CSV line (RFC 4180 quoting, no line breaks inside cells); undefined when a quote is left open. */
function splitCsv(line: string): Split | undefined {
  const cells: string[] = [];
  const starts: number[] = [0];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === ',') {
      cells.push(cell);
      starts.push(i + 1);
      cell = '';
    } else cell += ch;
  }
  if (quoted) return undefined;
  cells.push(cell);
  return { cells, starts };
}

function metadata(cells: Record<string, string>, known: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(cells)) if (!known.has(k) && k !== '') out[k] = v;
  return out;
}

const GROUP_COLUMNS: ReadonlySet<string> = new Set(['name', 'samples']);

/** `name`, `samples` (a list split on commas, semicolons or spaces), then metadata columns. */
export function readSampleGroupsSheet(sheet: SheetText, diagnostics: Diagnostic[]): SampleGroup[] {
  const rows = parseSheet(sheet, ['name', 'samples'], diagnostics);
  if (rows === undefined) return [];
  const groups: SampleGroup[] = [];
  for (const row of rows) {
    const name = row.cells.name!;
    const samples = row.cells.samples!.split(/[,;\s]+/).filter((s) => s !== '');
    if (name === '' || samples.length === 0) {
      diagnostics.push(
        diagnostic('E039', `${name === '' ? 'the group has no name' : `group "${name}" lists no samples`}`, {
          file: sheet.file,
          line: row.line,
          column: 1,
          hint: 'each row is one group: a name and its samples, comma-separated',
        }),
      );
      continue;
    }
    groups.push({ name, samples, metadata: metadata(row.cells, GROUP_COLUMNS), row: { file: sheet.file, line: row.line } });
  }
  return groups;
}

const PAIR_COLUMNS: ReadonlySet<string> = new Set(['pair_id', 'experiment', 'tumor', 'control', 'normal', 'experiment_type']);

/** `pair_id`, `experiment` (or `tumor`), optional `control` (or `normal`) and `experiment_type`. */
export function readPairsSheet(sheet: SheetText, diagnostics: Diagnostic[]): Pair[] {
  const rows = parseSheet(sheet, ['pair_id'], diagnostics);
  if (rows === undefined) return [];
  const pairs: Pair[] = [];
  for (const row of rows) {
    const c = row.cells;
    const experiment = c.experiment || c.tumor || '';
    const bad = c.pair_id === '' ? 'the row has no pair_id' : experiment === '' ? `pair "${c.pair_id}" has no experiment (or tumor)` : undefined;
    if (bad !== undefined) {
      diagnostics.push(diagnostic('E039', `${bad}`, { file: sheet.file, line: row.line, column: 1, hint: 'each row is one pair: pair_id, experiment, control' }));
      continue;
    }
    const pair: Pair = { pairId: c.pair_id!, experiment, metadata: metadata(c, PAIR_COLUMNS), row: { file: sheet.file, line: row.line } };
    const control = c.control || c.normal;
    if (control) pair.control = control;
    if (c.experiment_type) pair.experimentType = c.experiment_type;
    pairs.push(pair);
  }
  return pairs;
}

/** Columns of a per-sample sheet that are no metadata: `sample` and `group`. */
const SAMPLE_COLUMNS: ReadonlySet<string> = new Set(['sample', 'group']);

/** The group of a per-sample sheet without a `group` column. */
export const SHEET_GROUP = 'all';

/**
 * A per-sample sheet (`samples_file`, the nf-core `sample,fastq_1,fastq_2` shape): one row per
 * sample, a required `sample` column, an optional `group` column (without one every sample is in the
 * group "all"), and any other column as the sample's own values, `{sample.COLUMN}`. Rows become
 * sample groups in order of first appearance, so the rest of the engine sees one sample model.
 */
export function readSamplesSheet(sheet: SheetText, diagnostics: Diagnostic[]): { groups: SampleGroup[]; columns: string[] } {
  const rows = parseSheet(sheet, ['sample'], diagnostics);
  if (rows === undefined) return { groups: [], columns: [] };
  const columns = rows.length > 0 ? Object.keys(rows[0]!.cells).filter((c) => c !== '' && !SAMPLE_COLUMNS.has(c)) : headerColumns(sheet);
  const byName = new Map<string, SampleGroup>();
  const seen = new Map<string, number>();
  const fail = (row: { line: number; at: Record<string, number> }, column: string, message: string, hint: string) =>
    diagnostics.push(diagnostic('E039', message, { file: sheet.file, line: row.line, column: row.at[column] ?? 1, hint }));
  for (const row of rows) {
    const sample = row.cells.sample!;
    if (sample === '') {
      fail(row, 'sample', 'the row has no sample name (its sample cell is empty)', 'each row is one sample: write its name in the sample column');
      continue;
    }
    const first = seen.get(sample);
    if (first !== undefined) {
      fail(row, 'sample', `sample "${sample}" is listed twice (first at line ${first})`, 'each sample has one row; merge the rows, or give the sample another name');
      continue;
    }
    seen.set(sample, row.line);
    const hasGroup = 'group' in row.cells;
    const group = hasGroup ? row.cells.group! : SHEET_GROUP;
    if (group === '') {
      fail(row, 'group', `sample "${sample}" has no group (its group cell is empty)`, 'give every row a group, or leave the group column out (every sample is then in the group "all")');
      continue;
    }
    const cells: Record<string, string> = {};
    for (const c of columns) cells[c] = row.cells[c] ?? '';
    const sampleRow: SampleRow = { file: sheet.file, line: row.line, cells, at: row.at };
    let g = byName.get(group);
    if (g === undefined) {
      g = { name: group, samples: [], metadata: {}, row: { file: sheet.file, line: row.line }, sampleRows: {} };
      byName.set(group, g);
    }
    g.samples.push(sample);
    g.sampleRows![sample] = sampleRow;
  }
  return { groups: [...byName.values()], columns };
}

/** The metadata columns of a sheet with a header and no rows. */
function headerColumns(sheet: SheetText): string[] {
  const first = sheet.text.replace(/^\uFEFF/, '').split(/\r?\n/).find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  const cells = /\.csv$/i.test(sheet.file) ? (splitCsv(first)?.cells ?? []) : first.split('\t');
  return cells.map((c) => c.trim()).filter((c) => c !== '' && !SAMPLE_COLUMNS.has(c));
}
