// The AI layer's files are checked against shapes compiled from zod schemas (src/ai/config-schemas.ts)
// without loading zod. The compiled shapes must agree with zod, and a "no" must come with findings
// that name the place (shapeFindings is empty exactly when conformsToShape says yes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAgainstShape, expectedText } from '../../src/ai/config-check.js';
import { aiConfigSchemas } from '../../src/ai/config-schemas.js';
import { AI_CONFIG_JSON_SHAPE, AI_TOML_SHAPE, SKILL_MD_SHAPE, SKILL_TOML_SHAPE } from '../../src/ai/config-shapes.generated.js';
import { conformsToShape, type Shape, shapeFindings } from '../../src/workflow/load/shape-check.js';
import { hasDate, type Json, leaf, mutate, paths } from '../helpers/json-mutations.js';

describe('shapeFindings', () => {
  const shape: Shape = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      n: { type: 'integer', exclusiveMinimum: 0 },
      mcp: { type: 'object', properties: { headers: { type: 'object', additionalProperties: { type: 'string' } } }, additionalProperties: false },
      retries: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'object', properties: { max: { type: 'number' } }, additionalProperties: false }] },
    },
    required: ['name'],
    additionalProperties: false,
  };

  it('names the innermost place of each problem, in the data order', () => {
    const findings = shapeFindings(shape, { n: 0, nme: 'x', mcp: { headers: { A: 1 } }, retries: { mx: 3 } });
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ['missing', ['name']],
      ['type', ['n']],
      ['unknown', ['nme']],
      ['type', ['mcp', 'headers', 'A']],
      ['unknown', ['retries', 'mx']],
    ]);
  });

  it('is empty exactly when the data conforms', () => {
    for (const v of [{ name: 'a' }, { name: 'a', n: 1, retries: 2 }, { name: 'a', retries: -1 }, {}, [], 'x', { name: 'a', mcp: [] }]) {
      expect(shapeFindings(shape, v).length === 0).toBe(conformsToShape(shape, v));
    }
  });

  it('words what a value must be the way the schema says it', () => {
    expect(expectedText({ type: 'integer', exclusiveMinimum: 0 }, 'a table')).toBe('a positive integer');
    expect(expectedText({ type: 'array', items: { type: 'string' } }, 'a table')).toBe('an array of strings');
    expect(expectedText({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, 'a mapping')).toBe('a string or an array of strings');
    expect(expectedText({ type: 'object', additionalProperties: { type: 'string' } }, 'an object')).toBe('an object of strings');
    expect(expectedText({ type: 'string', enum: ['knowledge', 'tool'] }, 'a table')).toBe('"knowledge" or "tool"');
  });

  it('a value inside a wrong one is not usable, nor is a table holding a wrong value; an unknown key spoils nothing', () => {
    const check = checkAgainstShape(shape, { name: 'a', mcp: 'x', extra: 1, retries: { max: 'x' } }, () => ({
      codes: { type: 'SK004', unknown: 'SK006', missing: 'SK003' },
      locate: () => ({ file: 'f' }),
      table: 'a table',
      container: () => 'the file',
    }));
    expect(check.diagnostics.map((d) => d.code)).toEqual(['SK004', 'SK006', 'SK004']);
    expect(check.usable(['name'])).toBe(true);
    expect(check.usable(['mcp', 'headers'])).toBe(false);
    expect(check.usable(['retries'])).toBe(false);
    expect(check.usable([])).toBe(false);
  });
});

const VALID: Record<string, Json> = {
  aiToml: { ai: { enabled: true, skills: ['qc'], skill_paths: ['~/s'], provider: 'openai', model: 'm', base_url: 'http://x', max_rounds: 3, lint: { skills: ['l'] }, run: {} } },
  aiConfigJson: {
    schema_version: 1,
    provider: 'openai',
    model: 'fast',
    base_url: 'http://x',
    api_key: 'k',
    key_env: 'K',
    models: [{ id: 'm', provider: 'openai', aliases: ['fast'], context_window: 1000 }],
    fallback: { provider: 'ollama', model: 'q', base_url: 'http://y', key_env: 'Y' },
    timeouts: { connect_ms: 1, first_byte_ms: 2, idle_ms: 3 },
    retries: { max: 3, base_ms: 500 },
  },
  skillToml: {
    name: 's',
    version: '1.0',
    description: 'd',
    skill_type: 'tool',
    author: 'a',
    domains: ['qc'],
    prompt_additions: ['p'],
    requires: ['mcp://h:1/mcp'],
    entry: 'e',
    mcp: { headers: { Authorization: 'Bearer ${T}' }, connect_timeout_ms: 10, call_timeout_ms: 20, trust_annotations: false },
  },
  skillMd: {
    name: 's',
    description: 'd',
    license: 'MIT',
    compatibility: 'c',
    metadata: { domain: ['qc'], primary_tool: 'fastqc' },
    'allowed-tools': 'Read',
    version: '1',
    domains: 'qc, rna',
    domain: ['x'],
    author: 'a',
    primary_tool: 't',
  },
};
const SHAPES: Record<string, Shape> = { aiToml: AI_TOML_SHAPE, aiConfigJson: AI_CONFIG_JSON_SHAPE, skillToml: SKILL_TOML_SHAPE, skillMd: SKILL_MD_SHAPE };

describe('compiled AI shapes versus zod', () => {
  for (const format of Object.keys(SHAPES) as (keyof typeof SHAPES & keyof ReturnType<typeof aiConfigSchemas>)[]) {
    it(`${format}: accepts a document using every key, and agrees with zod on random edits of it`, () => {
      const schema = aiConfigSchemas()[format];
      const shape = SHAPES[format]!;
      const valid = VALID[format];
      expect(schema.safeParse(valid).success).toBe(true);
      expect(conformsToShape(shape, valid)).toBe(true);
      const mutation = fc.record({
        at: fc.constantFrom(...paths(valid)),
        op: fc.constantFrom('set' as const, 'delete' as const, 'add' as const),
        value: leaf,
        key: fc.constantFrom('name', 'nme', 'skills', 'x', 'provider', 'headers'),
      });
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (ms) => {
          let v: Json = valid;
          for (const m of ms) v = mutate(v, m.at, m.op, m.value, m.key);
          const fast = conformsToShape(shape, v);
          if (fast) expect(schema.safeParse(v).success).toBe(true); // never accept what zod refuses
          if (!hasDate(v)) expect(fast).toBe(schema.safeParse(v).success);
          expect(shapeFindings(shape, v).length === 0).toBe(fast);
        }),
        { numRuns: 400 },
      );
    });
  }
});
