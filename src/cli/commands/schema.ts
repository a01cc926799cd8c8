// `oxo-flow schema`: the JSON Schema of .oxoflow files, generated from the zod schema the loader uses.
import { workflowJsonSchema } from '../../workflow/schema-runtime.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';

export async function schema(_opts: Record<string, never>, ctx: CliContext): Promise<CommandResult> {
  const jsonSchema = workflowJsonSchema();
  // With --json the schema travels inside the standard envelope; otherwise it is the stdout product.
  if (ctx.json) return { outcome: 'ok', json: { schema: jsonSchema } };
  return { outcome: 'ok', json: {}, stdout: `${JSON.stringify(jsonSchema, null, 2)}\n` };
}
