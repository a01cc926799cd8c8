// SKILL.md splitting and front-matter reading (in-process: parseMdSkill on text): gray-matter with
// js-yaml's FAILSAFE schema reads the front matter; every built-in skill reads as js-yaml reads its
// block; no other engine runs; gray-matter keeps no cache; positions in findings are the file's lines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { MATTER_OPTIONS, parseMdSkill } from '../../../src/ai/skills/parse-md-skill.js';
import { BUILTIN_DIR, builtinSkillNames } from '../../helpers/builtin-skills.js';

const FILE = '/skills/x/SKILL.md';

describe('parseMdSkill', () => {
  it('reads every built-in skill: its fields are what js-yaml (FAILSAFE) reads from the block', () => {
    const names = builtinSkillNames();
    expect(names.length).toBeGreaterThan(100);
    for (const name of names) {
      const file = path.join(BUILTIN_DIR, name, 'SKILL.md');
      const text = readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
      const lines = text.split('\n');
      const close = lines.findIndex((l, i) => i > 0 && l.startsWith('---'));
      const data = yaml.load(lines.slice(1, close).join('\n'), { schema: yaml.FAILSAFE_SCHEMA }) as Record<string, unknown>;
      const s = parseMdSkill(text, file, name);
      expect(s.findings, name).toEqual([]);
      expect({ name: s.declaredName, description: s.description, license: s.license }, name).toEqual({ name: data.name, description: data.description, license: data.license });
      expect(s.prompt, name).toBe(lines.slice(close + 1).join('\n').trim());
      // The front-matter-only parse (discovery) gives the same fields, without a body.
      expect(parseMdSkill(lines.slice(0, close + 1).join('\n'), file, name, false), name).toEqual({ ...s, prompt: undefined, findings: [] });
    }
  });

  it('a block scalar and a plain scalar give the same skill; every scalar is a string (FAILSAFE)', () => {
    const plain = '---\nname: x\ndescription: Sorts reads. Use before calling.\nversion: 1.0\nmetadata:\n  domain: qc, wgs\n  primary_tool: samtools\n---\n# Body\n';
    const folded = '---\nname: x\ndescription: >\n  Sorts reads.\n  Use before calling.\nversion: 1.0\nmetadata:\n  domain: qc, wgs\n  primary_tool: samtools\n---\n# Body\n';
    const a = parseMdSkill(plain, FILE, 'x');
    expect(a.findings).toEqual([]);
    expect(parseMdSkill(folded, FILE, 'x')).toEqual({ ...a, description: 'Sorts reads. Use before calling.\n' });
    expect(a).toMatchObject({ declaredName: 'x', version: '1.0', domains: ['qc', 'wgs'], primaryTool: 'samtools', prompt: '# Body' });
  });

  it('runs no engine but YAML, and YAML builds no objects from tags', () => {
    for (const lang of ['js', 'javascript', 'coffee', 'json']) {
      const findings = parseMdSkill(`---${lang}\n{ name: (globalThis.pwned = 1) }\n---\nbody`, FILE, 'x').findings;
      expect(findings.map((f) => f.code)).toEqual(['SK010']);
      // And gray-matter itself, given such a file directly with our options, refuses too.
      expect(() => matter(`---${lang}\n{ "name": "x" }\n---\n`, MATTER_OPTIONS)).toThrow(/only YAML/);
    }
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    expect(parseMdSkill('---\nname: !!js/function "function () { return 1 }"\ndescription: d\n---\nb', FILE, 'x').findings.map((f) => f.code)).toEqual(['SK009']);
  });

  it('keeps no cache across files: 5,000 different skills leave gray-matter\'s cache empty', () => {
    for (let i = 0; i < 5000; i++) parseMdSkill(`---\nname: skill-${i}\ndescription: Skill ${i}. Use when testing.\n---\nbody ${i}\n`, `/s/skill-${i}/SKILL.md`, `skill-${i}`, i % 2 === 0);
    expect(Object.keys((matter as unknown as { cache: object }).cache)).toEqual([]);
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
    expect(parseMdSkill('---\nname: x\ndescription: [d\n---\nbody', FILE, 'x').findings).toMatchObject([{ code: 'SK009', line: 4, column: 1 }]);
    expect(parseMdSkill('---\nname: x\n  bad: indent\n---\nbody', FILE, 'x').findings).toMatchObject([{ code: 'SK009', line: 3 }]);
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
