import { describe, expect, it } from 'vitest';
import { buildDag } from '../../../src/workflow/dag/build-dag.js';
import { validateWorkflow } from '../../../src/workflow/validate.js';
import { upstreamClosure } from '../../../src/workflow/dag/targets.js';
import { expandJobs } from '../../../src/workflow/expand/expand-jobs.js';
import { effectiveConfig, resolveSamples } from '../../../src/workflow/expand/sources.js';
import type { Workflow } from '../../../src/workflow/model.js';
import { makeWorkflow, type RuleInput } from '../../helpers/plan-workflow.js';

function dagOf(w: Workflow) {
  const s = resolveSamples(w, undefined, () => undefined, undefined);
  const { jobs } = expandJobs(w, { samples: s.source, config: effectiveConfig(w, new Map(), s.source.members) });
  return { jobs, ...buildDag(w, jobs) };
}

describe('buildDag', () => {
  it('links outputs to inputs (./ and // normalised), adds depends_on, and computes longest-path levels', () => {
    const { jobs, dag } = dagOf(
      makeWorkflow({
        rules: [
          { name: 'a', output: ['x/a.txt'], shell: 's' },
          { name: 'b', input: ['./x/a.txt'], output: ['b.txt'], shell: 's' },
          { name: 'c', input: ['x//a.txt', 'b.txt'], output: ['c.txt'], shell: 's' },
          { name: 'd', output: ['d.txt'], dependsOn: ['a'], shell: 's' },
        ],
      }),
    );
    const ids = jobs.map((j) => j.id);
    expect(dag!.levels).toEqual([0, 1, 2, 1]);
    expect(dag!.deps.map((d) => d.map((i) => ids[i]))).toEqual([[], ['a'], ['a', 'b'], ['a']]);
    expect(dag!.order.map((i) => ids[i])).toEqual(['a', 'b', 'd', 'c']);
  });

  it('rules in any file order give the same levels and order (one pass when producers come first)', () => {
    const rules: RuleInput[] = [
      { name: 'a', output: ['a.txt'], shell: 's' },
      { name: 'b', input: ['a.txt'], output: ['b.txt'], shell: 's' },
      { name: 'c', input: ['b.txt', 'a.txt'], output: ['c.txt'], shell: 's' },
      { name: 'e', output: ['e.txt'], shell: 's' },
    ];
    const shape = (order: RuleInput[]) => {
      const { jobs, dag } = dagOf(makeWorkflow({ rules: order }));
      const ids = jobs.map((j) => j.id);
      return { levels: Object.fromEntries(ids.map((id, i) => [id, dag!.levels[i]])), order: dag!.order.map((i) => ids[i]), deps: Object.fromEntries(ids.map((id, i) => [id, dag!.deps[i]!.map((d) => ids[d]).sort()])) };
    };
    const inOrder = shape(rules);
    expect(inOrder.levels).toEqual({ a: 0, b: 1, c: 2, e: 0 });
    expect(inOrder.order).toEqual(['a', 'e', 'b', 'c']);
    expect(inOrder.deps).toEqual({ a: [], b: ['a'], c: ['a', 'b'], e: [] });
    // Consumers first: the graph is sorted instead, to the same answer.
    const reversed = shape([...rules].reverse());
    expect(reversed.levels).toEqual(inOrder.levels);
    expect(reversed.deps).toEqual(inOrder.deps);
    expect(reversed.order).toEqual(['e', 'a', 'b', 'c']);
  });

  it('depends_on on a per-sample rule links matching samples only', () => {
    const { jobs, dag } = dagOf(
      makeWorkflow({
        sampleGroups: [{ name: 'g', samples: ['S1', 'S2'], metadata: {} }],
        rules: [
          { name: 'a', output: ['a/{sample}'], shell: 's' },
          { name: 'b', output: ['b/{sample}'], dependsOn: ['a'], shell: 's' },
          { name: 'all', output: ['all'], dependsOn: ['b'], shell: 's' },
        ],
      }),
    );
    const ids = jobs.map((j) => j.id);
    expect(dag!.deps.map((d) => d.map((i) => ids[i]))).toEqual([[], [], ['a[sample=S1]'], ['a[sample=S2]'], ['b[sample=S1]', 'b[sample=S2]']]);
  });

  it('E006 for two producers of one output, once per rule pair', () => {
    const { diagnostics } = dagOf(
      makeWorkflow({
        sampleGroups: [{ name: 'g', samples: ['S1', 'S2', 'S3'], metadata: {} }],
        rules: [
          { name: 'a', output: ['o/{sample}.txt'], shell: 's' },
          { name: 'b', output: ['./o/{sample}.txt'], shell: 's' },
        ],
      }),
    );
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([['E006', 'rules a and b both produce ./o/S1.txt (and 2 more outputs)']]);
  });

  it('E006 for a cycle, printed as the path in data-flow order from the first rule', () => {
    const rules: RuleInput[] = [
      { name: 'a', input: ['c.txt'], output: ['a.txt'], shell: 's' },
      { name: 'b', input: ['a.txt'], output: ['b.txt'], shell: 's' },
      { name: 'c', input: ['b.txt'], output: ['c.txt'], shell: 's' },
      { name: 'free', output: ['f.txt'], shell: 's' },
    ];
    const { diagnostics } = dagOf(makeWorkflow({ rules }));
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([['E006', 'cycle: a → b → c → a']]);
    const self = dagOf(makeWorkflow({ rules: [{ name: 'loop', input: ['x'], output: ['x'], shell: 's' }] }));
    expect(self.diagnostics[0]!.message).toBe('cycle: loop → loop');
  });

  it('a 10,000-rule chain sorts and closes without deep recursion', () => {
    const rules: RuleInput[] = Array.from({ length: 10_000 }, (_, i) => ({ name: `r${i}`, input: i === 0 ? [] : [`f${i - 1}`], output: [`f${i}`], shell: 's' }));
    const { dag } = dagOf(makeWorkflow({ rules }));
    expect(dag!.levels[9_999]).toBe(9_999);
    expect(upstreamClosure(dag!, [9_999]).reduce((a, b) => a + b, 0)).toBe(10_000);
    const cyclic = [...rules, { name: 'back', input: ['f9999'], output: ['zzz'], shell: 's' }];
    cyclic[0] = { ...cyclic[0]!, input: ['zzz'] };
    const { diagnostics } = dagOf(makeWorkflow({ rules: cyclic }));
    expect(diagnostics[0]!.message.startsWith('cycle: r0 → r1 → r2')).toBe(true);
    expect(diagnostics[0]!.message.endsWith('r9999 → back → r0')).toBe(true);
  });
});

