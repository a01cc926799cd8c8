// The loader on the constructs real workflows use (written here, modelled on the gallery), plus
// positions, aliases, memory units, config forms, and robustness (random input, 10,000 rules).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWorkflow } from '../../../src/workflow/checks/index.js';
import { lintWorkflow } from '../../../src/workflow/lint/index.js';
import { loadWorkflow, parseMemory } from '../../../src/workflow/load/index.js';
import { indexKeyPositions } from '../../../src/workflow/positions/index.js';

const CORPUS_LIKE = `# every construct the gallery uses
[workflow]
name = "demo"
version = "1.0.0"
description = "all constructs"
author = "tests"

[config]
reference = "/refs/genome.fa"
chromosomes = ["chr1", "chr2"]
min_coverage = 20
run_qc = true
mode = { default = "WGS", choices = ["WGS", "WES"], help = "sequencing mode", type = "string" }
token = { required = true, sensitive = true, help = "never the password itself" }

[defaults]
threads = 4
memory = "8G"

[report]
format = ["html", "json"]
sections = ["universal", "commands"]

[[sample_groups]]
name = "control"
samples = ["S1", "S2"]

[sample_groups.metadata]
tissue = "blood"

[[pairs]]
pair_id = "CASE_1"
tumor = "T1"
normal = "N1"
experiment_type = "lung"

[pairs.metadata]

[[rules]]
name = "align"
input = { r1 = "raw/{sample}_R1.fq.gz", r2 = "raw/{sample}_R2.fq.gz" }
output = ["aligned/{sample}.bam"]
threads = 16
shell = """
  bwa mem -t {threads} {config.reference} {input.r1} {input.r2} \\
    | samtools sort -o {output}
"""
when = 'config.mode == "WGS" && config.min_coverage >= 20'

[rules.resources]
threads = 8
memory = "32G"

[rules.environment]
conda = "envs/bwa.yaml"

[[rules]]
name = "call"
input = ["aligned/sample.bam"]
output = ["calls/sample.{chr}.vcf"]
scatter = { variable = "chr", values_from = "config.chromosomes", gather = "merge" }
shell = "gatk -L {chr} -I {input[0]} -O {output[0]}"
depends_on = ["align"]

[rules.environment]
docker = "broadinstitute/gatk:4.5"

[[rules]]
name = "merge"
output = ["calls/all.vcf"]
shell = "cat {input} > {output}"

[[rules]]
name = "by_chr"
input = ["aligned/sample.bam"]
output = ["stats/sample.txt"]

[rules.transform.split]
by = "chr"
values_from = "config.chromosomes"

[rules.transform]
map = "samtools view -b {input} {chr} > {output}"
cleanup = true

[rules.transform.combine]
shell = "cat {chunks} > {output}"

[[rules]]
name = "multiqc"
output = ["qc/report.html"]
shell = "multiqc qc/ -o qc/"
expand_inputs = [{ pattern = "qc/{sample}_fastqc.zip", variables = { sample = "config.samples_list" } }]
when = "config.run_qc"

[rules.environment]
singularity = "docker://multiqc:1.21"
`;

