// The loader's fast path (the compiled shape) must agree with zod: it may never accept a file that
// zod refuses, and on TOML-like data it accepts exactly what zod accepts (so valid files never pay for
// loading zod).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformsToShape, type Shape } from '../../../src/workflow/load/shape-check.js';
import { workflowSchemas } from '../../../src/workflow/schema-runtime.js';
import { WORKFLOW_SHAPE } from '../../../src/workflow/schema-shape.generated.js';
import { hasDate, type Json, leaf, mutate, paths } from '../../helpers/json-mutations.js';

describe('conformsToShape', () => {
  const shape: Shape = {
    type: 'object',
    properties: { name: { type: 'string' }, n: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['name'],
    additionalProperties: false,
  };
  it.each([
    [{ name: 'a' }, true],
    [{ name: 'a', n: 2, tags: ['x'] }, true],
    [{}, false],
    [{ name: 1 }, false],
    [{ name: 'a', n: 0 }, false],
    [{ name: 'a', n: 1.5 }, false],
    [{ name: 'a', tags: [1] }, false],
    [{ name: 'a', extra: true }, false],
    [{ name: 'a', constructor: 'x' }, false],
    [{ name: 'a', toString: 'x' }, false],
    [new Date(0), false],
    [['name'], false],
  ])('%j → %s', (value, expected) => {
    expect(conformsToShape(shape, value)).toBe(expected);
  });

  it('handles anyOf, records and enums', () => {
    const s: Shape = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { anyOf: [{ type: 'string' }, { enum: ['a', 1] }] } };
    expect(conformsToShape(s, { x: 'y', z: 1 })).toBe(true);
    expect(conformsToShape(s, { x: 2 })).toBe(false);
  });
});

const VALID = {
  workflow: { name: 'w', version: '1.0', description: 'd', author: 'a', sample_pattern: 'raw/{sample}.fq' },
  config: { ref: 'genome.fa', n: 3, list: ['a', 'b'], mode: { default: 'fast', choices: ['fast', 'slow'], help: 'speed' } },
  defaults: { threads: 2, memory: '4G', environment: { conda: 'envs/base.yaml' } },
  sample_groups: [{ name: 'g', samples: ['s1', 's2'], metadata: { batch: 1 } }],
  pairs: [{ pair_id: 'p1', tumor: 't', normal: 'n' }],
  ai: { enabled: false, skills: ['qc'], validate: { skills: ['x'] } },
  rules: [
    {
      name: 'align',
      input: { r1: 'raw/{sample}.fq' },
      output: ['aligned/{sample}.bam'],
      shell: 'bwa mem {input.r1} > {output}',
      resources: { threads: 8, memory: 16000, gpu: 0 },
      environment: { docker: 'bwa:1' },
      params: { k: 19 },
      depends_on: [],
      scatter: { variable: 'chr', values: ['1', '2'] },
      expand_inputs: [{ pattern: 'x/{sample}', variables: { sample: 'config.list' } }],
      transform: { split: { by: 'c', values: ['a'] }, map: 'echo', combine: { shell: 'cat' }, cleanup: true },
    },
  ],
};

describe('compiled shape versus zod', () => {
  const zodAccepts = (v: Json) => workflowSchemas().workflowFileSchema.safeParse(v).success;

  it('accepts a valid workflow using every table', () => {
    expect(zodAccepts(VALID)).toBe(true);
    expect(conformsToShape(WORKFLOW_SHAPE, VALID)).toBe(true);
  });

  it('agrees with zod on random mutations of a valid workflow', () => {
    const all = paths(VALID);
    const mutation = fc.record({
      at: fc.constantFrom(...all),
      op: fc.constantFrom('set' as const, 'delete' as const, 'add' as const),
      value: leaf,
      key: fc.constantFrom('name', 'nme', 'threads', 'skills', 'x', 'default', 'shell'),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (ms) => {
        let v: Json = VALID;
        for (const m of ms) v = mutate(v, m.at, m.op, m.value, m.key);
        const fast = conformsToShape(WORKFLOW_SHAPE, v);
        const zod = zodAccepts(v);
        if (fast) expect(zod).toBe(true); // never accept what zod refuses
        if (!hasDate(v)) expect(fast).toBe(zod); // on TOML data without datetimes, exactly zod's verdict
      }),
      { numRuns: 1500 },
    );
  });
});

describe('optional tables stay optional on the fast path', () => {
  it('accepts a sample group without samples, an expand_inputs without variables and [ai.lint] without skills', () => {
    const minimal = {
      workflow: { name: 'w' },
      sample_groups: [{ name: 'empty' }],
      ai: { lint: {} },
      rules: [{ name: 'r', output: ['o'], shell: 'touch {output}', expand_inputs: [{ pattern: 'x' }] }],
    };
    expect(workflowSchemas().workflowFileSchema.safeParse(minimal).success).toBe(true);
    expect(conformsToShape(WORKFLOW_SHAPE, minimal)).toBe(true);
  });
});
