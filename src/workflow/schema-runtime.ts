// The zod schemas of the format, built on first use. zod is loaded with require() (its CommonJS
// build) so that the synchronous loader can reach it on its error path without making every
// command pay for it up front.
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { unimplementedKeywords } from './load/shape-check.js';
import { defineWorkflowSchema, type WorkflowSchemas } from './schema.js';

let zod: typeof Zod | undefined;
let schemas: WorkflowSchemas | undefined;

/** zod itself, required on first use (also by the AI layer's config schemas). */
export function requireZod(): typeof Zod {
  return (zod ??= createRequire(import.meta.url)('zod') as typeof Zod);
}

export function workflowSchemas(): WorkflowSchemas {
  return (schemas ??= defineWorkflowSchema(requireZod()));
}

/** A schema's input JSON Schema, as zod writes it. */
function jsonSchemaOf(schema: Zod.ZodType): Record<string, unknown> {
  return requireZod().toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/**
 * The compact shape the run-time checks use (load/shape-check.ts): the JSON Schema without what only
 * people read. Refuses (throws, so `npm run gen:docs` fails) a schema that uses a keyword the check
 * does not implement: the check would silently accept data that zod rejects.
 */
export function shapeOf(schema: Zod.ZodType): unknown {
  const shape = stripDocs(jsonSchemaOf(schema));
  const unknown = unimplementedKeywords(shape);
  if (unknown.length > 0)
    throw new Error(`the shape check (src/workflow/load/shape-check.ts) does not implement ${unknown.join(', ')}: implement the keyword there and add it to SHAPE_KEYWORDS, or express the rule outside the zod schema`);
  return shape;
}

/** JSON Schema for editors (`oxo-flow schema`), generated from the zod schema. */
export function workflowJsonSchema(): Record<string, unknown> {
  return { ...jsonSchemaOf(workflowSchemas().workflowFileSchema), title: 'oxo-flow workflow (.oxoflow)' };
}

/** The subset of the JSON Schema that the loader's fast path checks (no descriptions or defaults). */
export function workflowShape(): unknown {
  return shapeOf(workflowSchemas().workflowFileSchema);
}

function stripDocs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripDocs);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key === 'default' || key === '$schema' || key === 'title') continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, stripDocs(v)])) : stripDocs(value);
  }
  return out;
}
