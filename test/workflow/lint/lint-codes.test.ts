// Every lint code: a workflow that triggers it and a clean twin that must stay silent.
import { describe, expect, it } from 'vitest';
import { codes } from '../../../src/diagnostics/registry.js';
import { diagnose, quietRule, wf } from '../../helpers/workflow-text.js';

interface Case {
  code: string;
  name: string;
  fires: string;
  clean: string;
  line?: number;
}

const rule = (fields: string) => quietRule('r', fields);

const cases: Case[] = [
  { code: 'W001', name: 'no description', fires: wf('', 'name = "t"\nauthor = "a"'), clean: wf('') },
  { code: 'W002', name: 'no author', fires: wf('', 'name = "t"\ndescription = "d"'), clean: wf('') },
  { code: 'W003', name: 'rule without description', fires: wf(rule('').replace('description = "d"\n', '')), clean: wf(rule('')) },
  { code: 'W004', name: 'shell without log', fires: wf(rule('shell = "x"').replace('log = "logs/r.log"\n', '')), clean: wf(rule('shell = "x"')) },
  { code: 'W005', name: '12 threads, no memory', fires: wf(rule('threads = 12')), line: 10, clean: wf(rule('threads = 12\nmemory = "8G"')) },
  { code: 'W009', name: '48 threads, no memory', fires: wf(rule('threads = 48')), clean: wf(rule('threads = 48\nmemory = "64G"')) },
  { code: 'W006', name: 'dash in rule name', fires: wf(quietRule('a-b', '')), clean: wf(quietRule('a_b', '')) },
  {
    code: 'W008',
    name: 'no environment',
    fires: wf('[[rules]]\nname = "r"\ndescription = "d"\nlog = "l"\nshell = "x"\n'),
    clean: wf('[defaults]\nenvironment = { docker = "img:1" }\n[[rules]]\nname = "r"\ndescription = "d"\nlog = "l"\nshell = "x"\n'),
  },
  { code: 'W016', name: 'conda file not locked', fires: wf(quietRule('r', '').replace('envs/r.lock.yml', 'envs/r.yaml')), clean: wf(rule('')) },
  { code: 'W017', name: 'absolute path', fires: wf(rule('input = ["/data/x.bam"]')), line: 10, clean: wf(rule('input = ["data/x.bam"]')) },
  { code: 'W018', name: '~ path', fires: wf(rule('input = ["~/x.bam"]')), clean: wf(rule('input = ["x.bam"]')) },
  { code: 'W019', name: 'command without outputs or dependents', fires: wf(rule('shell = "echo hi"')), clean: wf(rule('shell = "echo hi > {output}"\noutput = ["hi.txt"]')) },
  { code: 'W023', name: 'eval', fires: wf(rule('output = ["o"]\nshell = "eval $CMD > {output}"')), clean: wf(rule('output = ["o"]\nshell = "$CMD > {output}"')) },
  {
    code: 'W024',
    name: 'wildcard without a source',
    fires: wf(rule('input = ["raw/{sample}.fq"]\noutput = ["qc/{sample}.html"]\nshell = "x"')),
    line: 10,
    clean: wf('[[sample_groups]]\nname = "g"\nsamples = ["s1"]\n' + rule('input = ["raw/{sample}.fq"]\noutput = ["qc/{sample}.html"]\nshell = "x"')),
  },
  { code: 'W026', name: '[variables] table', fires: wf('[variables]\nsamples = ["a"]\n'), line: 6, clean: wf('') },
  { code: 'W027', name: 'format_version 2', fires: wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nformat_version = "2.0"'), clean: wf('', 'name = "t"\ndescription = "d"\nauthor = "a"\nformat_version = "1.2"') },
  {
    code: 'W028',
    name: 'a required config key given at run time',
    fires: wf('[config]\nother = 1\nref = { required = true, help = "genome" }\n' + rule('output = ["o"]\nshell = "bwa {config.ref} > {output}"')),
    line: 8,
    clean: wf('[config]\nother = 1\nref = { required = true, default = "g.fa" }\n' + rule('output = ["o"]\nshell = "bwa {config.ref} > {output}"')),
  },
  { code: 'S008', name: 'literal password', fires: wf('[config]\ndb_password = "hunter2hunter2"\n'), line: 7, clean: wf('[config]\ndb_password = { help = "the password of the database", sensitive = true }\n') },
  { code: 'S008', name: 'token shape', fires: wf(rule('shell = "curl -H token:ghp_abcdefghijklmnopqrstuvwxyz0123456789 x"')), line: 10, clean: wf(rule('shell = "curl -H \\"token:${GITHUB_TOKEN}\\" x"')) },
  { code: 'S008', name: 'declared default secret', fires: wf('[config]\napi_key = { default = "abcd1234abcd", sensitive = true }\n'), clean: wf('[config]\napi_key = { default = "${API_KEY}", sensitive = true }\n') },
];

describe('lint codes fire on their case and stay silent on the clean twin', () => {
  it.each(cases)('$code: $name', ({ code, fires, clean, line }) => {
    const found = diagnose(fires).filter((d) => d.code === code);
    expect(found.length, JSON.stringify(diagnose(fires), null, 1)).toBe(1);
    if (line !== undefined) expect(found[0]!.line).toBe(line);
    expect(diagnose(clean).filter((d) => d.code === code), JSON.stringify(diagnose(clean))).toEqual([]);
  });

  it('covers every W and S code in the registry', () => {
    const covered = new Set(cases.map((c) => c.code));
    expect(Object.keys(codes).filter((c) => /^[WS]\d{3}$/.test(c) && !covered.has(c))).toEqual([]);
  });
});

describe('each finding once', () => {
  it('does not repeat E007 as a warning, nor report W005 and W009 together', () => {
    const d = diagnose(wf(rule('depends_on = ["nope"]\nthreads = 64')));
    expect(d.filter((x) => x.code === 'E007')).toHaveLength(1);
    expect(d.map((x) => x.code).filter((c) => c === 'W005' || c === 'W009')).toEqual(['W009']);
  });

  it('reports a non-lock conda file once, however many rules use it', () => {
    const many = Array.from({ length: 5 }, (_, i) => quietRule(`r${i}`, '').replace(/envs\/r\d\.lock\.yml/, 'envs/gatk.yaml')).join('');
    expect(diagnose(wf(many)).filter((x) => x.code === 'W016')).toHaveLength(1);
  });

  it('reports a wildcard once per rule even when it appears in input, output and shell', () => {
    const d = diagnose(wf(rule('input = ["{sample}.fq"]\noutput = ["{sample}.bam"]\nshell = "x {sample}"')));
    expect(d.filter((x) => x.code === 'W024')).toHaveLength(1);
  });

  it('does not flag W023 on a command that is already blocked by E011', () => {
    const d = diagnose(wf(rule('shell = "rm -rf /"')));
    expect(d.filter((x) => x.code === 'E011')).toHaveLength(1);
    expect(d.filter((x) => x.code === 'W023')).toHaveLength(0);
  });

  it('never echoes a secret value in the message', () => {
    const d = diagnose(wf('[config]\ndb_password = "hunter2hunter2"\n')).find((x) => x.code === 'S008')!;
    expect(d.message).not.toContain('hunter2');
  });
});
