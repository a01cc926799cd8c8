// Issue 19, acceptance 2: examples/chipseq-peaks run for real (fastp, bowtie2, samtools, macs2,
// multiqc) on reads its generator enriches at three planted binding sites: MACS2 finds each site in
// each ChIP/input pair, with its summit near the site's centre, and no peak elsewhere.
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doneJobs, exampleProject, readTsv } from '../helpers/example-project.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools } from '../helpers/tools.js';

const tools = requireTools(['fastp', 'bowtie2', 'bowtie2-build', 'samtools', 'macs2', 'multiqc'], 'apt-get install fastp bowtie2 samtools macs multiqc (or run under CI=true to make this a failure)');

describe.skipIf(tools.skip)('examples/chipseq-peaks with real tools', () => {
  it('calls a peak at every planted site of every ChIP/input pair, and none elsewhere', () => {
    expect(tools.missing, 'tools missing under CI=true').toEqual([]);
    const { pipeline, project } = exampleProject('chipseq-peaks');
    for (const f of ['main.oxoflow']) copyFileSync(path.join(pipeline, f), path.join(project, f));
    const run = runCliJson(['run', '-j', '2', 'genome=ref/genome.fa', 'genome_size=60000'], { cwd: project, timeoutMs: 280_000 });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const samples = ['chip_1', 'chip_2', 'input_1'];
    const pairs = ['chip_1_vs_input', 'chip_2_vs_input'];
    expect(doneJobs(run.json)).toHaveLength(1 + 3 * samples.length + pairs.length + 1);

    const sites = readTsv(path.join(project, 'truth.bed')).map(([, s, e]) => ({ start: Number(s), end: Number(e) }));
    expect(sites).toHaveLength(3);
    for (const pair of pairs) {
      // narrowPeak: chrom, start, end, name, score, strand, fold, -log10 p, -log10 q, summit offset.
      const peaks = readTsv(path.join(project, `results/peaks/${pair}_peaks.narrowPeak`)).map((c) => ({ start: Number(c[1]), end: Number(c[2]), summit: Number(c[1]) + Number(c[9]), q: Number(c[8]) }));
      for (const site of sites) {
        const hit = peaks.filter((p) => p.start < site.end && site.start < p.end);
        expect(hit, `${pair}: no peak over ${site.start}-${site.end}`).toHaveLength(1);
        const centre = (site.start + site.end) / 2;
        expect(Math.abs(hit[0].summit - centre), `${pair}: summit far from the site`).toBeLessThan(150);
        expect(hit[0].q).toBeGreaterThan(2);
      }
      const stray = peaks.filter((p) => !sites.some((s) => p.start < s.end && s.start < p.end));
      expect(stray, `${pair}: peaks away from every planted site`).toEqual([]);
    }

    expect(existsSync(path.join(project, 'results/multiqc/multiqc_report.html'))).toBe(true);
    for (const [table, names] of [
      ['multiqc_fastp.txt', samples],
      ['multiqc_bowtie2.txt', samples],
      ['multiqc_macs.txt', pairs],
    ] as const) {
      const found = readTsv(path.join(project, 'results/multiqc/multiqc_data', table)).slice(1).map((r) => r[0]).sort();
      expect(found, table).toEqual(names);
    }
  }, 400_000);
});
