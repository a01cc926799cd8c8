// Issue 19, acceptance 2: examples/rnaseq-counts run for real (fastp, hisat2, samtools, featureCounts,
// multiqc) on the reads its generator simulates with known fragments per gene: every gene's count
// in the merged matrix matches the simulation, with one column per sample of the sheet.
import { copyFileSync, cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doneJobs, exampleProject, readTsv } from '../helpers/example-project.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools } from '../helpers/tools.js';

const tools = requireTools(['fastp', 'hisat2', 'hisat2-build', 'samtools', 'featureCounts', 'multiqc'], 'apt-get install fastp hisat2 samtools subread multiqc (or run under CI=true to make this a failure)');

describe.skipIf(tools.skip)('examples/rnaseq-counts with real tools', () => {
  it('counts each gene as simulated, merges one column per sample, and reports with MultiQC', () => {
    expect(tools.missing, 'tools missing under CI=true').toEqual([]);
    const { pipeline, project } = exampleProject('rnaseq-counts');
    copyFileSync(path.join(pipeline, 'main.oxoflow'), path.join(project, 'main.oxoflow'));
    cpSync(path.join(pipeline, 'scripts'), path.join(project, 'scripts'), { recursive: true });
    const args = ['run', '-j', '2', 'genome=ref/genome.fa', 'annotation=ref/genes.gtf'];

    const first = runCliJson(args, { cwd: project, timeoutMs: 280_000 });
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const samples = ['ctrl_1', 'ctrl_2', 'treat_1', 'treat_2'];
    expect(doneJobs(first.json)).toHaveLength(1 + 3 * samples.length + 2);

    // truth.tsv: gene_id, then the fragments simulated for each sample.
    const [truthHeader, ...truth] = readTsv(path.join(project, 'truth.tsv'));
    const [header, ...rows] = readTsv(path.join(project, 'results/counts/gene_counts.tsv'));
    expect(header).toEqual(['gene_id', ...samples]);
    expect(truthHeader).toEqual(header);
    expect(rows.map((r) => r[0])).toEqual(truth.map((r) => r[0]));
    for (const [i, row] of rows.entries()) {
      for (let k = 1; k <= samples.length; k++) {
        const simulated = Number(truth[i][k]);
        const counted = Number(row[k]);
        // Each simulated fragment is counted once, unless trimming or alignment loses it.
        expect(counted, `${row[0]} in ${header[k]}`).toBeLessThanOrEqual(simulated);
        expect(counted, `${row[0]} in ${header[k]}`).toBeGreaterThanOrEqual(Math.floor(simulated * 0.95));
      }
    }
    // The planted changes: gene_b up 4x and gene_d down 4x in the treated samples.
    const count = (gene: string, sample: string) => Number(rows.find((r) => r[0] === gene)![header.indexOf(sample)]);
    expect(count('gene_b', 'treat_1') / count('gene_b', 'ctrl_1')).toBeGreaterThan(3);
    expect(count('gene_d', 'ctrl_2') / count('gene_d', 'treat_2')).toBeGreaterThan(3);
    expect(count('gene_f', 'ctrl_1')).toBe(0);

    // MultiQC found every tool's output for every sample.
    expect(existsSync(path.join(project, 'results/multiqc/multiqc_report.html'))).toBe(true);
    for (const table of ['multiqc_fastp.txt', 'multiqc_hisat2.txt', 'multiqc_featureCounts.txt']) {
      const names = readTsv(path.join(project, 'results/multiqc/multiqc_data', table)).slice(1).map((r) => r[0]).sort();
      expect(names, table).toEqual(samples);
    }

    // Nothing changed: a second run does nothing.
    const second = runCliJson(args, { cwd: project, timeoutMs: 120_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(doneJobs(second.json)).toEqual([]);
    expect(readFileSync(path.join(project, 'results/counts/gene_counts.tsv'), 'utf8')).toContain('gene_a');
  }, 400_000);
});
