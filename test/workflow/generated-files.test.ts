// docs/codes.md, schema/oxoflow.schema.json, the loader's compiled shape and the AI layer's compiled
// shapes are generated; these tests fail when any of them is stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codes } from '../../src/diagnostics/registry.js';
import { workflowJsonSchema, workflowShape } from '../../src/workflow/schema-runtime.js';
import { WORKFLOW_SHAPE } from '../../src/workflow/schema-shape.generated.js';
import { aiConfigShapes } from '../../src/ai/config-schemas.js';
import { AI_CONFIG_JSON_SHAPE, AI_TOML_SHAPE, SKILL_MD_SHAPE, SKILL_TOML_SHAPE } from '../../src/ai/config-shapes.generated.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { renderCodesDoc } from '../../scripts/gen-codes-doc.mjs';

const root = path.resolve(__dirname, '../..');
const regenerate = 'regenerate with `npm run build && node scripts/gen-codes-doc.mjs`';

describe('generated files', () => {
  it(`docs/codes.md matches the registry (${regenerate})`, () => {
    expect(readFileSync(path.join(root, 'docs/codes.md'), 'utf8')).toBe((renderCodesDoc as (r: unknown) => string)(codes));
  });

  it('docs/codes.md lists every code with an anchor', () => {
    const doc = readFileSync(path.join(root, 'docs/codes.md'), 'utf8');
    for (const code of Object.keys(codes)) expect(doc).toContain(`<a id="${code.toLowerCase()}"></a>${code}`);
  });

  it(`schema/oxoflow.schema.json matches the zod schema (${regenerate})`, () => {
    const committed = JSON.parse(readFileSync(path.join(root, 'schema/oxoflow.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(workflowJsonSchema());
  });

  it(`src/workflow/schema-shape.generated.ts matches the zod schema (${regenerate}, then build again)`, () => {
    expect(WORKFLOW_SHAPE).toEqual(workflowShape());
  });

  it(`src/ai/config-shapes.generated.ts matches the zod schemas in src/ai/config-schemas.ts (${regenerate}, then build again)`, () => {
    expect({ aiToml: AI_TOML_SHAPE, aiConfigJson: AI_CONFIG_JSON_SHAPE, skillToml: SKILL_TOML_SHAPE, skillMd: SKILL_MD_SHAPE }).toEqual(aiConfigShapes());
  });

  it('every workflow code is explained in docs/format.md', () => {
    const format = readFileSync(path.join(root, 'docs/format.md'), 'utf8');
    const workflowCodes = Object.keys(codes).filter((c) => /^(E0\d\d|W\d{3}|S008)$/.test(c));
    expect(workflowCodes.filter((c) => !format.includes(c))).toEqual([]);
  });
});
