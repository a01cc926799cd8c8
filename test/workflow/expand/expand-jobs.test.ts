import { describe, expect, it } from 'vitest';
import { expandJobs } from '../../../src/workflow/expand/expand-jobs.js';
import { compileTemplate, renderTemplate } from '../../../src/workflow/render/template.js';
import { effectiveConfig, resolveSamples } from '../../../src/workflow/expand/sources.js';
import type { Workflow } from '../../../src/workflow/model.js';
import { makeWorkflow, type WorkflowInput } from '../../helpers/plan-workflow.js';

function expand(w: Workflow, samplesFlag?: string[], list?: (d: string) => string[] | undefined) {
  const base = effectiveConfig(w, new Map(), []);
  const s = resolveSamples(w, samplesFlag, (k) => base.get(k), list);
  const config = effectiveConfig(w, new Map(), s.source.members);
  const r = expandJobs(w, { samples: s.source, config });
  return { ...r, diagnostics: [...s.diagnostics, ...r.diagnostics] };
}
const wf = (w: WorkflowInput) => makeWorkflow(w);
const groups = [
  { name: 'ctrl', samples: ['C1', 'C2'], metadata: { tissue: 'blood' } },
  { name: 'case', samples: ['T1'], metadata: { tissue: 'tumor' } },
];

describe('sample expansion', () => {
  it('clones a rule once per sample of every group, with sorted-key ids', () => {
    const { jobs, diagnostics } = expand(
      wf({ sampleGroups: groups, rules: [{ name: 'fastqc', input: ['raw/{sample}.fq'], output: ['qc/{group}/{sample}.html'], shell: 'fastqc {input} -o {output} # {tissue}' }] }),
    );
    expect(diagnostics).toEqual([]);
    expect(jobs.map((j) => j.id)).toEqual(['fastqc[group=ctrl,sample=C1]', 'fastqc[group=ctrl,sample=C2]', 'fastqc[group=case,sample=T1]']);
    expect(jobs[2]!.outputs).toEqual(['qc/case/T1.html']);
    expect(jobs[2]!.shownCommand).toBe('fastqc raw/T1.fq -o qc/case/T1.html # tumor');
    expect(jobs[2]!.command).toBe('fastqc "${OXO_INPUT_0}" -o "${OXO_OUTPUT_0}" # ${OXO_TISSUE}');
  });

  it('keeps one job per id when a sample sits in two groups and the rule ignores {group}', () => {
    const w = wf({
      sampleGroups: [
        { name: 'a', samples: ['S1', 'S2'], metadata: {} },
        { name: 'b', samples: ['S2'], metadata: {} },
      ],
      rules: [{ name: 'trim', input: ['raw/{sample}.fq'], output: ['t/{sample}.fq'], shell: 'trim {input} {output}' }],
    });
    expect(expand(w).jobs.map((j) => j.id)).toEqual(['trim[sample=S1]', 'trim[sample=S2]']);
  });

  it('E021 when {sample} has no source, with the documented message', () => {
    const { jobs, diagnostics } = expand(wf({ rules: [{ name: 'fastqc', input: ['raw/{sample}.fq'], output: ['qc/{sample}.html'], shell: 'x' }] }));
    expect(jobs).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['E021', '`{sample}` in rule fastqc has no source: declare [[sample_groups]], set workflow.sample_pattern, or pass --samples'],
    ]);
    expect(diagnostics[0]!.line).toBe(10);
  });

  it('E021 for an unknown wildcard in a path; an unknown {name} in shell stays literal', () => {
    const bad = expand(wf({ rules: [{ name: 'split', input: ['in.txt'], output: ['split/{chunk}.txt'], shell: 'x' }] }));
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['E021']);
    expect(bad.diagnostics[0]!.message).toContain('`{chunk}` in rule split has no source');
    const ok = expand(wf({ rules: [{ name: 'echo', output: ['o.txt'], shell: 'echo {unknown} ${HOME} > {output}' }] }));
    expect(ok.jobs[0]!.shownCommand).toBe('echo {unknown} ${HOME} > o.txt');
  });

  it('--samples is the source when nothing is declared, and a filter when groups are', () => {
    const rules = [{ name: 'r', input: ['raw/{sample}.fq'], output: ['o/{sample}.txt'], shell: 'x' }];
    expect(expand(wf({ rules }), ['A', 'B']).jobs.map((j) => j.id)).toEqual(['r[sample=A]', 'r[sample=B]']);
    expect(expand(wf({ rules, sampleGroups: groups }), ['T1']).jobs.map((j) => j.id)).toEqual(['r[sample=T1]']);
    const typo = expand(wf({ rules, sampleGroups: groups }), ['T11']);
    expect(typo.diagnostics[0]!.code).toBe('CLI014');
    expect(typo.diagnostics[0]!.message).toContain('did you mean T1?');
  });

  it('discovers samples from workflow.sample_pattern through the injected lister', () => {
    const rules = [{ name: 'r', input: ['raw/{sample}_R1.fq.gz'], output: ['o/{sample}.txt'], shell: 'x' }];
    const seen: string[] = [];
    const list = (d: string) => (seen.push(d), ['B_R1.fq.gz', 'A_R1.fq.gz', 'A_R2.fq.gz', 'notes.txt']);
    const { jobs } = expand(wf({ rules, samplePattern: 'raw/{sample}_R1.fq.gz', dir: '/proj' }), undefined, list);
    expect(seen).toEqual(['/proj/raw']);
    expect(jobs.map((j) => j.id)).toEqual(['r[sample=A]', 'r[sample=B]']);
    const none = expand(wf({ rules, samplePattern: 'raw/{sample}_R1.fq.gz' }), undefined, () => undefined);
    expect(none.diagnostics[0]!.code).toBe('E021');
    expect(none.diagnostics[0]!.message).toContain('raw/ does not exist');
  });
});

