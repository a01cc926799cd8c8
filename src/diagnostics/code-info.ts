import type { Severity } from './diagnostic.js';

export interface CodeInfo {
  severity: Severity;
  /** One line: what the code means. */
  title: string;
  /** Default advice when the finding itself has none. */
  hint?: string;
  /** Page in docs/ that explains the code (anchor is the code in lower case). */
  doc: string;
}
