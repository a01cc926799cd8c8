// Cross-field rules of the format, each a small function appending diagnostics. The loader has
// already reported E000 (TOML), E020/E024/E025 (schema), E004 (memory) and E023 (environments).
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import { checkBlockedShell } from './blocked-shell.js';
import { checkConfigRefs } from './config-refs.js';
import { checkDependsOn } from './depends-on.js';
import { Locator } from './locate.js';
import { checkOutputWildcards } from './output-wildcards.js';
import { checkParentPaths } from './parent-paths.js';
import { checkRuleShape } from './rule-shape.js';
import { checkWhenSyntax } from './when-syntax.js';
import { checkWorkflowName } from './workflow-name.js';
import { checkFillablePlaceholders } from './fillable-placeholders.js';
import { checkValueLists } from './value-lists.js';
import { checkWildcardValues } from './wildcard-values.js';
import { checkShellContexts } from './shell-contexts.js';

export { findBlockedPattern } from './blocked-shell.js';
export { sourcedWildcards } from './output-wildcards.js';
export { configKeyOf } from './config-refs.js';
export { unusableName } from './wildcard-values.js';

type Check = (w: Workflow, loc: Locator, out: Diagnostic[]) => void;

const CHECKS: readonly Check[] = [
  checkWorkflowName, // E001
  checkRuleShape, // E002
  checkOutputWildcards, // E003
  checkConfigRefs, // E005
  checkDependsOn, // E007
  checkParentPaths, // E009
  checkBlockedShell, // E011
  checkWhenSyntax, // E022
  checkWildcardValues, // E030
  checkFillablePlaceholders, // E031, E034
  checkValueLists, // E035, E036
  checkShellContexts, // E041, E042, E050 (after E031: a placeholder nothing fills is reported once)
];

/** Errors of the format that need the whole workflow (cross-field rules). */
export function checkWorkflow(workflow: Workflow): Diagnostic[] {
  const out: Diagnostic[] = [];
  const loc = new Locator(workflow);
  for (const check of CHECKS) check(workflow, loc, out);
  return out;
}
