// Which block of a realistic answer is the draft: the one that parses as a workflow.
import { describe, expect, it } from 'vitest';
import { extractWorkflowToml } from '../../../src/ai/draft/extract.js';

const WF = '[workflow]\nname = "x"\n\n[[rules]]\nname = "a"\nshell = "echo"\n';

describe('extractWorkflowToml', () => {
  it('a bash block before the toml block: the toml block is the draft', () => {
    const text = `Run it like this:\n\n\`\`\`bash\noxo-flow run main.oxoflow -j 4\n\`\`\`\n\nThe workflow:\n\n\`\`\`toml\n${WF}\`\`\`\n`;
    expect(extractWorkflowToml(text)).toEqual({ kind: 'draft', toml: WF });
  });

  it('an unlabelled block that parses as a workflow wins over a Snakefile block labelled python', () => {
    const text = `\`\`\`python\nrule all:\n    input: "x"\n\`\`\`\n\`\`\`\n${WF}\`\`\``;
    expect(extractWorkflowToml(text)).toEqual({ kind: 'draft', toml: WF });
  });

  it('the last of two workflow blocks (the model repeats the fixed one)', () => {
    const fixed = WF.replace('"x"', '"y"');
    expect(extractWorkflowToml(`\`\`\`toml\n${WF}\`\`\`\nfixed:\n\`\`\`toml\n${fixed}\`\`\``)).toEqual({ kind: 'draft', toml: fixed });
  });

  it('a draft without [workflow] is still a draft (the validator will say E025)', () => {
    const rulesOnly = '[[rules]]\nname = "a"\nshell = "echo"\n';
    expect(extractWorkflowToml(`\`\`\`bash\nls\n\`\`\`\n\`\`\`toml\n${rulesOnly}\`\`\``)).toEqual({ kind: 'draft', toml: rulesOnly });
  });

  it('a toml block that does not parse is still a draft (the parse error is the feedback)', () => {
    expect(extractWorkflowToml('```toml\n[workflow\nname = \n```')).toMatchObject({ kind: 'draft' });
  });

  it('prose and a bash block only: no workflow', () => {
    expect(extractWorkflowToml('Sure!\n```bash\nSTAR --runThreadN 4\n```\n')).toEqual({ kind: 'none' });
    expect(extractWorkflowToml('I cannot help with that.')).toEqual({ kind: 'none' });
  });

  it('a bare TOML answer without fences, prose before its first table left out', () => {
    expect(extractWorkflowToml(WF)).toEqual({ kind: 'draft', toml: WF });
    expect(extractWorkflowToml(`Here is the workflow:\n\n${WF}`)).toEqual({ kind: 'draft', toml: WF });
  });
});
