import type { CodeInfo } from '../code-info.js';

const doc = 'docs/report.md';

/** Run records, `oxo-flow runs` and `oxo-flow report` (REP001–REP024). */
export const reportCodes = {
  REP001: { severity: 'error', title: 'no recorded run with this id', hint: 'list the runs with `oxo-flow runs` (add --project DIR for another project directory)', doc },
  REP002: { severity: 'warning', title: 'the run record could not be written; the run went on without it', hint: 'check that .oxo-flow/runs/ in the project directory is writable', doc },
  REP003: { severity: 'error', title: 'the report file cannot be written', hint: 'choose another path with --output, or make its folder writable', doc },
  REP004: { severity: 'error', title: 'unknown report format', hint: 'use --format html or --format json', doc, exit: 'usage' },
  REP020: { severity: 'warning', title: 'the trace.tsv of an incomplete run could not be written', hint: 'its rows are in trace.jsonl beside it; make the record folder writable and run `oxo-flow runs` again', doc },
} as const satisfies Record<string, CodeInfo>;
