// Property: whatever a sample name, a config value (from the file or a KEY=VALUE override) or a
// params value holds (its own {sample} and {config.v} filled in), the script the planner renders, run by a real POSIX shell with the job's
// environment, gets it back as exactly that text, one word, wherever the placeholder sits (bare,
// inside "…"). Inside '…' no value is safe: that is a validation error (E041, shell-contexts tests).
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unusableName } from '../../../src/workflow/checks/index.js';
import { loadWorkflow } from '../../../src/workflow/load/index.js';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import { emptyFs, makeWorkflow } from '../../helpers/plan-workflow.js';

/** The words a shell command prints with `printf '%s\0'`, split back. */
function shellWords(command: string, env: Readonly<Record<string, string>> = {}): string[] {
  const r = spawnSync('sh', ['-c', command], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

// Printable ASCII, shell metacharacters, controls, and some non-ASCII (incl. bidi overrides). A NUL
// can never reach a command (an argv string cannot hold one), so it is left out.
const hostile = fc.constantFrom(...`'"\\$\`;|&<>(){}[]*?~!#= \t\n-/.%@:,+^`.split(''), 'é', '名', '\u202e', '\u0007', '\u001b', '{sample}', '{config.v}', "'\\''", '$(id)');
const text = fc.array(fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 3 }), hostile), { maxLength: 12 }).map((parts) => parts.join(''));
const sampleName = text.filter((s) => unusableName(s) === undefined);
// A config value may hold tabs and newlines but no other control character (E043).
const configValue = text.filter((s) => !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(s));

// Each value twice: bare and in the user's double quotes.
const SHELL = `printf '%s\\0' {sample} "{sample}" {config.v} "{config.v}" {params.p} "{params.p}"`;

function commandFor(sample: string, value: string, param: string, viaOverride: boolean): { command: string; env: Readonly<Record<string, string>> } {
  const workflow = makeWorkflow({
    config: { v: viaOverride ? 'from-the-file' : value },
    sampleGroups: [{ name: 'g', samples: [sample], metadata: {} }],
    rules: [{ name: 'echo', output: ['out/{sample}.txt'], shell: SHELL, params: { p: param } }],
  });
  const { plan, diagnostics } = planWorkflow(workflow, viaOverride ? { overrides: [`v=${value}`] } : {}, emptyFs);
  expect(diagnostics).toEqual([]);
  const job = plan!.jobs[0]!;
  return { command: job.command, env: job.env };
}

describe('every substituted value reaches the shell as one literal word', () => {
  it('sample names, config values, overrides and params, in every quoting context', () => {
    fc.assert(
      fc.property(sampleName, configValue, text, fc.boolean(), (sample, value, param, viaOverride) => {
        const { command, env } = commandFor(sample, value, param, viaOverride);
        // The script holds no value: only references to the job's variables.
        expect(command).toBe(`printf '%s\\0' "\${OXO_SAMPLE}" "\${OXO_SAMPLE}" "\${OXO_CONFIG_V}" "\${OXO_CONFIG_V}" "\${OXO_PARAMS_P}" "\${OXO_PARAMS_P}"`);
        // A params value is a template too: its {sample} and {config.v} are filled (never `${…}`).
        const filled = param.replace(/(?<!\$)\{(sample|config\.v)\}/g, (_m, name: string) => (name === 'sample' ? sample : value));
        expect(shellWords(command, env)).toEqual([sample, sample, value, value, filled, filled]);
      }),
      { numRuns: 60 },
    );
  });

  it('the issue\'s repro: samples ["x; rm -rf ~", "$(id)"] with shell "echo {sample} done"', () => {
    const workflow = makeWorkflow({
      sampleGroups: [{ name: 'g', samples: ['x; rm -rf ~', '$(id)'], metadata: {} }],
      rules: [{ name: 'e', output: ['o/{sample}'], shell: 'echo {sample} done' }],
    });
    const jobs = planWorkflow(workflow, {}, emptyFs).plan!.jobs;
    expect(jobs.map((j) => j.command)).toEqual(['echo "${OXO_SAMPLE}" done', 'echo "${OXO_SAMPLE}" done']);
    expect(jobs.map((j) => j.shownCommand)).toEqual(["echo 'x; rm -rf ~' done", "echo '$(id)' done"]);
    expect(shellWords(jobs[0]!.command.replace(/^echo/, "printf '%s\\0'"), jobs[0]!.env)).toEqual(['x; rm -rf ~', 'done']);
    expect(shellWords(jobs[1]!.command.replace(/^echo/, "printf '%s\\0'"), jobs[1]!.env)).toEqual(['$(id)', 'done']);
  });

  it('plain values stay unquoted in the shown command, so ordinary commands read as written', () => {
    const workflow = makeWorkflow({
      config: { ref: '/ref/hg38.fa' },
      sampleGroups: [{ name: 'g', samples: ['S1'], metadata: {} }],
      rules: [{ name: 'e', input: ['raw/{sample}.fq'], output: ['o/{sample}.bam'], shell: 'bwa mem {config.ref} {input} > {output}' }],
    });
    const job = planWorkflow(workflow, {}, emptyFs).plan!.jobs[0]!;
    expect(job.shownCommand).toBe('bwa mem /ref/hg38.fa raw/S1.fq > o/S1.bam');
    expect(job.command).toBe('bwa mem "${OXO_CONFIG_REF}" "${OXO_INPUT_0}" > "${OXO_OUTPUT_0}"');
  });
});

