// Issue 19, acceptance 2: examples/rnaseq-counts run for real (fastp, hisat2, samtools, featureCounts,
// a Python merge script, multiqc) from a project folder of its own, against the pipeline in
// examples/, with the project's per-sample sheet and config file. The reads are simulated with known
// fragments per gene: every gene's count in the merged matrix matches the simulation, with one
// column per sample of the sheet; a KEY=VALUE beats the config file and reruns only what it changes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doneJobs, exampleProject, firstColumn, readTsv, snapshot } from '../helpers/example-project.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools, toolsRequired } from '../helpers/tools.js';

const tools = requireTools(['fastp', 'hisat2', 'hisat2-build', 'samtools', 'featureCounts', 'multiqc', 'python3'], 'apt-get install fastp hisat2 samtools subread multiqc python3 (or run under CI=true to make this a failure)');
const SAMPLES = ['ctrl_1', 'ctrl_2', 'treat_1', 'treat_2'];

// The same pipeline through a real single-node Slurm (scripts/slurm-up.sh), as test/run/slurm.test.ts finds it.
const SLURM_CONF = process.env.SLURM_CONF ?? (existsSync('/tmp/oxo-slurm/slurm.conf') ? '/tmp/oxo-slurm/slurm.conf' : undefined);
const slurmEnv = SLURM_CONF ? { SLURM_CONF } : {};
const HOW_SLURM = 'run `sudo scripts/slurm-up.sh` and `export SLURM_CONF=/tmp/oxo-slurm/slurm.conf` (or run under CI=true to make this a failure)';
const slurmTools = requireTools(['sbatch', 'squeue', 'scancel', 'sinfo'], HOW_SLURM);
const slurmAnswers = !slurmTools.skip && spawnSync('sinfo', ['-h'], { env: { ...process.env, ...slurmEnv } }).status === 0;
if (!slurmTools.skip && !slurmAnswers && !toolsRequired()) console.warn(`skipped: Slurm does not answer. To enable: ${HOW_SLURM}`);
const slurmSkip = tools.skip || slurmTools.skip || (!slurmAnswers && !toolsRequired());

/** The merged matrix as gene → sample → count, after checking its header. */
function matrix(project: string): Map<string, Map<string, number>> {
  const [header, ...rows] = readTsv(path.join(project, 'results/counts/gene_counts.tsv'));
  expect(header).toEqual(['gene_id', ...SAMPLES]);
  return new Map(rows.map(([gene, ...counts]) => [gene ?? '', new Map(SAMPLES.map((s, k) => [s, Number(counts[k])]))]));
}

