import { describe, expect, it } from 'vitest';
import { compileTemplate, renderTemplate } from '../../../src/workflow/render/template.js';
import { shellQuote } from '../../../src/workflow/render/shell-quote.js';

const input = { paths: ['a.txt', 'my file.txt'], names: { reads: 1 } };
const output = { paths: ['out/x.bam'], names: { bam: 0 } };

describe('placeholder templates', () => {
  it('renders every placeholder form', () => {
    const t = compileTemplate('tool {input[0]} {input.reads} -o {output} -t {threads} -m {memory} --k {params.k} --ref {config.ref} {log} {sample}');
    const text = renderTemplate(t, {
      input,
      output,
      log: 'logs/x.log',
      threads: 4,
      memory: '8G',
      params: { k: 31 },
      config: (k) => (k === 'ref' ? '/ref/hg38.fa' : undefined),
      vars: (n) => (n === 'sample' ? 'S1' : undefined),
      quote: true,
    });
    expect(text).toBe("tool a.txt 'my file.txt' -o out/x.bam -t 4 -m 8G --k 31 --ref /ref/hg38.fa logs/x.log S1");
  });

  it('space-joins arrays and all inputs, quoting only the paths that need it', () => {
    const t = compileTemplate('cat {input} > {output[0]}; echo {config.chroms}');
    expect(renderTemplate(t, { input, output, config: () => ['chr1', 'chr2'], quote: true })).toBe("cat a.txt 'my file.txt' > out/x.bam; echo chr1 chr2");
  });

  it('leaves unknown placeholders, ${VAR} and awk braces untouched', () => {
    const t = compileTemplate('echo ${HOME} {unknown} {input[7]} {config.nope} awk \'{print $1}\' {params.none}');
    expect(renderTemplate(t, { input, config: () => undefined, vars: () => undefined, params: {} })).toBe(
      "echo ${HOME} {unknown} {input[7]} {config.nope} awk '{print $1}' {params.none}",
    );
  });

  it('reports the wildcard and config names it references, once each', () => {
    const t = compileTemplate('{sample}/{sample}_{group}.{config.ext} {config.ext} ${sample}');
    expect(t.vars).toEqual(['sample', 'group']);
    expect(t.configKeys).toEqual(['ext']);
  });

  it('does not quote paths when rendering paths themselves', () => {
    expect(renderTemplate(compileTemplate('{input}'), { input })).toBe('a.txt my file.txt');
  });
});

describe('shellQuote', () => {
  it('quotes only when needed and escapes single quotes', () => {
    expect(shellQuote('data/raw_1.fq.gz')).toBe('data/raw_1.fq.gz');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
    expect(shellQuote('$(rm -rf x)')).toBe("'$(rm -rf x)'");
    expect(shellQuote('')).toBe("''");
  });
});