describe('values from sample sheets and from file names found on disk reach the job as data', () => {
  // A sheet cell holds no tab, comma or newline (they separate cells and names); a file name no "/".
  const cell = sampleName.filter((s) => !/[\t,\n\r]/.test(s) && s.trim() === s && !s.startsWith('#'));

  it('a sample name and a metadata cell from a TSV sheet', () => {
    fc.assert(
      // The samples column is a list split on commas, semicolons and spaces.
      fc.property(cell.filter((s) => !/[\s;]/.test(s)), cell, (sample, note) => {
        const sheet = `name\tsamples\tnote\ng\t${sample}\t${note}\n`;
        const text = '[workflow]\nname = "t"\nsample_groups_file = "s.tsv"\n\n[[rules]]\nname = "e"\noutput = ["o/{sample}.txt"]\nshell = "printf \'%s\\\\0\' {sample} \\"{note}\\" > {output}"\n';
        const loaded = loadWorkflow(text, 'main.oxoflow', { readSheet: () => ({ text: sheet }) });
        expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const { plan, diagnostics } = planWorkflow(loaded.workflow!, {}, emptyFs);
        expect(diagnostics).toEqual([]);
        const job = plan!.jobs[0]!;
        expect(job.command).toBe(`printf '%s\\0' "\${OXO_SAMPLE}" "\${OXO_NOTE}" > "\${OXO_OUTPUT_0}"`);
        expect(shellWords(job.command.replace(/ > .*$/, ''), job.env)).toEqual([sample, note]);
      }),
      { numRuns: 60 },
    );
  });

  it('a sample name captured by sample_pattern from a file name', () => {
    const fileName = sampleName.filter((s) => !/\s/.test(s) && s.trim() === s);
    fc.assert(
      fc.property(fileName, (sample) => {
        const text = '[workflow]\nname = "t"\nsample_pattern = "raw/{sample}.fq"\n\n[[rules]]\nname = "e"\ninput = ["raw/{sample}.fq"]\noutput = ["o/{sample}.txt"]\nshell = "printf \'%s\\\\0\' {sample} {input}"\n';
        const loaded = loadWorkflow(text, 'main.oxoflow', { dir: '/project' });
        const fs = { stat: () => undefined, list: (d: string) => (d === '/project/raw' ? [`${sample}.fq`] : undefined) };
        const { plan, diagnostics } = planWorkflow(loaded.workflow!, {}, fs);
        expect(diagnostics).toEqual([]);
        const job = plan!.jobs[0]!;
        expect(shellWords(job.command, job.env)).toEqual([sample, `raw/${sample}.fq`]);
      }),
      { numRuns: 60 },
    );
  });
});
