// SKILL.md splitting and front-matter reading: the fast path and js-yaml give the same skill, and
// positions in findings are the file's lines.
import { describe, expect, it } from 'vitest';
import { parseMdSkill } from '../../../src/ai/skills/parse-md-skill.js';
import { parseSimpleYaml } from '../../../src/ai/skills/simple-yaml.js';

const FILE = '/skills/x/SKILL.md';

describe('parseMdSkill', () => {
  it('reads a usual front matter through the fast path and a block scalar through js-yaml, to the same skill', () => {
    const fast = '---\nname: x\ndescription: Sorts reads. Use before calling.\nmetadata:\n  domain: qc, wgs\n  primary_tool: samtools\n---\n# Body\n';
    const folded = '---\nname: x\ndescription: >\n  Sorts reads.\n  Use before calling.\nmetadata:\n  domain: qc, wgs\n  primary_tool: samtools\n---\n# Body\n';
    expect(parseSimpleYaml('name: x\ndescription: Sorts reads. Use before calling.\nmetadata:\n  domain: qc, wgs\n  primary_tool: samtools')).toBeDefined();
    expect(parseSimpleYaml('name: x\ndescription: >\n  Sorts reads.\n  Use before calling.')).toBeUndefined();
    const a = parseMdSkill(fast, FILE, 'x');
    const b = parseMdSkill(folded, FILE, 'x');
    expect(a.findings).toEqual([]);
    expect(b).toEqual({ ...a, description: 'Sorts reads. Use before calling.\n' });
    expect(a).toMatchObject({ declaredName: 'x', domains: ['qc', 'wgs'], primaryTool: 'samtools', prompt: '# Body' });
  });

  it('keeps the body out of a front-matter-only parse, and reads it whole otherwise', () => {
    const text = '---\nname: x\ndescription: d\n---\nline one\n---\nline two\n';
    expect(parseMdSkill(text, FILE, 'x', false).prompt).toBeUndefined();
    expect(parseMdSkill(text, FILE, 'x').prompt).toBe('line one\n---\nline two');
  });

  it('points at file lines: an empty body at the closing line, a bad closing line, a YAML error', () => {
    expect(parseMdSkill('---\nname: x\ndescription: d\n---', FILE, 'x').findings).toMatchObject([{ code: 'SK022', line: 4 }]);
    expect(parseMdSkill('---\nname: x\n\ndescription: d\n--- yaml\nbody', FILE, 'x').findings).toMatchObject([{ code: 'SK008', line: 5 }]);
    expect(parseMdSkill('---\nname: x\ndescription: d\n', FILE, 'x').findings).toMatchObject([{ code: 'SK008', line: 1 }]);
    expect(parseMdSkill('---', FILE, 'x').findings).toMatchObject([{ code: 'SK008', line: 1 }]);
    expect(parseMdSkill('---\nname: x\ndescription: [d\n---\nbody', FILE, 'x').findings).toMatchObject([{ code: 'SK009' }]);
  });

  it('metadata lists are joined, domains gathered from metadata and the top level once each, in order', () => {
    const text = '---\nname: x\ndescription: d\nmetadata:\n  domain: [qc, wgs]\n  tool_type: cli\ndomain: wgs rnaseq,qc\ndomains: [atac]\n---\n# Body\n';
    const s = parseMdSkill(text, FILE, 'x');
    expect(s.findings).toEqual([]);
    expect(s.metadata).toEqual({ domain: 'qc, wgs', tool_type: 'cli' });
    expect(s.domains).toEqual(['qc', 'wgs', 'rnaseq', 'atac']);
  });

  it('reads an empty front matter as no fields', () => {
    expect(parseMdSkill('---\n---\nbody', FILE, 'x').findings.map((f) => f.code)).toEqual(['SK003', 'SK003']);
  });
});