describe('engine-provided config keys', () => {
  it('adds samples_list, samples_<group> and pairs_list without overriding a user key', () => {
    const w = wf({ sampleGroups: groups, pairs: [{ pairId: 'P1', experiment: 'T1', control: 'C1', metadata: {} }], config: { samples_ctrl: 'mine' }, rules: [] });
    const c = effectiveConfig(w, new Map(), resolveSamples(w, undefined, () => undefined, undefined).source.members);
    expect(c.get('samples_list')).toBe('C1,C2,T1');
    expect(c.get('samples_case')).toBe('T1');
    expect(c.get('samples_ctrl')).toBe('mine');
    expect(c.get('pairs_list')).toBe('P1');
  });
});

describe('pairs, scatter, transform, expand_inputs', () => {
  const pairs = [
    { pairId: 'CASE_1', experiment: 'EXP_1', control: 'CTRL_1', metadata: {} },
    { pairId: 'CASE_2', experiment: 'EXP_2', metadata: {} },
  ];

  it('one clone per pair; a pair without a value the rule uses is an error, never a dropped job', () => {
    const rules = [
      { name: 'call', input: ['r/{experiment}.bam', 'r/{control}.bam'], output: ['v/{pair_id}.vcf'], shell: 'mutect {input[0]} -normal {control}' },
      { name: 'trim', input: ['raw/{experiment}.fq'], output: ['t/{experiment}.fq'], shell: 'x' },
    ];
    const complete = expand(wf({ pairs: [pairs[0]!, { ...pairs[1]!, control: 'CTRL_2' }], rules }));
    expect(complete.jobs.map((j) => j.id)).toEqual([
      'call[control=CTRL_1,experiment=EXP_1,pair_id=CASE_1]',
      'call[control=CTRL_2,experiment=EXP_2,pair_id=CASE_2]',
      'trim[experiment=EXP_1]',
      'trim[experiment=EXP_2]',
    ]);
    expect(complete.jobs[0]!.shownCommand).toBe('mutect r/EXP_1.bam -normal CTRL_1');
    // CASE_2 has no control: the checks report E034 first; expansion on its own still says E021.
    const partial = expand(wf({ pairs, rules }));
    expect(partial.diagnostics.map((d) => [d.code, d.rule])).toEqual([['E021', 'call']]);
  });

  it('E021 for a pair wildcard without [[pairs]]', () => {
    const { diagnostics } = expand(wf({ rules: [{ name: 'call', output: ['v/{pair_id}.vcf'], shell: 'x' }] }));
    expect(diagnostics[0]!.message).toBe('`{pair_id}` in rule call has no source: declare [[pairs]]');
  });

  it('scatter clones per value and the gather rule receives every clone output', () => {
    const { jobs, diagnostics } = expand(
      wf({
        config: { chromosomes: ['chr1', 'chr2'] },
        rules: [
          { name: 'hc', input: ['s.bam'], output: ['v/s.{chr}.g.vcf'], scatter: { variable: 'chr', valuesFrom: 'config.chromosomes', gather: 'gather' }, shell: 'hc -L {chr} -O {output[0]}' },
          { name: 'gather', output: ['v/s.g.vcf'], shell: 'gather {input} -O {output}' },
        ],
      }),
    );
    expect(diagnostics).toEqual([]);
    expect(jobs.map((j) => j.id)).toEqual(['hc[chr=chr1]', 'hc[chr=chr2]', 'gather']);
    expect(jobs[1]!.shownCommand).toBe('hc -L chr2 -O v/s.chr2.g.vcf');
    expect(jobs[2]!.shownCommand).toBe('gather v/s.chr1.g.vcf v/s.chr2.g.vcf -O v/s.g.vcf');
  });

  it('transform: one map job per split value and a combine job fed by the chunks', () => {
    const { jobs } = expand(
      wf({
        config: { chroms: 'chr1,chr2' },
        rules: [
          {
            name: 'vc',
            input: ['s.bam'],
            output: ['v/s.g.vcf.gz'],
            transform: { split: { by: 'chr', valuesFrom: 'config.chroms' }, map: 'hc -I {input} -L {chr} -O {output}', combine: { shell: 'gather {chunks} -O {output}' } },
          },
          { name: 'qc', input: ['s.bam'], transform: { split: { by: 'chr', values: ['chrX'] }, map: 'flagstat {input} {chr} > {output}' } },
        ],
      }),
    );
    expect(jobs.map((j) => [j.id, j.step, j.final])).toEqual([
      ['vc[chr=chr1]', 'map', false],
      ['vc[chr=chr2]', 'map', false],
      ['vc.combine', 'combine', true],
      ['qc[chr=chrX]', 'map', true],
    ]);
    expect(jobs[0]!.shownCommand).toBe('hc -I s.bam -L chr1 -O .oxo-flow/chunks/vc/chr1/s.g.vcf.gz');
    expect(jobs[2]!.shownCommand).toBe('gather .oxo-flow/chunks/vc/chr1/s.g.vcf.gz .oxo-flow/chunks/vc/chr2/s.g.vcf.gz -O v/s.g.vcf.gz');
    expect(jobs[3]!.outputs).toEqual(['.oxo-flow/chunks/qc/chrX.out']);
  });

  it('expand_inputs fans in over config.samples_list', () => {
    const { jobs } = expand(
      wf({
        sampleGroups: groups,
        rules: [{ name: 'combine', expandInputs: [{ pattern: 'v/{sample}.g.vcf', variables: { sample: 'config.samples_list' } }], output: ['cohort.vcf'], shell: 'combine {input}' }],
      }),
    );
    expect(jobs.map((j) => j.id)).toEqual(['combine']);
    expect(jobs[0]!.shownCommand).toBe('combine v/C1.g.vcf v/C2.g.vcf v/T1.g.vcf');
  });

  it('E005 for an undefined {config.k}', () => {
    const { diagnostics } = expand(wf({ rules: [{ name: 'r', output: ['o'], shell: 'x {config.refernce}' }] }));
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([['E005', '{config.refernce} in rule r is not defined in [config]']]);
  });

  it('script rules run through the interpreter for their extension', () => {
    const { jobs } = expand(wf({ rules: [{ name: 'r', output: ['o'], script: 'scripts/my report.py' }] }));
    expect(jobs[0]!.shownCommand).toBe("python3 'scripts/my report.py'");
    expect(jobs[0]!.command).toBe('python3 "${OXO_SCRIPT}"');
    expect(jobs[0]!.env).toEqual({ OXO_SCRIPT: 'scripts/my report.py', OXO_RULE: 'r', OXO_JOB_ID: 'r', OXO_INPUT_COUNT: '0', OXO_OUTPUT_COUNT: '1', OXO_OUTPUT_0: 'o', OXO_THREADS: '1' });
    // A file without a known extension runs by its path, never found on PATH.
    const own = expand(wf({ rules: [{ name: 'r', output: ['o'], script: 'tool' }] })).jobs[0]!;
    expect([own.command, own.shownCommand]).toEqual(['./"${OXO_SCRIPT}"', './tool']);
    expect(JSON.parse(jobs[0]!.jobJson!)).toMatchObject({ rule: 'r', script: 'scripts/my report.py', input: [], output: ['o'], log: null, threads: 1, params: {}, wildcards: {} });
  });

  it('two rules rendering the same path text report each its own unfilled name (a shared render is a filled one)', () => {
    const { jobs, diagnostics } = expand(
      wf({
        sampleGroups: groups,
        rules: [
          { name: 'a', input: ['raw/{sample}.fq'], output: ['x/{sample}_{lane}.txt'], shell: 'a {input} {output}' },
          { name: 'b', input: ['x/{sample}_{lane}.txt'], output: ['y/{sample}.txt'], shell: 'b {input} {output}' },
          { name: 'c', input: ['raw/{sample}.fq'], output: ['z/{sample}.txt'], shell: 'c {input} {output}' },
        ],
      }),
    );
    expect(diagnostics.map((d) => [d.code, d.rule])).toEqual([
      ['E021', 'a'],
      ['E021', 'b'],
    ]);
    // The rule whose paths fill has its jobs, its input rendered as rule a's would be.
    expect(jobs.map((j) => [j.id, j.inputs[0]])).toEqual([
      ['c[sample=C1]', 'raw/C1.fq'],
      ['c[sample=C2]', 'raw/C2.fq'],
      ['c[sample=T1]', 'raw/T1.fq'],
    ]);
  });

  it('rules fanning out over the same samples share their paths and ids, each with its own values', () => {
    const w = wf({
      sampleGroups: groups,
      rules: [
        { name: 'a', input: ['raw/{sample}.fq'], output: ['a/{sample}.txt'], tempOutput: ['a/{sample}.txt'], shell: 'a {input} > {output}' },
        { name: 'b', input: ['a/{sample}.txt'], output: ['b/{group}/{sample}.txt'], log: 'logs/{sample}.log', shell: 'b {input} > {output} 2> {log}' },
      ],
    });
    const { jobs } = expand(w);
    expect(jobs.map((j) => [j.id, j.inputs, j.outputs, j.tempOutputs, j.log ?? null])).toEqual([
      ['a[sample=C1]', ['raw/C1.fq'], ['a/C1.txt'], ['a/C1.txt'], null],
      ['a[sample=C2]', ['raw/C2.fq'], ['a/C2.txt'], ['a/C2.txt'], null],
      ['a[sample=T1]', ['raw/T1.fq'], ['a/T1.txt'], ['a/T1.txt'], null],
      ['b[group=ctrl,sample=C1]', ['a/C1.txt'], ['b/ctrl/C1.txt'], [], 'logs/C1.log'],
      ['b[group=ctrl,sample=C2]', ['a/C2.txt'], ['b/ctrl/C2.txt'], [], 'logs/C2.log'],
      ['b[group=case,sample=T1]', ['a/T1.txt'], ['b/case/T1.txt'], [], 'logs/T1.log'],
    ]);
    // Each job's lists are its own: adding to one (as gather does) changes no other job.
    jobs[3]!.inputs.push('extra');
    expect(jobs[0]!.outputs).toEqual(['a/C1.txt']);
    expect(jobs[4]!.inputs).toEqual(['a/C2.txt']);
  });

  it('rules sharing one name (a file with E002, seen by validate) keep one job per id, as before', () => {
    const w = wf({
      sampleGroups: groups,
      rules: [
        { name: 'r', input: ['raw/{sample}.fq'], output: ['a/{sample}.txt'], shell: 'a' },
        { name: 'r', input: ['raw/{sample}.fq'], output: ['b/{sample}.txt'], shell: 'b' },
      ],
    });
    expect(expand(w).jobs.map((j) => [j.id, j.outputs[0]])).toEqual([
      ['r[sample=C1]', 'a/C1.txt'],
      ['r[sample=C2]', 'a/C2.txt'],
      ['r[sample=T1]', 'a/T1.txt'],
    ]);
  });

  it('commandForms gives what command, env, shownCommand and shownEnv give, sensitive values masked', () => {
    const w = wf({
      sampleGroups: groups,
      declared: { token: { default: 'tok-secret-1', sensitive: true, required: false } },
      config: { ref: 'ref.fa' },
      rules: [{ name: 'r', input: ['raw/{sample}.fq'], output: ['o/{sample}.txt'], shell: 'tool --token {config.token} --ref {config.ref} {input} > {output}' }],
    });
    const j = expand(w).jobs[0]!;
    const forms = j.commandForms();
    expect(forms).toEqual({ command: j.command, env: j.env, shownCommand: j.shownCommand, shownEnv: j.shownEnv });
    expect(forms.shownCommand).toBe("tool --token '***' --ref ref.fa raw/C1.fq > o/C1.txt");
    expect(forms.shownEnv.OXO_CONFIG_TOKEN).toBe('***');
    expect(forms.env.OXO_CONFIG_TOKEN).toBe('tok-secret-1');
    const plain = expand(wf({ sampleGroups: groups, rules: [{ name: 'r', input: ['raw/{sample}.fq'], output: ['o/{sample}.txt'], shell: 'cp {input} {output}' }] })).jobs[1]!;
    const before = { command: plain.command, env: plain.env, shownCommand: plain.shownCommand, shownEnv: plain.shownEnv };
    expect(plain.commandForms()).toEqual(before);
    expect(before.shownCommand).toBe('cp raw/C2.fq o/C2.txt');
  });

  it('E032 names the first path that leaves the project, in job order, then input, output, log', () => {
    const rule = { name: 'r', input: ['in/{idir}/{sample}.fq'], output: ['{odir}/{sample}.txt'], log: 'logs/{idir}/{sample}.log', shell: 'x {input} > {output} 2> {log}' };
    const message = (meta: Record<string, Record<string, string>>) =>
      expand(wf({ sampleGroups: Object.entries(meta).map(([name, metadata], i) => ({ name, samples: [`S${i + 1}`], metadata })), rules: [rule] })).diagnostics.map((d) => [d.code, d.message]);
    // One job with all three out: its input is named.
    expect(message({ a: { idir: 'ok', odir: 'o' }, b: { idir: '../..', odir: '/abs' } })).toEqual([['E032', 'input "in/../../S2.fq" of rule r leaves the project directory once its values are filled in']]);
    // An absolute output in the second job comes before a climbing input (and log) in the third.
    expect(message({ a: { idir: 'ok', odir: 'o' }, b: { idir: 'ok', odir: '/abs' }, c: { idir: '../..', odir: 'o' } })).toEqual([['E032', 'output "/abs/S2.txt" of rule r leaves the project directory once its values are filled in']]);
    // Only the log climbs out (`logs/../..` is the project itself, one more `..` leaves it).
    expect(message({ a: { idir: '../../..', odir: 'o' } })).toEqual([['E032', 'input "in/../../../S1.fq" of rule r leaves the project directory once its values are filled in']]);
    expect(expand(wf({ sampleGroups: [{ name: 'a', samples: ['S1'], metadata: { idir: 'x/../..' } }], rules: [{ ...rule, input: ['in/{sample}.fq'], output: ['o/{sample}.txt'], log: 'logs/{idir}/../{sample}.log' }] })).diagnostics.map((d) => d.message)).toEqual([
      'log "logs/x/../../../S1.log" of rule r leaves the project directory once its values are filled in',
    ]);
  });

  it('renders a path of text and one wildcard as the template engine does, in every position', () => {
    const { jobs } = expand(
      wf({ sampleGroups: groups, rules: [{ name: 'r', input: ['{sample}', '{sample}.fq', 'in/{sample}', 'a/{tissue}/b', 'p/{group}_{sample}.x', '{config.d}/{sample}'], output: ['o/{sample}.txt'], shell: 'x {input} > {output}' }], config: { d: 'data' } }),
    );
    expect(jobs[2]!.inputs).toEqual(['T1', 'T1.fq', 'in/T1', 'a/tumor/b', 'p/case_T1.x', 'data/T1']);
    // The same texts through the template engine itself.
    const values: Record<string, string> = { sample: 'T1', tissue: 'tumor', group: 'case' };
    expect(jobs[2]!.inputs).toEqual(['{sample}', '{sample}.fq', 'in/{sample}', 'a/{tissue}/b', 'p/{group}_{sample}.x', '{config.d}/{sample}'].map((p) => renderTemplate(compileTemplate(p), { vars: (n) => values[n], config: () => 'data' })));
  });

  it('a name of Object.prototype ({constructor}, {toString}) is a name nothing fills, not a crash', () => {
    const { jobs, diagnostics } = expand(wf({ sampleGroups: groups, rules: [{ name: 'r', input: ['raw/{sample}.fq'], output: ['o/{constructor}.txt', 'p/{toString}_{sample}.txt'], shell: 'x {input} > {output}' }] }));
    expect(jobs).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.message.slice(0, 36)])).toEqual([
      ['E021', '`{constructor}` in rule r has no sou'],
      ['E021', '`{toString}` in rule r has no source'],
    ]);
  });

  it('expands 100,000 jobs without trouble', () => {
    const samples = Array.from({ length: 100_000 }, (_, i) => `S${i}`);
    const { jobs } = expand(wf({ sampleGroups: [{ name: 'all', samples, metadata: {} }], rules: [{ name: 'r', input: ['raw/{sample}.fq'], output: ['o/{sample}.txt'], shell: 'cp {input} {output}' }] }));
    expect(jobs.length).toBe(100_000);
    expect(jobs[99_999]!.shownCommand).toBe('cp raw/S99999.fq o/S99999.txt');
  });
});
