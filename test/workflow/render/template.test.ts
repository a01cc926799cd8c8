import { describe, expect, it } from 'vitest';
import { compileTemplate, renderTemplate } from '../../../src/workflow/render/template.js';
import { shellQuote } from '../../../src/workflow/render/shell-quote.js';
import { analyseShell } from '../../../src/workflow/render/shell-contexts.js';
import { renderScript, renderShown } from '../../../src/workflow/render/script.js';

function script(text: string, values: Parameters<typeof renderScript>[2]) {
  const t = compileTemplate(text);
  const analysis = analyseShell(text, t);
  const rendered = renderScript(t, analysis, values);
  // One pass gives both forms: the shown command is the one renderShown gives alone.
  expect(rendered.shown).toBe(renderShown(t, analysis, values));
  return rendered;
}

const input = { paths: ['a.txt', 'my file.txt'], names: { reads: 1 } };
const output = { paths: ['out/x.bam'], names: { bam: 0 } };

describe('placeholder templates', () => {
  it('renders every placeholder form as a variable reference, the values in the environment', () => {
    const r = script('tool {input[0]} {input.reads} -o {output} -t {threads} -m {memory} --k {params.k} --ref {config.ref} {log} {sample}', {
      input,
      output,
      log: 'logs/x.log',
      threads: 4,
      memory: '8G',
      params: { k: 31 },
      config: (k) => (k === 'ref' ? '/ref/hg38.fa' : undefined),
      vars: (n) => (n === 'sample' ? 'S1' : undefined),
    });
    expect(r.script).toBe(
      'tool "${OXO_INPUT_0}" "${OXO_INPUT_1}" -o "${OXO_OUTPUT_0}" -t "${OXO_THREADS}" -m "${OXO_MEMORY}" --k "${OXO_PARAMS_K}" --ref "${OXO_CONFIG_REF}" "${OXO_LOG}" "${OXO_SAMPLE}"',
    );
    expect(r.env).toEqual({
      OXO_INPUT_0: 'a.txt',
      OXO_INPUT_1: 'my file.txt',
      OXO_OUTPUT_0: 'out/x.bam',
      OXO_THREADS: '4',
      OXO_MEMORY: '8G',
      OXO_PARAMS_K: '31',
      OXO_CONFIG_REF: '/ref/hg38.fa',
      OXO_LOG: 'logs/x.log',
      OXO_SAMPLE: 'S1',
    });
    expect(r.shown).toBe("tool a.txt 'my file.txt' -o out/x.bam -t 4 -m 8G --k 31 --ref /ref/hg38.fa logs/x.log S1");
  });

  it('gives a list one word per element, one word in an assignment, and plain references inside quotes', () => {
    const r = script('cat {input} > {output[0]}; echo {config.chroms}; x={config.chroms}; echo "all: {input}"', { input, output, config: () => ['chr1', 'chr2'] });
    expect(r.script).toBe(
      'cat "${OXO_INPUT_0}" "${OXO_INPUT_1}" > "${OXO_OUTPUT_0}"; echo "${OXO_CONFIG_CHROMS_0}" "${OXO_CONFIG_CHROMS_1}"; x="${OXO_CONFIG_CHROMS_0} ${OXO_CONFIG_CHROMS_1}"; echo "all: ${OXO_INPUT_0} ${OXO_INPUT_1}"',
    );
    expect(r.shown).toBe("cat a.txt 'my file.txt' > out/x.bam; echo chr1 chr2; x='chr1 chr2'; echo \"all: a.txt my file.txt\"");
  });

  it('keeps a path next to other text one word', () => {
    const r = script('samtools index results/{sample}/{sample}.bam', { vars: () => 'S 1' });
    expect(r.script).toBe('samtools index results/"${OXO_SAMPLE}"/"${OXO_SAMPLE}".bam');
    expect(r.env).toEqual({ OXO_SAMPLE: 'S 1' });
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
