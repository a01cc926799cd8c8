import type { CodeInfo } from '../code-info.js';

const doc = 'docs/cli.md';

/** Failures of the command line itself, before any workflow is read. */
export const cliCodes = {
  CLI001: { severity: 'error', title: 'usage error: unknown command, option or argument', hint: 'run `oxo-flow --help` or `oxo-flow <command> --help`', exit: 'usage', doc },
  CLI002: { severity: 'error', title: 'no workflow file found', hint: 'pass the file, or create one with `oxo-flow init NAME`', exit: 'usage', doc },
  CLI003: { severity: 'error', title: 'file cannot be read', exit: 'usage', doc },
  CLI004: { severity: 'error', title: 'refusing to overwrite an existing file', hint: 'pass --force to overwrite it', doc },
  CLI005: { severity: 'error', title: 'file cannot be written', doc },
  CLI010: { severity: 'error', title: 'config override is not KEY=VALUE', hint: 'write overrides as KEY=VALUE, e.g. `greeting=hi` or `chromosomes=chr1,chr2`', exit: 'usage', doc },
  CLI011: { severity: 'error', title: 'config override value has the wrong type or is not an allowed choice', exit: 'usage', doc },
  CLI012: { severity: 'error', title: 'config override names a key that [config] does not declare', exit: 'usage', doc },
  CLI013: { severity: 'error', title: 'target matches no rule and no output', exit: 'usage', doc },
  CLI014: { severity: 'error', title: '--samples names a sample that no declared source has', exit: 'usage', doc },
  CLI020: { severity: 'error', title: 'unknown template name', hint: 'run `oxo-flow template` to list the built-in templates', exit: 'usage', doc },
  CLI021: { severity: 'error', title: 'project directory exists and is not empty', hint: 'choose a new name, or empty the directory first', doc },
  CLI022: { severity: 'error', title: 'invalid project name', hint: 'use letters, digits, ".", "_" and "-", starting with a letter or digit', exit: 'usage', doc },
  CLI030: { severity: 'error', title: 'internal error (a bug in oxo-flow)', hint: 'please report it with this output; -v adds the stack trace', doc },
  CLI031: { severity: 'error', title: 'an option value is empty or malformed', exit: 'usage', doc },
  CLI035: { severity: 'error', title: 'clean was not told what to clean', hint: 'pass --state, --keep-runs N, or both', exit: 'usage', doc },
  CLI036: { severity: 'error', title: '--keep-runs needs a whole number', hint: 'e.g. `--keep-runs 20` keeps the newest 20 run records', exit: 'usage', doc },
  CLI130: { severity: 'error', title: 'interrupted', hint: 'nothing more was done after Ctrl-C', exit: 'interrupted', doc },
} as const satisfies Record<string, CodeInfo>;
