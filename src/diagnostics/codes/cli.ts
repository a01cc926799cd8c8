import type { CodeInfo } from '../code-info.js';

const doc = 'docs/cli.md';

/** Failures of the command line itself, before any workflow is read. */
export const cliCodes = {
  CLI001: { severity: 'error', title: 'usage error: unknown command, option or argument', hint: 'run `oxo-flow --help` or `oxo-flow <command> --help`', doc },
  CLI002: { severity: 'error', title: 'no workflow file found', hint: 'pass the file, or create one with `oxo-flow init NAME`', doc },
  CLI003: { severity: 'error', title: 'file cannot be read', doc },
  CLI004: { severity: 'error', title: 'refusing to overwrite an existing file', hint: 'pass --force to overwrite it', doc },
  CLI005: { severity: 'error', title: 'file cannot be written', doc },
  CLI130: { severity: 'error', title: 'interrupted', doc },
} as const satisfies Record<string, CodeInfo>;
