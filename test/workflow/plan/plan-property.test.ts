// Random workflows through the planner: it never throws, every failure is a diagnostic, ids are
// unique, no path keeps a wildcard, and every job sits deeper than each job it waits for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import { emptyFs, makeWorkflow, type RuleInput } from '../../helpers/plan-workflow.js';

const names = ['a', 'b', 'c', 'd', 'e', 'f'];
const wildcard = fc.constantFrom('', '{sample}', '{group}', '{pair_id}', '{chr}', '{nope}');
const whenExpr = fc.constantFrom(undefined, 'true', 'false', 'config.flag', '!config.flag && true', 'config.n >= 2', 'config.n ==', '(((', 'file_exists("x")');

const ruleArb = (i: number) =>
  fc.record({
    inputs: fc.array(fc.record({ from: fc.integer({ min: 0, max: names.length - 1 }), w: wildcard }), { maxLength: 3 }),
    outW: wildcard,
    when: whenExpr,
    scatter: fc.boolean(),
    dependsOn: fc.array(fc.constantFrom(...names, 'ghost'), { maxLength: 2 }),
  }).map((r): RuleInput => {
    const rule: RuleInput = {
      name: names[i]!,
      input: r.inputs.map((x) => `${names[x.from]}/out${x.w}.txt`),
      output: [`${names[i]}/out${r.outW}.txt`],
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
    samples: fc.array(fc.constantFrom('S1', 'S2', 'S3', 'S 4'), { maxLength: 4 }),
    pairs: fc.boolean(),
    rules: fc.tuple(...names.map((_, i) => ruleArb(i))),
    flag: fc.boolean(),
    samplesFlag: fc.option(fc.array(fc.constantFrom('S1', 'S2', 'X9'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
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
