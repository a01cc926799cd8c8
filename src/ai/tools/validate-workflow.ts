// Built-in read-only tool validate_workflow: run the engine's validation (validateWorkflowText) on a TOML text and return
// its findings, so a model can check a workflow before proposing it. Nothing is written.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ToolEntry } from './types.js';

const MAX_WORKFLOW_TEXT = 512 * 1024;

function formatFinding(d: Diagnostic): string {
  const where = d.line !== undefined ? `${d.line}:${d.column ?? 1}` : '-';
  return `[${d.severity.toUpperCase()}] ${d.code} at ${where}: ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`;
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
      // Loaded on first use: `ai tools` lists this tool without paying for the engine. The same entry
      // point as `oxo-flow validate`, so both report the same problems (cycles included).
      const { validateWorkflowText } = await import('../../workflow/validate.js');
      const result = validateWorkflowText(args.toml, 'workflow.oxoflow');
      const diagnostics = result.diagnostics;
      const errors = diagnostics.filter((d) => d.severity === 'error').length;
      const head = errors === 0 && result.workflow !== undefined ? 'valid: no errors' : `invalid: ${errors} error(s)`;
      return { isError: false, text: [head, ...diagnostics.map(formatFinding)].join('\n') };
    },
  };
}
