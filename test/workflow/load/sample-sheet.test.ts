// sample_groups_file / pairs_file (TSV and CSV sheets next to the workflow) and the rule fields
// temp_output / protected_output, resources.time_limit and retries, through the real loader and
// planner on files in a temp directory.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkflowFile } from '../../../src/workflow/load/index.js';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import { validateWorkflow } from '../../../src/workflow/validate.js';
import { diskFs, tempDir } from '../../helpers/plan-workflow.js';

function load(workflow: string, files: Record<string, string>) {
  const dir = tempDir('oxo-sheet-');
  writeFileSync(path.join(dir, 'main.oxoflow'), workflow);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const loaded = readWorkflowFile(path.join(dir, 'main.oxoflow'), { displayPath: 'main.oxoflow' });
  const diagnostics = loaded.workflow ? [...loaded.diagnostics, ...validateWorkflow(loaded.workflow)] : loaded.diagnostics;
  return { ...loaded, diagnostics, dir };
}

const PER_SAMPLE = '[[rules]]\nname = "qc"\ninput = ["raw/{sample}.fq"]\noutput = ["qc/{group}/{sample}.html"]\nshell = "qc --platform {platform} {input} > {output}"\n';
const PAIRED = '[[rules]]\nname = "call"\ninput = ["b/{experiment}.bam", "b/{control}.bam"]\noutput = ["v/{pair_id}.vcf"]\nshell = "call {input} > {output}"\n';

describe('sample sheets', () => {
  it('a TSV sample_groups_file feeds the same groups as [[sample_groups]], extra columns as metadata', () => {
    const { workflow, diagnostics } = load(`[workflow]\nname = "t"\nsample_groups_file = "samples.tsv"\n\n${PER_SAMPLE}`, {
      'samples.tsv': '# groups\nname\tsamples\tplatform\ntumour\tT1,T2\tillumina\n\nnormal\tN1\tont\n',
    });
    expect(diagnostics).toEqual([]);
    expect(workflow!.sampleGroups.map((g) => [g.name, g.samples, g.metadata])).toEqual([
      ['tumour', ['T1', 'T2'], { platform: 'illumina' }],
      ['normal', ['N1'], { platform: 'ont' }],
    ]);
    const { plan } = planWorkflow(workflow!, {}, diskFs);
    expect(plan!.jobs.map((j) => j.shownCommand)).toEqual([
      'qc --platform illumina raw/T1.fq > qc/tumour/T1.html',
      'qc --platform illumina raw/T2.fq > qc/tumour/T2.html',
      'qc --platform ont raw/N1.fq > qc/normal/N1.html',
    ]);
  });

  it('a CSV pairs_file with quoted cells feeds [[pairs]]; tumor/normal are accepted', () => {
    const { workflow, diagnostics } = load(`[workflow]\nname = "t"\npairs_file = "pairs.csv"\n\n${PAIRED}`, {
      'pairs.csv': 'pair_id,tumor,normal,note\nP1,T1,N1,"first, of two"\r\nP2,T2,N2,second\n',
    });
    expect(diagnostics).toEqual([]);
    expect(workflow!.pairs.map((p) => [p.pairId, p.experiment, p.control, p.metadata])).toEqual([
      ['P1', 'T1', 'N1', { note: 'first, of two' }],
      ['P2', 'T2', 'N2', { note: 'second' }],
    ]);
    expect(planWorkflow(workflow!, {}, diskFs).plan!.jobs.map((j) => j.id)).toEqual(['call[control=N1,experiment=T1,pair_id=P1]', 'call[control=N2,experiment=T2,pair_id=P2]']);
  });

  it('a bad row is E039 at sheet:line; a missing sheet or column says which', () => {
    const bad = load(`[workflow]\nname = "t"\npairs_file = "pairs.tsv"\n\n${PAIRED}`, { 'pairs.tsv': 'pair_id\texperiment\tcontrol\nP1\tT1\tN1\nP2\tT2\n\tT3\tN3\n' });
    expect(bad.diagnostics.filter((d) => d.code === 'E039').map((d) => [d.file, d.line])).toEqual([
      ['pairs.tsv', 3],
      ['pairs.tsv', 4],
    ]);
    expect(bad.diagnostics[0]!.message).toBe('the row has 2 cells, the header 3');
    const missing = load(`[workflow]\nname = "t"\nsample_groups_file = "nope.tsv"\n`, {});
    expect(missing.diagnostics).toMatchObject([{ code: 'E039', line: 3, message: 'workflow.sample_groups_file "nope.tsv" cannot be read: no such file' }]);
    const header = load(`[workflow]\nname = "t"\nsample_groups_file = "s.tsv"\n`, { 's.tsv': 'group\tsamples\ng\tS1\n' });
    expect(header.diagnostics).toMatchObject([{ code: 'E039', file: 's.tsv', line: 1 }]);
  });

  it('names in a sheet follow the inline rules: E030 at the row, E034 for a pair without the control a rule uses', () => {
    const r = load(`[workflow]\nname = "t"\nsample_groups_file = "s.tsv"\npairs_file = "p.tsv"\n\n${PER_SAMPLE}${PAIRED}`, {
      's.tsv': 'name\tsamples\tplatform\ng\tS1,../x\till\n',
      'p.tsv': 'pair_id\texperiment\tcontrol\nP1\tT1\t\n',
    });
    expect(r.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['E030', 's.tsv', 2],
      ['E034', 'p.tsv', 2],
    ]);
  });
});

