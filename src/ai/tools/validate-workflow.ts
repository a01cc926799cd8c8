// Built-in read-only tool validate_workflow: run the engine's loader and checks on a TOML text and return
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
      // Loaded on first use: `ai tools` lists this tool without paying for the engine.
      const [{ loadWorkflow }, { checkWorkflow }] = await Promise.all([import('../../workflow/load/index.js'), import('../../workflow/checks/index.js')]);
      const result = loadWorkflow(args.toml, 'workflow.oxoflow');
      // Cross-field rules need a loaded workflow; without one, the loader's findings are the answer.
      const diagnostics = result.workflow !== undefined ? [...result.diagnostics, ...checkWorkflow(result.workflow)] : result.diagnostics;
      const errors = diagnostics.filter((d) => d.severity === 'error').length;
      const head = errors === 0 && result.workflow !== undefined ? 'valid: no errors' : `invalid: ${errors} error(s)`;
      return { isError: false, text: [head, ...diagnostics.map(formatFinding)].join('\n') };
    },
  };
}
