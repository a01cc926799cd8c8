import { describe, expect, it } from 'vitest';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import { diskFs, emptyFs, makeWorkflow, tempDir, touch, type RuleInput } from '../../helpers/plan-workflow.js';

const chain: RuleInput[] = [
  { name: 'a', input: ['in.txt'], output: ['a.txt'], shell: 'cp {input} {output}' },
  { name: 'b', input: ['a.txt'], output: ['b1.txt', 'b2.txt'], shell: 'x' },
  { name: 'c', input: ['b1.txt'], output: ['c.txt'], shell: 'x' },
];

function statuses(dir: string, rules: RuleInput[], extra: Parameters<typeof makeWorkflow>[0] = { rules: [] }, settings = {}) {
  const { plan, diagnostics } = planWorkflow(makeWorkflow({ ...extra, rules, dir }), settings, diskFs);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return Object.fromEntries(plan!.jobs.map((j) => [j.id, `${j.status}: ${j.reason}`]));
}

describe('planWorkflow statuses from real files', () => {
  it('never completed, outputs missing, upstream will run, input newer, up to date', () => {
    const dir = tempDir();
    touch(dir, 'in.txt', 100);
    expect(statuses(dir, chain)).toEqual({ a: 'run: never completed', b: 'run: never completed', c: 'run: never completed' });
    touch(dir, 'a.txt', 50);
    touch(dir, 'b1.txt', 40);
    touch(dir, 'c.txt', 30);
    expect(statuses(dir, chain)).toEqual({ a: 'skip: up to date', b: 'run: outputs missing', c: 'run: upstream will run' });
    touch(dir, 'b2.txt', 40);
    expect(statuses(dir, chain)).toEqual({ a: 'skip: up to date', b: 'skip: up to date', c: 'skip: up to date' });
    touch(dir, 'in.txt', 0);
    expect(statuses(dir, chain)).toEqual({ a: 'run: input newer', b: 'run: upstream will run', c: 'run: upstream will run' });
  });

  it('a false `when` skips the rule and its dependents count the dependency as satisfied', () => {
    const dir = tempDir();
    touch(dir, 'in.txt', 100);
    touch(dir, 'c.txt', 10);
    const rules: RuleInput[] = [
      { name: 'qc', input: ['in.txt'], output: ['qc.txt'], shell: 'x', when: 'config.run_qc' },
      { name: 'c', input: ['in.txt'], output: ['c.txt'], dependsOn: ['qc'], shell: 'x' },
    ];
    expect(statuses(dir, rules, { rules: [], config: { run_qc: false } })).toEqual({ qc: 'skip: when false', c: 'skip: up to date' });
    expect(statuses(dir, rules, { rules: [], config: { run_qc: false } }, { overrides: ['run_qc=true'] })).toEqual({
      qc: 'run: never completed',
      c: 'run: upstream will run',
    });
  });

  it('lists inputs nobody makes and that do not exist', () => {
    const { plan } = planWorkflow(makeWorkflow({ rules: chain }), {}, emptyFs);
    expect(plan!.jobs.map((j) => j.missingInputs)).toEqual([['in.txt'], [], []]);
  });
});

describe('planWorkflow settings and errors', () => {
  const rules: RuleInput[] = [
    { name: 'trim', input: ['raw/{sample}.fq'], output: ['t/{sample}.fq'], shell: 'x', threads: 4 },
    { name: 'align', input: ['t/{sample}.fq'], output: ['a/{sample}.bam'], shell: 'x' },
    { name: 'report', input: ['a/S1.bam', 'a/S2.bam'], output: ['report.html'], shell: 'x' },
  ];
  const groups = [{ name: 'g', samples: ['S1', 'S2', 'S3'], metadata: {} }];

  it('-t keeps a target and its upstream closure, by rule, output path or job id', () => {
    const plan = (targets: string[]) => planWorkflow(makeWorkflow({ rules, sampleGroups: groups }), { targets }, emptyFs).plan!.jobs.map((j) => j.id);
    expect(plan(['report'])).toEqual(['trim[sample=S1]', 'trim[sample=S2]', 'align[sample=S1]', 'align[sample=S2]', 'report']);
    expect(plan(['a/S3.bam'])).toEqual(['trim[sample=S3]', 'align[sample=S3]']);
    expect(plan(['trim[sample=S2]'])).toEqual(['trim[sample=S2]']);
    const bad = planWorkflow(makeWorkflow({ rules, sampleGroups: groups }), { targets: ['reprot'] }, emptyFs);
    expect(bad.plan).toBeUndefined();
    expect(bad.diagnostics.map((d) => [d.code, d.message])).toEqual([['CLI013', 'target "reprot" is not a rule, a job id, or an output of any job (did you mean report?)']]);
  });

  it('summary, phases and a suggested -j capped by the CPUs', () => {
    const { plan } = planWorkflow(makeWorkflow({ rules, sampleGroups: groups, defaults: { memoryMb: 8192, memoryText: '8G' } }), { cpus: 2 }, emptyFs);
    expect(plan!.summary).toMatchObject({ jobs: 7, run: 7, skip: 0, phases: 3, maxParallel: 3 });
    expect(plan!.suggestedJobs).toBe(2);
    expect(plan!.jobs[0]).toMatchObject({ threads: 4, memory: '8G', memoryMb: 8192, level: 0, dependsOn: [] });
    expect(plan!.jobs[6]).toMatchObject({ id: 'report', level: 2, dependsOn: ['align[sample=S1]', 'align[sample=S2]'] });
  });

  it('E021 without a sample source; E022 for a `when` that does not parse; bad overrides', () => {
    expect(planWorkflow(makeWorkflow({ rules }), {}, emptyFs).diagnostics.map((d) => d.code)).toEqual(['E021', 'E021']);
    const when = planWorkflow(makeWorkflow({ rules: [{ name: 'x', output: ['o'], shell: 's', when: 'config.a ==' }] }), {}, emptyFs);
    expect(when.diagnostics.map((d) => d.code)).toEqual(['E022']);
    expect(planWorkflow(makeWorkflow({ rules, sampleGroups: groups }), { overrides: ['nokey=1'] }, emptyFs).diagnostics.map((d) => d.code)).toEqual(['CLI012']);
  });
});
