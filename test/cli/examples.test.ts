// The pipelines under examples/ (docs/examples.md), without their tools: each validates and lints
// clean with no project (its required settings are noted, W028), refuses to dry-run without them
// naming each (E037), and plans the expected jobs for a project its generator writes, from the
// project's sheet and config file. The runs themselves, with real tools, are in test/run/example-*.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleProject, snapshot } from '../helpers/example-project.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const CASES = [
  {
    example: 'variant-calling',
    configFile: 'config.toml',
    required: ['samplesheet', 'reference'],
    jobs: ['index_reference', 'fastp[sample=S1]', 'align[sample=S2]', 'call[sample=S3]', 'joint_call[group=cohort]', 'multiqc'],
    count: 1 + 4 * 3 + 1 + 1,
  },
  {
    example: 'rnaseq-counts',
    configFile: 'config.yaml',
    required: ['samplesheet', 'genome', 'annotation'],
    jobs: ['hisat2_index', 'fastp[sample=ctrl_1]', 'align[sample=treat_2]', 'count[sample=ctrl_2]', 'merge_counts', 'multiqc'],
    count: 1 + 3 * 4 + 2,
  },
  {
    example: 'chipseq-peaks',
    configFile: 'config.json',
    required: ['samplesheet', 'pairs', 'genome', 'genome_size'],
    jobs: ['bowtie2_index', 'fastp[sample=input_1]', 'callpeak[control=input_1,experiment=chip_1,pair_id=chip_1_vs_input]', 'multiqc'],
    count: 1 + 3 * 3 + 2 + 1,
  },
];

describe.each(CASES)('examples/$example', ({ example, configFile, required, jobs, count }) => {
  it('validates and lints without a project, noting the settings a project must give', () => {
    const pipeline = path.resolve(__dirname, '../../examples', example, 'main.oxoflow');
    const v = runCliJson(['validate', pipeline]);
    expect(v.code, v.stdout).toBe(0);
    const noted = (v.json.diagnostics as { code: string; message: string }[]).filter((d) => d.code === 'W028').map((d) => d.message.split(' ')[0]);
    expect(noted).toEqual(required.map((k) => `config.${k}`));
    const lint = runCliJson(['lint', pipeline]);
    expect(lint.code, lint.stdout).toBe(0);
    expect((lint.json.diagnostics as { severity: string }[]).filter((d) => d.severity !== 'info'), lint.stdout).toEqual([]);
    const dry = runCli(['dry-run', pipeline]);
    expect(dry.code).toBe(1);
    for (const k of required) expect(dry.stdout + dry.stderr).toContain(`E037: config.${k} `);
  });

  it('plans every job for a generated project from its sheet and config file; the generator is deterministic', () => {
    const { pipeline, project } = exampleProject(example);
    // The same bytes every time: a second project from the same generator is identical.
    const again = exampleProject(example).project;
    const digests = (dir: string) => snapshot(dir).map((line) => line.split(' ')[0] ?? '').map((f) => `${f} ${createHash('sha256').update(readFileSync(path.join(dir, f))).digest('hex')}`);
    expect(digests(again)).toEqual(digests(project));
    const dry = runCliJson(['dry-run', pipeline, '-d', project, '--configfile', path.join(project, configFile)]);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    const ids = (dry.json.jobs as { id: string }[]).map((j) => j.id);
    expect(ids).toHaveLength(count);
    for (const id of jobs) expect(ids).toContain(id);
  });
});
