import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/ai/skills/types.js';
import { MAX_SKILL_FILE_BYTES, readSkillFile, readSkillTools, unsafePathReason } from '../../../src/ai/tools/read-skill.js';

let root: string;
let skill: Skill;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'oxo-read-skill-'));
  const dir = path.join(root, 'skills', 'variant-calling');
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  mkdirSync(path.join(dir, '.private'));
  writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: variant-calling\n---\nbody');
  writeFileSync(path.join(dir, 'references', 'guide.md'), 'Use GATK best practices.');
  writeFileSync(path.join(dir, 'references', 'hostile.md'), 'line one\r\n\u001b[2Jclear \u202eevil\u200b\u009b  \r\nline two\n');
  writeFileSync(path.join(dir, '.private', 'key.txt'), 'hidden');
  writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(MAX_SKILL_FILE_BYTES + 1));
  writeFileSync(path.join(root, 'outside.txt'), 'secret outside');
  symlinkSync(path.join(root, 'outside.txt'), path.join(dir, 'escape.txt'));
  symlinkSync(path.join(dir, 'references', 'guide.md'), path.join(dir, 'inside-link.md'));
  skill = { name: 'variant-calling', scope: 'project', format: 'md', type: 'knowledge', status: 'ok', findings: [], path: path.join(dir, 'SKILL.md'), dir, domains: [], prompt: 'Call variants carefully.' };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('read_skill_file path safety', () => {
  it.each([
    ['/etc/passwd', 'relative'],
    ['../outside.txt', '..'],
    ['references/../../outside.txt', '..'],
    ['.private/key.txt', 'hidden'],
    ['references/.hidden', 'hidden'],
    ['', 'empty'],
    ['a\0b', 'NUL'],
  ])('refuses %j', (p, why) => {
    expect(unsafePathReason(p)).toContain(why);
    expect(readSkillFile(skill, p).isError).toBe(true);
  });

  it('reads a file inside the skill directory, and a link that stays inside', () => {
    expect(readSkillFile(skill, 'references/guide.md')).toEqual({ isError: false, text: 'Use GATK best practices.' });
    expect(readSkillFile(skill, 'inside-link.md').text).toBe('Use GATK best practices.');
  });

  it('refuses a symlink that leaves the skill directory, a directory, a missing file and an oversize file', () => {
    expect(readSkillFile(skill, 'escape.txt')).toMatchObject({ isError: true, text: expect.stringContaining('outside the skill directory') });
    expect(readSkillFile(skill, 'references')).toMatchObject({ isError: true, text: expect.stringContaining('not a regular file') });
    expect(readSkillFile(skill, 'nope.md')).toMatchObject({ isError: true, text: expect.stringContaining('no such file') });
    expect(readSkillFile(skill, 'big.txt')).toMatchObject({ isError: true, text: expect.stringContaining('cap') });
  });

  it('read_skill and read_skill_file only see active skills', async () => {
    const [readSkill, readFile] = readSkillTools([skill]);
    expect(await readSkill!.invoke({ name: 'variant-calling' })).toEqual({ isError: false, text: 'Call variants carefully.' });
    expect(await readSkill!.invoke({ name: 'project/variant-calling' })).toMatchObject({ isError: false });
    expect(await readSkill!.invoke({ name: 'other' })).toMatchObject({ isError: true, text: expect.stringContaining('active skills: variant-calling') });
    expect(await readFile!.invoke({ name: 'variant-calling', path: 'references/guide.md' })).toMatchObject({ isError: false });
    expect(readSkill!.gate.builtinReadOnly).toBe(true);
  });
});

describe('read_skill_file normalises text as skill prompts are', () => {
  it('LF newlines; escapes, C1, bidi and invisible characters removed; trailing spaces trimmed', () => {
    const out = readSkillFile(skill, 'references/hostile.md');
    expect(out).toEqual({ isError: false, text: 'line one\n[2Jclear evil\nline two' });
  });
});