describe('loadWorkflow on the gallery constructs', () => {
  const loaded = loadWorkflow(CORPUS_LIKE, 'demo.oxoflow', { dir: '/project' });

  it('loads with no diagnostics and no check errors', () => {
    expect(loaded.diagnostics).toEqual([]);
    expect(checkWorkflow(loaded.workflow!)).toEqual([]);
    expect(lintWorkflow(loaded.workflow!).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('normalises rules: named inputs, rule-level threads over resources, memory in MB', () => {
    const align = loaded.workflow!.rules[0]!;
    expect(align.input).toEqual({ paths: ['raw/{sample}_R1.fq.gz', 'raw/{sample}_R2.fq.gz'], names: { r1: 0, r2: 1 } });
    expect(align.threads).toBe(16);
    expect(align.resources.threads).toBe(8);
    expect(align.memoryMb).toBe(32 * 1024);
    expect(align.environment).toEqual({ kind: 'conda', spec: 'envs/bwa.yaml' });
    expect(loaded.workflow!.defaults).toMatchObject({ threads: 4, memoryMb: 8192, memoryText: '8G' });
  });

  it('resolves pair aliases, scatter, transform and expand_inputs', () => {
    const w = loaded.workflow!;
    expect(w.pairs[0]).toEqual({ pairId: 'CASE_1', experiment: 'T1', control: 'N1', experimentType: 'lung', metadata: {} });
    expect(w.rules[1]!.scatter).toEqual({ variable: 'chr', valuesFrom: 'config.chromosomes', gather: 'merge' });
    expect(w.rules[3]!.transform).toEqual({ split: { by: 'chr', valuesFrom: 'config.chromosomes' }, map: 'samtools view -b {input} {chr} > {output}', combine: { shell: 'cat {chunks} > {output}' }, cleanup: true });
    expect(w.rules[4]!.expandInputs).toEqual([{ pattern: 'qc/{sample}_fastqc.zip', variables: { sample: 'config.samples_list' } }]);
    expect(w.dir).toBe('/project');
  });

  it('keeps both config forms', () => {
    const c = loaded.workflow!.config;
    expect(c.get('chromosomes')).toEqual({ key: 'chromosomes', value: ['chr1', 'chr2'] });
    expect(c.get('mode')).toEqual({ key: 'mode', value: 'WGS', declaration: { default: 'WGS', required: false, sensitive: false, help: 'sequencing mode', type: 'string', choices: ['WGS', 'WES'] } });
    expect(c.get('token')?.declaration).toMatchObject({ required: true, sensitive: true });
    expect(c.get('token')?.value).toBeUndefined();
  });

  it('locates keys, array-of-table elements and sub-tables', () => {
    const lines = CORPUS_LIKE.split('\n');
    const lineOf = (needle: string, from = 0) => lines.findIndex((l, i) => i >= from && l.startsWith(needle)) + 1;
    const p = loaded.workflow!.positions;
    expect(p.locate(['rules', 0, 'resources', 'memory'])?.line).toBe(lineOf('memory = "32G"'));
    expect(p.locate(['rules', 2, 'shell'])?.line).toBe(lineOf('shell = "cat {input}'));
    expect(p.locate(['rules', 3, 'transform', 'combine', 'shell'])?.line).toBe(lineOf('shell = "cat {chunks}'));
    expect(p.locate(['rules', 4, 'expand_inputs', 0, 'variables', 'sample'])?.line).toBe(lineOf('expand_inputs'));
    expect(p.locate(['config', 'mode', 'choices'])).toEqual({ line: lineOf('mode = '), column: lines[lineOf('mode = ') - 1]!.indexOf('choices') + 1 });
    expect(p.locate(['rules', 4, 'no_such_key'])?.line).toBe(lineOf('name = "multiqc"') - 1);
  });
});

describe('loader details', () => {
  it('parses memory units strictly', () => {
    expect(parseMemory('8G')).toEqual({ ok: true, mb: 8192 });
    expect(parseMemory('8gb')).toEqual({ ok: true, mb: 8192 });
    expect(parseMemory('500M')).toEqual({ ok: true, mb: 500 });
    expect(parseMemory('1T')).toEqual({ ok: true, mb: 1024 * 1024 });
    expect(parseMemory('2048K')).toEqual({ ok: true, mb: 2 });
    expect(parseMemory(2048)).toEqual({ ok: true, mb: 2048 });
    for (const bad of ['1.5G', '8X', 'G', '', '-1G', '8B', '0']) expect(parseMemory(bad).ok, bad).toBe(false);
  });

  it('wraps a TOML syntax error as one E000 with line and column and no workflow', () => {
    const r = loadWorkflow('[workflow]\nname = "x"\nthreads = = 3\n', 'f.oxoflow');
    expect(r.workflow).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'E000', file: 'f.oxoflow', line: 3 });
  });

  it('rejects prototype keys and absurd nesting as syntax errors', () => {
    expect(loadWorkflow('[workflow]\nname = "x"\n[config]\n__proto__ = 1\n', 'f').diagnostics[0]?.code).toBe('E000');
    expect(loadWorkflow(`a = ${'['.repeat(200)}${']'.repeat(200)}\n`, 'f').diagnostics[0]?.code).toBe('E000');
  });

  it('reports a date where a string belongs as E024', () => {
    const r = loadWorkflow('[workflow]\nname = "x"\nversion = 2024-01-01\n', 'f');
    expect(r.diagnostics[0]).toMatchObject({ code: 'E024', line: 3 });
    expect(r.diagnostics[0]!.message).toContain('a date');
  });

  it('flags experiment together with its alias tumor', () => {
    const r = loadWorkflow('[workflow]\nname = "x"\n[[pairs]]\npair_id = "p"\nexperiment = "a"\ntumor = "b"\n', 'f');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['E024']);
  });

  it('indexes dotted keys, quoted keys and multi-line arrays', () => {
    const text = '[a]\nb.c = 1\n"d e" = [\n  "x", # comment\n  "y",\n]\n[[t]]\n[[t]]\nk = 1\n';
    const p = indexKeyPositions(text);
    expect(p.locate(['a', 'b', 'c'])).toEqual({ line: 2, column: 3 });
    expect(p.locate(['a', 'd e', 1])).toEqual({ line: 5, column: 3 });
    expect(p.locate(['t', 1, 'k'])).toEqual({ line: 9, column: 1 });
  });
});