describe.skipIf(tools.skip)('examples/rnaseq-counts with real tools, from a project folder', () => {
  it('counts each gene as simulated, merges one column per sample, and reports with MultiQC', () => {
    expect(tools.missing, 'tools missing under CI=true').toEqual([]);
    const { pipeline, project } = exampleProject('rnaseq-counts');
    const before = snapshot(path.dirname(pipeline));

    const first = runCliJson(['run', pipeline, '--configfile', 'config.yaml', '-j', '2'], { cwd: project, timeoutMs: 280_000 });
    expect(first.code, first.stderr + first.stdout).toBe(0);
    // hisat2_index, then fastp, align and count per sample, then merge_counts and multiqc.
    expect(doneJobs(first.json)).toHaveLength(1 + 3 * SAMPLES.length + 2);

    // truth.tsv: gene_id, then the fragments simulated for each sample.
    const [truthHeader, ...truth] = readTsv(path.join(project, 'truth.tsv'));
    expect(truthHeader).toEqual(['gene_id', ...SAMPLES]);
    const counts = matrix(project);
    expect([...counts.keys()]).toEqual(truth.map((r) => r[0]));
    for (const [gene, ...simulated] of truth) {
      for (const [k, sample] of SAMPLES.entries()) {
        const expected = Number(simulated[k]);
        const counted = counts.get(gene ?? '')?.get(sample);
        // Each simulated fragment is counted once, unless trimming or alignment loses it.
        expect(counted, `${gene} in ${sample}`).toBeLessThanOrEqual(expected);
        expect(counted, `${gene} in ${sample}`).toBeGreaterThanOrEqual(Math.floor(expected * 0.95));
      }
    }
    // The planted changes: gene_b up 4x and gene_d down 4x in the treated samples; gene_f silent.
    const count = (gene: string, sample: string) => counts.get(gene)?.get(sample) ?? Number.NaN;
    expect(count('gene_b', 'treat_1') / count('gene_b', 'ctrl_1')).toBeGreaterThan(3);
    expect(count('gene_d', 'ctrl_2') / count('gene_d', 'treat_2')).toBeGreaterThan(3);
    expect(count('gene_f', 'ctrl_1')).toBe(0);

    // MultiQC found every tool's output for every sample.
    expect(existsSync(path.join(project, 'results/multiqc/multiqc_report.html'))).toBe(true);
    for (const table of ['multiqc_fastp.txt', 'multiqc_hisat2.txt', 'multiqc_featureCounts.txt']) {
      expect(firstColumn(path.join(project, 'results/multiqc/multiqc_data', table)), table).toEqual(SAMPLES);
    }
    // Everything was written in the project folder; the pipeline folder is as it was.
    for (const made of ['results', 'logs', '.oxo-flow']) expect(existsSync(path.join(project, made)), made).toBe(true);
    expect(snapshot(path.dirname(pipeline))).toEqual(before);

    // From elsewhere with -d, the same config file and strandedness=1 on the command line: the
    // override wins, so only the counts (and what reads them) run again, and the reverse-stranded
    // reads count as antisense: nothing is assigned.
    const second = runCliJson(['run', pipeline, '-d', project, '--configfile', path.join(project, 'config.yaml'), 'strandedness=1', '-j', '2'], { cwd: tempDir('oxo-elsewhere-'), timeoutMs: 280_000 });
    expect(second.code, second.stderr + second.stdout).toBe(0);
    expect(doneJobs(second.json)).toEqual([...SAMPLES.map((s) => `count[sample=${s}]`), 'merge_counts', 'multiqc'].sort());
    for (const [gene, bySample] of matrix(project)) for (const s of SAMPLES) expect(bySample.get(s), `${gene} in ${s} with -s 1`).toBe(0);
    expect(snapshot(path.dirname(pipeline))).toEqual(before);
  }, 600_000);

  it.skipIf(slurmSkip)('gives the same matrix through Slurm, with the script found next to the pipeline', () => {
    expect([...tools.missing, ...slurmTools.missing], 'tools missing under CI=true').toEqual([]);
    const { pipeline, project } = exampleProject('rnaseq-counts');
    const run = runCliJson(['run', pipeline, '--configfile', 'config.yaml', '--executor', 'slurm', '--poll-interval', '1s', '-j', '4'], { cwd: project, env: slurmEnv, timeoutMs: 280_000 });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(doneJobs(run.json)).toHaveLength(1 + 3 * SAMPLES.length + 2);
    // The merge is a script rule: its file is in examples/, its job's JSON in the project, read on the node.
    expect(existsSync(path.join(project, '.oxo-flow/logs/merge_counts.json'))).toBe(true);
    const truth = readTsv(path.join(project, 'truth.tsv')).slice(1);
    const counts = matrix(project);
    expect([...counts.keys()]).toEqual(truth.map((r) => r[0]));
    for (const [gene, ...simulated] of truth) {
      for (const [k, sample] of SAMPLES.entries()) expect(counts.get(gene ?? '')?.get(sample), `${gene} in ${sample}`).toBeGreaterThanOrEqual(Math.floor(Number(simulated[k]) * 0.95));
    }
  }, 400_000);
});
