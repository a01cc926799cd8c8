import type { Severity } from './diagnostic.js';

export interface CodeInfo {
  severity: Severity;
  /** One line: what the code means. */
  title: string;
  /** Default advice when the finding itself has none. */
  hint?: string;
  /** Page in docs/ that explains the code (anchor is the code in lower case). */
  doc: string;
  /**
   * How a command ends when this error is among its findings: `usage` (exit 2: a bad command line or
   * an input that cannot be read), `interrupted` (exit 130). Without it an error means `failed` (exit 1).
   */
  exit?: ExitClass;
}

export type ExitClass = 'failed' | 'usage' | 'interrupted';
