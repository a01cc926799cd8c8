// Random workflows through the planner: it never throws, every failure is a diagnostic, ids are
// unique, no path keeps a wildcard, and every job sits deeper than each job it waits for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import { emptyFs, makeWorkflow, type RuleInput } from '../../helpers/plan-workflow.js';

const names = ['a', 'b', 'c', 'd', 'e', 'f'];
// Mostly valid shapes, with a few that must fail (unknown wildcard, bad `when`, unknown depends_on).
const wildcard = fc.oneof(
  { arbitrary: fc.constant(''), weight: 8 },
  { arbitrary: fc.constant('{sample}'), weight: 6 },
  { arbitrary: fc.constantFrom('{group}', '{pair_id}', '{chr}', '{nope}'), weight: 1 },
);
const whenExpr = fc.oneof(
  { arbitrary: fc.constantFrom(undefined, 'true', 'false', 'config.flag', '!config.flag && true', 'config.n >= 2', 'file_exists("x")'), weight: 20 },
  { arbitrary: fc.constantFrom('config.n ==', '((('), weight: 1 },
);


const ruleArb = (i: number) =>
  fc.record({
    // Inputs mostly come from earlier rules; now and then from any rule, which may close a cycle.
    inputs: fc.array(
      fc.record({
        from: fc.oneof({ arbitrary: fc.integer({ min: 0, max: Math.max(0, i - 1) }), weight: 15 }, { arbitrary: fc.integer({ min: 0, max: names.length - 1 }), weight: 1 }),
        w: wildcard,
      }),
      { maxLength: 3 },
    ),
    outW: wildcard,
    when: whenExpr,
    scatter: fc.boolean(),
    dependsOn: fc.array(fc.oneof({ arbitrary: fc.constantFrom(...names.slice(0, Math.max(1, i))), weight: 20 }, { arbitrary: fc.constant('ghost'), weight: 1 }), { maxLength: 1 }),
  }).map((r): RuleInput => {
    const rule: RuleInput = {
      name: names[i]!,
      input: r.inputs.map((x) => `${names[x.from]}/out${x.w}.txt`),
      output: [`${names[i]}/out${r.outW}${r.scatter ? '.{chr}' : ''}.txt`],
      shell: `tool {input} > {output} # {config.flag}`,
      dependsOn: r.dependsOn,
    };
    if (r.when !== undefined) rule.when = r.when;
    if (r.scatter) rule.scatter = { variable: 'chr', values: ['chr1', 'chr2'] };
    return rule;
  });

const workflowArb = fc
  .record({
    count: fc.integer({ min: 1, max: names.length }),
    samples: fc.array(fc.constantFrom('S1', 'S2', 'S3', 'S 4'), { minLength: 1, maxLength: 4 }),
    pairs: fc.boolean(),
    rules: fc.tuple(...names.map((_, i) => ruleArb(i))),
    flag: fc.boolean(),
    samplesFlag: fc.option(fc.array(fc.oneof({ arbitrary: fc.constantFrom('S1', 'S2'), weight: 10 }, { arbitrary: fc.constant('X9'), weight: 1 }), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 3 }),
  })
  .map((w) => ({
    workflow: makeWorkflow({
      rules: w.rules.slice(0, w.count),
      config: { flag: w.flag, n: 3 },
      sampleGroups: w.samples.length > 0 ? [{ name: 'g1', samples: w.samples, metadata: {} }] : [],
      pairs: w.pairs ? [{ pairId: 'P1', experiment: 'T', control: 'N', metadata: {} }] : [],
    }),
    samplesFlag: w.samplesFlag,
  }));

describe('planner properties', () => {
  it('holds for random workflows', () => {
    let planned = 0;
    fc.assert(
      fc.property(workflowArb, ({ workflow, samplesFlag }) => {
        const settings = samplesFlag ? { samples: samplesFlag } : {};
        const { plan, diagnostics } = planWorkflow(workflow, settings, emptyFs);
        if (plan === undefined) {
          expect(diagnostics.some((d) => d.severity === 'error')).toBe(true);
          for (const d of diagnostics) expect(d.message.length).toBeGreaterThan(0);
          return;
        }
        planned += 1;
        const ids = plan.jobs.map((j) => j.id);
        expect(new Set(ids).size).toBe(ids.length);
        const byId = new Map(plan.jobs.map((j) => [j.id, j]));
        for (const j of plan.jobs) {
          for (const p of [...j.inputs, ...j.outputs]) expect(p).not.toMatch(/\{[A-Za-z_]\w*\}/);
          for (const d of j.dependsOn) expect(j.level).toBeGreaterThan(byId.get(d)!.level);
        }
      }),
      { numRuns: 300 },
    );
    // The generator must reach the planner's success path often, or the properties above prove little.
    expect(planned).toBeGreaterThan(30);
  });
});
