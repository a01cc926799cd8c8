// The shape generator (in-process: shapeOf, which `npm run gen:docs` runs through
// scripts/gen-codes-doc.mjs) refuses a zod schema whose JSON Schema uses a keyword the compiled shape
// check does not implement, naming where; the schemas of the project use none.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHAPE_KEYWORDS, unimplementedKeywords } from '../../src/workflow/load/shape-check.js';
import { requireZod, shapeOf, workflowShape } from '../../src/workflow/schema-runtime.js';
import { aiConfigShapes } from '../../src/ai/config-schemas.js';

const z = requireZod();

describe('shape generation', () => {
  it.each([
    ['minLength', () => z.object({ name: z.string().min(1) })],
    ['maxLength', () => z.object({ name: z.string().max(8) })],
    ['pattern', () => z.object({ name: z.string().regex(/^[a-z]+$/) })],
    ['maxItems', () => z.object({ list: z.array(z.string()).max(3) })],
    ['minItems', () => z.object({ list: z.array(z.string()).min(1) })],
    ['format', () => z.object({ url: z.url() })],
  ])('refuses a schema that uses %s, naming the place', (keyword, schema) => {
    expect(() => shapeOf(schema())).toThrow(new RegExp(`#/properties/\\w+: ${keyword}\\b.*implement`));
  });

  it('accepts the project’s own schemas (the workflow format and the four AI files)', () => {
    expect(unimplementedKeywords(workflowShape())).toEqual([]);
    for (const shape of Object.values(aiConfigShapes())) expect(unimplementedKeywords(shape)).toEqual([]);
  });

  it('reads a property named like a keyword as a name, not a keyword', () => {
    expect(unimplementedKeywords({ type: 'object', properties: { pattern: { type: 'string' }, format: { type: 'string' } } })).toEqual([]);
    expect(unimplementedKeywords({ type: 'array', items: { type: 'string', uniqueItems: true } })).toEqual(['#/items: uniqueItems']);
    expect(unimplementedKeywords({ anyOf: [{ type: 'null' }, { type: 'string', maxLength: 2 }] })).toEqual(['#/anyOf/1: maxLength']);
    expect([...SHAPE_KEYWORDS]).toContain('exclusiveMaximum');
  });

  it('from the build (as scripts/gen-codes-doc.mjs imports it), a refused schema ends the process non-zero with the message', () => {
    const root = path.resolve(__dirname, '../..');
    // gen-codes-doc.mjs imports dist/workflow/schema-runtime.js; this process does the same with a schema that has a minLength.
    const script = `const { requireZod, shapeOf } = await import('${root}/dist/workflow/schema-runtime.js'); const z = requireZod(); shapeOf(z.object({ name: z.string().min(1) }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('#/properties/name: minLength');
  });
});
