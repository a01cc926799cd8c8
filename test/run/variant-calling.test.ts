// Acceptance 2 (and issue 19's): examples/variant-calling run for real (fastp, bwa mem, samtools,
// bcftools, multiqc) from a project folder of its own, against the pipeline in examples/, with the
// project's per-sample sheet and config file, on data the example's own script generates: the planted
// SNPs are called in every sample and jointly per group, and after one sample's reads change only that
// sample's chain (and the group's joint call and the report) reruns.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { doneJobs, exampleProject, snapshot } from '../helpers/example-project.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools } from '../helpers/tools.js';

const tools = requireTools(['fastp', 'bwa', 'samtools', 'bcftools', 'multiqc'], 'apt-get install fastp bwa samtools bcftools multiqc (or run under CI=true to make this a failure)');

function calledSnps(vcf: string): Set<string> {
  return new Set(
    readFileSync(vcf, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((l) => l.split('\t'))
      .map(([chrom, pos, , ref, alt]) => `${chrom}\t${pos}\t${ref}\t${alt}`),
  );
}

describe.skipIf(tools.skip)('examples/variant-calling with real tools', () => {
  it('calls the planted SNPs in each sample, and reruns only the changed sample', () => {
    expect(tools.missing, 'tools missing under CI=true').toEqual([]);
    const { pipeline, project: dir } = exampleProject('variant-calling');
    const before = snapshot(path.dirname(pipeline));
    const args = ['run', pipeline, '--configfile', 'config.toml', '-j', '2'];
    const truth = readFileSync(path.join(dir, 'truth.tsv'), 'utf8').trim().split('\n');
    expect(truth.length).toBeGreaterThanOrEqual(3);

    const first = runCliJson(args, { cwd: dir, timeoutMs: 280_000 });
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(doneJobs(first.json)).toHaveLength(15);
    for (const s of ['S1', 'S2', 'S3']) {
      const calls = calledSnps(path.join(dir, `results/calls/${s}.vcf`));
      for (const snp of truth) expect(calls.has(snp), `${s} misses ${snp}`).toBe(true);
      // The read group from params (`@RG\tID:{sample}…`) reached bwa with the sample filled in.
      const header = spawnSync('samtools', ['view', '-H', `results/aligned/${s}.bam`], { cwd: dir, encoding: 'utf8' }).stdout;
      expect(header).toContain(`@RG\tID:${s}\tSM:${s}\tPL:ILLUMINA`);
    }
    // The per-group joint call: one column per sample of the group, each planted SNP homozygous in all.
    const joint = readFileSync(path.join(dir, 'results/joint/cohort.vcf'), 'utf8').split('\n');
    expect(joint.find((l) => l.startsWith('#CHROM'))?.split('\t').slice(9)).toEqual(['S1', 'S2', 'S3']);
    for (const snp of truth) {
      const [chrom, pos] = snp.split('\t');
      const row = joint.find((l) => l.startsWith(`${chrom}\t${pos}\t`))?.split('\t');
      expect(row, `joint call misses ${snp}`).toBeDefined();
      expect(row!.slice(9).map((g) => g.split(':')[0])).toEqual(['1/1', '1/1', '1/1']);
    }
    expect(readFileSync(path.join(dir, 'results/multiqc/multiqc_report.html'), 'utf8')).toContain('fastp');

    // New reads for S2 only (same genome, another seed).
    expect(spawnSync(process.execPath, [path.join(path.dirname(pipeline), 'make-data.mjs'), dir, '--only', 'S2', '--seed', '7']).status).toBe(0);
    const second = runCliJson(args, { cwd: dir, timeoutMs: 280_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(doneJobs(second.json)).toEqual(['align[sample=S2]', 'call[sample=S2]', 'fastp[sample=S2]', 'index_bam[sample=S2]', 'joint_call[group=cohort]', 'multiqc'].sort());
    const calls = calledSnps(path.join(dir, 'results/calls/S2.vcf'));
    for (const snp of truth) expect(calls.has(snp)).toBe(true);
    // Nothing was written next to the pipeline.
    expect(snapshot(path.dirname(pipeline))).toEqual(before);
  }, 600_000);
});