describe('output lifecycles and run settings in the plan', () => {
  const RULES =
    '[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n\n' +
    '[[rules]]\nname = "align"\ninput = ["raw/{sample}.fq"]\noutput = ["bam/{sample}.bam"]\ntemp_output = ["tmp/{sample}.sam"]\n' +
    'shell = "bwa {input} > tmp/{sample}.sam && sort tmp/{sample}.sam > {output[0]}"\nretries = 2\n[rules.resources]\ntime_limit = "1h30m"\n\n' +
    '[[rules]]\nname = "index"\noutput = ["ref/genome.idx"]\nprotected_output = ["ref/genome.idx"]\nshell = "index > {output}"\n';

  it('temp_output and protected_output are outputs, rendered per job; retries and time_limit reach the JobSpec', () => {
    const { workflow, diagnostics } = load(`[workflow]\nname = "t"\n\n${RULES}`, {});
    expect(diagnostics).toEqual([]);
    const jobs = planWorkflow(workflow!, {}, diskFs).plan!.jobs;
    const align = jobs.find((j) => j.rule === 'align')!;
    expect(align.outputs).toEqual(['bam/S1.bam', 'tmp/S1.sam']);
    expect(align.tempOutputs).toEqual(['tmp/S1.sam']);
    expect(align.protectedOutputs).toEqual([]);
    expect(align.retries).toBe(2);
    expect(align.timeLimitSeconds).toBe(5400);
    const index = jobs.find((j) => j.rule === 'index')!;
    expect(index.outputs).toEqual(['ref/genome.idx']);
    expect(index.protectedOutputs).toEqual(['ref/genome.idx']);
    expect(index.tempOutputs).toEqual([]);
    expect(index.timeLimitSeconds).toBeUndefined();
  });

  it('a rule that would overwrite a protected output is E040', () => {
    const { diagnostics } = load(`[workflow]\nname = "t"\n\n${RULES}\n[[rules]]\nname = "rebuild"\noutput = ["ref/genome.idx"]\nshell = "index > {output}"\n`, {});
    expect(diagnostics.map((d) => [d.code, d.rule])).toEqual([['E040', 'rebuild']]);
    expect(diagnostics[0]!.message).toBe('rule rebuild writes ref/genome.idx, a protected_output of rule index');
  });

  it('the shown command and env mask sensitive values while the job gets them', () => {
    const { workflow } = load(`[workflow]\nname = "t"\n\n[config]\nkey = { default = "s3cr3t-key", sensitive = true }\n\n[[rules]]\nname = "get"\noutput = ["d/s3cr3t-key.txt"]\nshell = "get --key {config.key} > {output}"\n`, {});
    const job = planWorkflow(workflow!, {}, diskFs).plan!.jobs[0]!;
    expect(job.command).toBe('get --key "${OXO_CONFIG_KEY}" > "${OXO_OUTPUT_0}"');
    expect(job.env).toEqual({ OXO_CONFIG_KEY: 's3cr3t-key', OXO_OUTPUT_0: 'd/s3cr3t-key.txt' });
    // Also where the value reached the command another way (a path written with it).
    expect(job.shownCommand).toBe("get --key '***' > d/***.txt");
    expect(job.shownEnv).toEqual({ OXO_CONFIG_KEY: '***', OXO_OUTPUT_0: 'd/***.txt' });
    expect(JSON.stringify(job)).not.toContain('--key s3cr3t-key');
    expect(JSON.stringify(job)).not.toContain(':"s3cr3t-key"');
  });
});
