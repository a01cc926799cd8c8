// Lint: warnings and info about risk and style, one file per concern, each finding reported once.
// `lint` output is checkWorkflow (errors) followed by these; neither repeats the other.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { Locator } from '../checks/locate.js';
import type { Workflow } from '../model.js';
import type { Lint } from './context.js';
import { lintOrphanRules } from './orphan-rules.js';
import { lintPathStyle } from './path-style.js';
import { lintRiskyShell } from './risky-shell.js';
import { lintRuleDocs } from './rule-docs.js';
import { lintRuleEnvironment } from './rule-environment.js';
import { lintRuleResources } from './rule-resources.js';
import { lintSecrets } from './secrets.js';
import { lintUnsourcedWildcards } from './unsourced-wildcards.js';
import { lintVariablesTable } from './variables-table.js';
import { lintWorkflowMeta } from './workflow-meta.js';

const LINTS: readonly Lint[] = [
  lintWorkflowMeta, // W001 W002 W027
  lintRuleDocs, // W003 W004 W006
  lintRuleResources, // W005 W009
  lintRuleEnvironment, // W008 W016
  lintPathStyle, // W017 W018
  lintOrphanRules, // W019
  lintRiskyShell, // W023
  lintUnsourcedWildcards, // W024
  lintVariablesTable, // W026
  lintSecrets, // S008
];

/** Warnings and info findings (never errors: those come from checkWorkflow). */
export function lintWorkflow(workflow: Workflow): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ctx = { workflow, loc: new Locator(workflow), out };
  for (const lint of LINTS) lint(ctx);
  return out;
}
