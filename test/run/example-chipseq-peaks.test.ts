// Issue 19, acceptance 2: examples/chipseq-peaks run for real (fastp, bowtie2, samtools, macs2,
// multiqc) for a project folder named with -d, against the pipeline in examples/, with the project's
// per-sample sheet, pairs sheet and JSON config file. The reads are enriched at three planted binding
// sites: MACS2 finds each site in each ChIP/input pair, with its summit near the site's centre, and
// no peak elsewhere.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doneJobs, exampleProject, firstColumn, readTsv, snapshot } from '../helpers/example-project.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools } from '../helpers/tools.js';

const tools = requireTools(['fastp', 'bowtie2', 'bowtie2-build', 'samtools', 'macs2', 'multiqc'], 'apt-get install fastp bowtie2 samtools macs multiqc (or run under CI=true to make this a failure)');

describe.skipIf(tools.skip)('examples/chipseq-peaks with real tools, for a project folder', () => {
  it('calls a peak at every planted site of every ChIP/input pair, and none elsewhere', () => {
    expect(tools.missing, 'tools missing under CI=true').toEqual([]);
    const { pipeline, project } = exampleProject('chipseq-peaks');
    const before = snapshot(path.dirname(pipeline));
    // Run from the pipeline's folder, naming the project with -d (the config file is relative to here).
    const run = runCliJson(['run', 'main.oxoflow', '-d', project, '--configfile', path.join(project, 'config.json'), '-j', '2'], { cwd: path.dirname(pipeline), timeoutMs: 280_000 });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const samples = ['chip_1', 'chip_2', 'input_1'];
    const pairs = ['chip_1_vs_input', 'chip_2_vs_input'];
    // bowtie2_index, then fastp, align and index_bam per sample, callpeak per pair, multiqc.
    expect(doneJobs(run.json)).toHaveLength(1 + 3 * samples.length + pairs.length + 1);
    expect(doneJobs(run.json)).toContain('callpeak[control=input_1,experiment=chip_2,pair_id=chip_2_vs_input]');

    const sites = readTsv(path.join(project, 'truth.bed')).map(([, s, e]) => ({ start: Number(s), end: Number(e) }));
    expect(sites).toHaveLength(3);
    for (const pair of pairs) {
      // narrowPeak: chrom, start, end, name, score, strand, fold, -log10 p, -log10 q, summit offset.
      const peaks = readTsv(path.join(project, `results/peaks/${pair}_peaks.narrowPeak`)).map((c) => ({ start: Number(c[1]), end: Number(c[2]), summit: Number(c[1]) + Number(c[9]), q: Number(c[8]) }));
      for (const site of sites) {
        const hit = peaks.filter((p) => p.start < site.end && site.start < p.end);
        expect(hit, `${pair}: no peak over ${site.start}-${site.end}`).toHaveLength(1);
        const centre = (site.start + site.end) / 2;
        expect(Math.abs((hit[0]?.summit ?? Number.NaN) - centre), `${pair}: summit far from the site`).toBeLessThan(150);
        expect(hit[0]?.q).toBeGreaterThan(2);
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
      expect(firstColumn(path.join(project, 'results/multiqc/multiqc_data', table)), table).toEqual(names);
    }
    // Nothing was written next to the pipeline, although the run started there.
    expect(snapshot(path.dirname(pipeline))).toEqual(before);
    expect(existsSync(path.join(project, '.oxo-flow'))).toBe(true);
  }, 400_000);
});
