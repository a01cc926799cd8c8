// Built-in read-only tool validate_workflow: run the engine's validation (validateWorkflowText) on a TOML text and return
// its findings, so a model can check a workflow before proposing it. Nothing is written.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ToolEntry } from './types.js';

const MAX_WORKFLOW_TEXT = 512 * 1024;

function formatFinding(d: Diagnostic): string {
  const where = d.line !== undefined ? `${d.line}:${d.column ?? 1}` : '-';
  return `[${d.severity.toUpperCase()}] ${d.code} at ${where}: ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`;
}

export interface TextValidation {
  valid: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Validate a workflow given as text exactly as `oxo-flow validate` does a file: the engine's one
 * validation entry point (src/workflow/validate.ts). The one validation the model's tool and
 * `template --ai` use. Loaded lazily: `ai tools` lists the tool without paying for the engine.
 */
export async function validateWorkflowText(text: string, file = 'workflow.oxoflow', dir?: string): Promise<TextValidation> {
  const engine = await import('../../workflow/validate.js');
  const { diagnostics } = engine.validateWorkflowText(text, file, dir !== undefined ? { dir } : {});
  return { valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
}

/** One finding per line, as the model reads them. */
export function formatFindings(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map(formatFinding).join('\n');
}

export function validateWorkflowTool(): ToolEntry {
  return {
    name: 'validate_workflow',
    description: 'Validate an .oxoflow workflow given as TOML text with the oxo-flow engine; returns every error and warning with line:column.',
    inputSchema: { type: 'object', properties: { toml: { type: 'string', description: 'the complete .oxoflow TOML text' } }, required: ['toml'], additionalProperties: false },
    origin: { kind: 'builtin' },
    annotations: { readOnlyHint: true },
    gate: { builtinReadOnly: true, trustAnnotations: true },
    callable: true,
    invoke: async (args) => {
      if (typeof args.toml !== 'string') return { isError: true, text: '"toml" must be a string holding the workflow text', code: 'TOOL003' };
      if (Buffer.byteLength(args.toml) > MAX_WORKFLOW_TEXT) return { isError: true, text: `the workflow text is over ${MAX_WORKFLOW_TEXT} bytes`, code: 'TOOL003' };
      const { valid, diagnostics } = await validateWorkflowText(args.toml);
      const errors = diagnostics.filter((d) => d.severity === 'error').length;
      const head = valid ? 'valid: no errors' : `invalid: ${errors} error(s)`;
      return { isError: false, text: [head, ...diagnostics.map(formatFinding)].join('\n') };
    },
  };
}