const SEED = `[workflow]
name = "p"
[config]
ref = "r.fa"
[[sample_groups]]
name = "g"
samples = ["a", "b"]
[[rules]]
name = "one"
input = ["raw/{sample}.fq"]
output = ["out/{sample}.txt"]
shell = "tool {config.ref} {input} > {output}"
when = "config.ref != \\"\\" && !file_exists(\\"skip\\")"
[rules.resources]
memory = "4G"
[[rules]]
name = "two"
input = { x = "out/{sample}.txt" }
output = ["final/{sample}.txt"]
shell = "cat {input.x} > {output}"
depends_on = ["one"]
`;

describe('robustness', () => {
  const pipeline = (text: string) => {
    const r = loadWorkflow(text, 'fuzz.oxoflow');
    const all = [...r.diagnostics];
    if (r.workflow) all.push(...checkWorkflow(r.workflow), ...lintWorkflow(r.workflow));
    for (const d of all) {
      expect(typeof d.code).toBe('string');
      expect(typeof d.message).toBe('string');
    }
    if (!r.workflow) expect(r.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  };

  it('never throws on random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => pipeline(s)), { numRuns: 300 });
  });

  it('never throws on mutated real-looking workflows', () => {
    const mutation = fc.record({
      at: fc.nat({ max: SEED.length }),
      cut: fc.nat({ max: 12 }),
      insert: fc.oneof(fc.constantFrom('"', '[', ']', '{', '}', '=', '\n', '..', '[[rules]]\n', 'x = 1\n', '{config.nope}', '#', "'''", '"""', '0'), fc.string({ maxLength: 6 })),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        let text = SEED;
        for (const m of ms) {
          const at = Math.min(m.at, text.length);
          text = text.slice(0, at) + m.insert + text.slice(at + m.cut);
        }
        pipeline(text);
      }),
      { numRuns: 400 },
    );
  });

  it('loads, checks and lints a 10,000-rule file without overflowing the stack', () => {
    const parts = ['[workflow]\nname = "big"\ndescription = "d"\nauthor = "a"\n[config]\nref = "r"\n'];
    for (let i = 0; i < 10_000; i += 1) {
      parts.push(`[[rules]]\nname = "r${i}"\ninput = ["d/${i}.in"]\noutput = ["d/${i + 1}.in"]\nshell = "tool {config.ref} {input} > {output}"\n${i > 0 ? `depends_on = ["r${i - 1}"]\n` : ''}`);
    }
    const r = loadWorkflow(parts.join(''), 'big.oxoflow');
    expect(r.diagnostics).toEqual([]);
    expect(r.workflow!.rules).toHaveLength(10_000);
    expect(checkWorkflow(r.workflow!)).toEqual([]);
    const lint = lintWorkflow(r.workflow!);
    expect(lint.every((d) => d.severity !== 'error')).toBe(true);
    expect(r.workflow!.positions.locate(['rules', 9999, 'shell'])?.line).toBe(parts.join('').split('\n').indexOf('name = "r9999"') + 4);
  });
});
