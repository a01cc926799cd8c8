// Build small .oxoflow texts for workflow tests and run the whole pipeline (load → checks → lint).
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintWorkflow } from '../../src/workflow/lint/index.js';
import { validateWorkflowText } from '../../src/workflow/validate.js';

/** A documented workflow header, then `body`. */
export function wf(body: string, header = 'name = "t"\ndescription = "test"\nauthor = "tests"'): string {
  return `[workflow]\n${header}\n\n${body}`;
}

/** A rule with a log, a locked environment and a description, so lint stays quiet unless asked. */
export function quietRule(name: string, fields: string): string {
  return `[[rules]]\nname = "${name}"\ndescription = "d"\nlog = "logs/${name}.log"\n${fields}\n[rules.environment]\nconda = "envs/${name}.lock.yml"\n`;
}

/** What `oxo-flow lint` reports: the one validation entry point, then the lints. `sheets`: sample sheets by name. */
export function diagnose(text: string, file = 'main.oxoflow', sheets: Record<string, string> = {}): Diagnostic[] {
  const readSheet = (name: string) => (name in sheets ? { text: sheets[name]! } : { error: 'no such file' });
  const validated = validateWorkflowText(text, file, { readSheet });
  if (!validated.workflow) return validated.diagnostics;
  return [...validated.diagnostics, ...lintWorkflow(validated.workflow)];
}

export function codesOf(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}

/** A one-rule workflow that validates and lints clean: the subject of the AI review and session tests. */
export const TINY_WORKFLOW = `[workflow]
name = "tiny"
description = "one step"
author = "lab"

[[rules]]
name = "hello"
description = "write a greeting"
output = ["results/hello.txt"]
log = "logs/hello.log"
shell = "echo hello > {output} 2> {log}"
`;
