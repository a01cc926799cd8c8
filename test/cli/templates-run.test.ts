// Every `init` template runs to completion on a 2-core machine without conda, through the built CLI:
// environments are used only where their program is installed (`--env auto`: conda is not, so one
// notice per rule), threads above the 2 cores and memory above 4G are capped with a notice, and
// the bioinformatics tools are stand-ins (test/helpers/tool-stub.cjs) that write the declared outputs
// of the job that called them, since init's placeholder data is no real sequencing data. Shell
// utilities (cat, sort, cut, grep, awk…) are the real ones. A second run has nothing to do.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/workflow/templates/index.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const TOOLS = ['bamCoverage', 'bcftools', 'bedtools', 'bowtie2', 'bwa-mem2', 'csvtk', 'cutadapt', 'fastp', 'fastqc', 'gatk', 'macs3', 'mosdepth', 'multiqc', 'qiime', 'salmon', 'samtools', 'seqkit', 'STAR'];

const work = tempDir('oxo-templates-run-');
const stubs = path.join(work, 'stub-bin');
mkdirSync(stubs);
for (const tool of TOOLS) {
  copyFileSync(path.resolve(__dirname, '../helpers/tool-stub.cjs'), path.join(stubs, tool));
  chmodSync(path.join(stubs, tool), 0o755);
}
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** No conda, mamba, pixi, docker or apptainer: the stubs, then the system's own programs. */
const PATH = `${stubs}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
const SMALL = ['--cores', '2', '--memory', '4G', '--env', 'auto'];

describe.each(TEMPLATES.map((t) => t.name))('template %s', (name) => {
  it('runs to completion on 2 cores without conda, and a second run does nothing', () => {
    expect(runCli(['init', name, '-t', name], { cwd: work }).code).toBe(0);
    const dir = path.join(work, name);
    const env = { PATH, OXO_STUB_MANIFEST: path.join(dir, 'stub-manifest.json'), OXO_STUB_LOG: path.join(dir, 'stub-calls.log') };
    const dry = runCliJson(['dry-run', ...SMALL], { cwd: dir, env });
    expect(dry.code, dry.stderr).toBe(0);
    const jobs = dry.json.jobs as { id: string; status: string; command: string; outputs: string[]; environment: unknown }[];
    writeFileSync(env.OXO_STUB_MANIFEST, JSON.stringify(jobs.map((j) => ({ id: j.id, command: j.command, outputs: j.outputs }))));
    const planned = jobs.filter((j) => j.status === 'run').map((j) => j.id);

    const run = runCliJson(['run', ...SMALL], { cwd: dir, env });
    expect(run.code, `${run.stderr}\n${JSON.stringify(run.json.diagnostics)}`).toBe(0);
    const results = run.json.jobs as { id: string; outcome: string }[];
    expect(results.map((r) => r.id).sort()).toEqual([...planned].sort());
    expect(results.every((r) => r.outcome === 'done')).toBe(true);
    // Notices only, at most one per rule and code: capping and environments switched off.
    const notes = run.json.diagnostics as { code: string; severity: string; rule?: string }[];
    for (const d of notes) expect(['RUN015', 'RUN016', 'RUN017'], d.code).toContain(d.code);
    const keys = notes.map((d) => `${d.code} ${d.rule}`);
    expect(new Set(keys).size).toBe(keys.length);
    // The dry-run said the same, and no job kept an environment it cannot have here.
    expect((dry.json.diagnostics as { code: string }[]).map((d) => d.code).sort()).toEqual(notes.map((d) => d.code).sort());
    expect(jobs.every((j) => j.environment === null)).toBe(true);

    const again = runCliJson(['dry-run', ...SMALL], { cwd: dir, env });
    expect((again.json.jobs as { status: string }[]).filter((j) => j.status === 'run')).toEqual([]);
    const second = runCliJson(['run', ...SMALL], { cwd: dir, env });
    expect(second.code).toBe(0);
    expect(second.json.jobs).toEqual([]);
    // Each stand-in call came from a job of the plan (the stub found the job by its command).
    const calls = existsSync(env.OXO_STUB_LOG) ? readFileSync(env.OXO_STUB_LOG, 'utf8').trim().split('\n') : [];
    const usesTools = jobs.some((j) => TOOLS.some((t) => new RegExp(`(^|[\\s;|&(])${t}\\s`).test(j.command)));
    expect(calls.length > 0).toBe(usesTools);
  }, 240_000);
});