describe('validateWorkflow (the one validation entry point)', () => {
  const codes = (w: Workflow) => validateWorkflow(w).map((d) => [d.code, d.message]);

  it('checks the DAG with stand-ins for wildcards without a source, next to the file checks', () => {
    const w = makeWorkflow({
      rules: [
        { name: 'a', input: ['raw/{sample}.fq'], output: ['o/{sample}.txt'], shell: 's' },
        { name: 'b', input: ['o/{sample}.txt'], output: ['raw/{sample}.fq'], shell: 's {config.missing}' },
      ],
    });
    // The undefined key and the cycle are independent problems: both are reported in one run.
    expect(codes(w).map(([c]) => c).sort()).toEqual(['E005', 'E006']);
    const cyc = makeWorkflow({
      rules: [
        { name: 'a', input: ['raw/{sample}.fq'], output: ['o/{sample}.txt'], shell: 's' },
        { name: 'b', input: ['o/{sample}.txt'], output: ['raw/{sample}.fq'], shell: 's' },
      ],
    });
    expect(codes(cyc)).toEqual([['E006', 'cycle: a[sample=<sample>] → b[sample=<sample>] → a[sample=<sample>]']]);
    expect(codes(makeWorkflow({ rules: [{ name: 'x', output: ['{sample}'], shell: 's' }] }))).toEqual([]);
  });

  it('a rule that depends on itself is a cycle (E006)', () => {
    const w = makeWorkflow({ rules: [{ name: 'a', output: ['x'], shell: 'touch {output}', dependsOn: ['a'] }] });
    expect(codes(w)).toEqual([['E006', 'cycle: rule "a" depends on itself (a → a)']]);
  });

  it('an input `index` is the output directory `index/` of another rule', () => {
    const { jobs, dag } = dagOf(
      makeWorkflow({
        rules: [
          { name: 'build', output: ['index/'], shell: 'mkdir -p {output}' },
          { name: 'align', input: ['index'], output: ['out.bam'], shell: 'align {input} > {output}' },
        ],
      }),
    );
    expect(dag!.deps[jobs.findIndex((j) => j.rule.name === 'align')]).toEqual([jobs.findIndex((j) => j.rule.name === 'build')]);
  });
});
