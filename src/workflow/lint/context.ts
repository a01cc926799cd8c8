// What every lint receives: the workflow, one locator (one line index) and the list to append to.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Locator } from '../checks/locate.js';
import type { Workflow } from '../model.js';

export interface LintContext {
  workflow: Workflow;
  loc: Locator;
  out: Diagnostic[];
}

export type Lint = (ctx: LintContext) => void;
