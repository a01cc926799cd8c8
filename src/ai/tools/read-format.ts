// Built-in read-only tool read_format: the .oxoflow format as oxo-flow itself defines it, for a model
// that drafts workflows. "schema" returns what `oxo-flow schema` prints (the JSON Schema the loader
// checks against); a template name returns that built-in template's text, a complete workflow that
// validates. Nothing is read from outside the package.
import { readFileSync } from 'node:fs';
import { findTemplate, templateFileUrl, templateNames } from '../../workflow/templates/index.js';
import type { ToolEntry, ToolOutput } from './types.js';

function readFormat(what: string): Promise<ToolOutput> | ToolOutput {
  if (what === 'schema') {
    return import('../../workflow/schema-runtime.js').then(({ workflowJsonSchema }) => ({ isError: false, text: JSON.stringify(workflowJsonSchema()) }));
  }
  const info = findTemplate(what);
  if (info === undefined) return { isError: true, text: `unknown template ${JSON.stringify(what)}; give "schema" or one of: ${templateNames().join(', ')}`, code: 'TOOL003' };
  try {
    return { isError: false, text: readFileSync(templateFileUrl(info.name), 'utf8') };
  } catch (err) {
    return { isError: true, text: `cannot read the built-in template ${info.name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, code: 'TOOL003' };
  }
}

export function readFormatTool(): ToolEntry {
  return {
    name: 'read_format',
    description:
      `The .oxoflow format: "schema" gives the JSON Schema of a workflow file (what \`oxo-flow schema\` prints); a template name gives a complete built-in workflow to learn from (${templateNames().join(', ')}).`,
    inputSchema: {
      type: 'object',
      properties: { what: { type: 'string', description: '"schema", or a built-in template name such as sample-fanout' } },
      required: ['what'],
      additionalProperties: false,
    },
    origin: { kind: 'builtin' },
    annotations: { readOnlyHint: true },
    gate: { builtinReadOnly: true, trustAnnotations: true },
    callable: true,
    invoke: async (args) => {
      if (typeof args.what !== 'string' || args.what.trim() === '') return { isError: true, text: '"what" must be "schema" or a template name', code: 'TOOL003' };
      return readFormat(args.what.trim());
    },
  };
}
