// The zod schemas of the format, built on first use. zod is loaded with require() (its CommonJS
// build) so that the synchronous loader can reach it on its error path without making every
// command pay for it up front.
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { defineWorkflowSchema, type WorkflowSchemas } from './schema.js';

let cached: { z: typeof Zod; schemas: WorkflowSchemas } | undefined;

function load(): { z: typeof Zod; schemas: WorkflowSchemas } {
  if (!cached) {
    const z = createRequire(import.meta.url)('zod') as typeof Zod;
    cached = { z, schemas: defineWorkflowSchema(z) };
  }
  return cached;
}

export function workflowSchemas(): WorkflowSchemas {
  return load().schemas;
}

/** JSON Schema for editors (`oxo-flow schema`), generated from the zod schema. */
export function workflowJsonSchema(): Record<string, unknown> {
  const { z, schemas } = load();
  const schema = z.toJSONSchema(schemas.workflowFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: 'oxo-flow workflow (.oxoflow)' };
}

/** The subset of the JSON Schema that the loader's fast path checks (no descriptions or defaults). */
export function workflowShape(): unknown {
  return stripDocs(workflowJsonSchema());
}

/** A JSON Schema without what only people read: the compact shape the run-time checks use (also for the AI layer's files). */
export function stripDocs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripDocs);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key === 'default' || key === '$schema' || key === 'title') continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, stripDocs(v)])) : stripDocs(value);
  }
  return out;
}
