import { describe, expect, it } from 'vitest';
import { validateWorkflowTool } from '../../../src/ai/tools/validate-workflow.js';

describe('validate_workflow', () => {
  const tool = validateWorkflowTool();
  it('reports a TOML syntax error with its position', async () => {
    const r = await tool.invoke({ toml: '[workflow\nname = "x"' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^invalid: 1 error/);
    expect(r.text).toContain('E000');
    expect(r.text).toMatch(/at 1:\d+/);
  });

  it('runs the cross-field checks on a workflow that loads', async () => {
    const toml = '[workflow]\nname = "demo"\n\n[[rules]]\nname = "a"\noutput = ["out.txt"]\nshell = "echo hi > out.txt"\ndepends_on = ["missing_rule"]\n';
    const r = await tool.invoke({ toml });
    expect(r.text).toMatch(/^invalid/);
    expect(r.text).toContain('E007');
  });

  it('says valid for a clean workflow, and refuses a non-string', async () => {
    const r = await tool.invoke({ toml: '[workflow]\nname = "demo"\n\n[[rules]]\nname = "a"\noutput = ["out.txt"]\nshell = "echo hi > out.txt"\n' });
    expect(r.text.split('\n')[0]).toBe('valid: no errors');
    expect((await tool.invoke({ toml: 3 })).isError).toBe(true);
    expect(tool.gate.builtinReadOnly).toBe(true);
  });

  it('uses the same entry point as `oxo-flow validate`: a two-rule cycle is E006', async () => {
    const toml =
      '[workflow]\nname = "demo"\n\n[[rules]]\nname = "a"\ninput = ["b.txt"]\noutput = ["a.txt"]\nshell = "cp {input} {output}"\n\n' +
      '[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "cp {input} {output}"\n';
    const r = await tool.invoke({ toml });
    expect(r.text).toMatch(/^invalid: 1 error/);
    expect(r.text).toContain('E006');
    expect(r.text).toContain('cycle: a → b → a');
  });

  it('reports Snakemake spellings as E031 with ours suggested, as `oxo-flow validate` does', async () => {
    const toml =
      '[workflow]\nname = "demo"\n\n[[sample_groups]]\nname = "g"\nsamples = ["A"]\n\n[[rules]]\nname = "a"\noutput = ["o/{sample}.txt"]\n' +
      'shell = "tool -m {resources.mem_mb} --id {wildcards.sample} > {output}"\n';
    const r = await tool.invoke({ toml });
    expect(r.text).toMatch(/^invalid: 2 error/);
    expect(r.text).toContain('{wildcards.sample}');
    expect(r.text).toContain('did you mean {sample}?');
    expect(r.text).toContain('did you mean {memory}?');
  });
});
