// Build small .oxoflow texts for workflow tests and run the whole pipeline (load → checks → lint).
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { checkWorkflow } from '../../src/workflow/checks/index.js';
import { loadWorkflow } from '../../src/workflow/load/index.js';
import { lintWorkflow } from '../../src/workflow/lint/index.js';

/** A documented workflow header, then `body`. */
export function wf(body: string, header = 'name = "t"\ndescription = "test"\nauthor = "tests"'): string {
  return `[workflow]\n${header}\n\n${body}`;
}

/** A rule with a log, a locked environment and a description, so lint stays quiet unless asked. */
export function quietRule(name: string, fields: string): string {
  return `[[rules]]\nname = "${name}"\ndescription = "d"\nlog = "logs/${name}.log"\n${fields}\n[rules.environment]\nconda = "envs/${name}.lock.yml"\n`;
}

export function diagnose(text: string, file = 'main.oxoflow'): Diagnostic[] {
  const loaded = loadWorkflow(text, file);
  if (!loaded.workflow) return loaded.diagnostics;
  return [...loaded.diagnostics, ...checkWorkflow(loaded.workflow), ...lintWorkflow(loaded.workflow)];
}

export function codesOf(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}
