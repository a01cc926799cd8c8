import { describe, expect, it } from 'vitest';
import { descriptionFindings } from '../../../src/ai/skills/field-checks.js';

const where = () => ({ file: 'SKILL.md', line: 3, column: 1 });
const codesAndMessages = (description: string) => descriptionFindings(description, where).map((d) => [d.code, d.message]);

describe('descriptionFindings', () => {
  it('counts characters once trimmed, not UTF-16 units', () => {
    // 1,024 characters outside the BMP are 2,048 UTF-16 units: still within the limit.
    expect(codesAndMessages('🧬'.repeat(1024))).toEqual([]);
    expect(codesAndMessages(` ${'d'.repeat(1024)}\n`)).toEqual([]);
    expect(codesAndMessages('🧬'.repeat(1025))).toEqual([['SK005', '`description` is 1025 characters long (at most 1024)']]);
    expect(codesAndMessages('d'.repeat(1025))).toEqual([['SK005', '`description` is 1025 characters long (at most 1024)']]);
  });

  it('an empty or blank description is a finding at the given place', () => {
    for (const blank of ['', '   ', '\n\t']) {
      const found = descriptionFindings(blank, where);
      expect(found.map((d) => d.code)).toEqual(['SK005']);
      expect(found[0]).toMatchObject({ message: '`description` is empty (1 to 1024 characters)', file: 'SKILL.md', line: 3 });
    }
  });
});
