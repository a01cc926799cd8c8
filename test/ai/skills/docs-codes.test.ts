// docs/skills.md documents every skill and provider code of the registry, with its severity.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillCodes } from '../../../src/diagnostics/codes/skills.js';

const doc = readFileSync(path.resolve(__dirname, '../../../docs/skills.md'), 'utf8');

describe('docs/skills.md', () => {
  it('lists every code with the registry severity, and no code that does not exist', () => {
    const rows = new Map([...doc.matchAll(/^\| ((?:SK|PV|CFG)\d{3}) \| (\w+) \|/gm)].map((m) => [m[1], m[2]]));
    for (const [code, info] of Object.entries(skillCodes)) expect(rows.get(code), code).toBe(info.severity);
    expect([...rows.keys()].sort()).toEqual(Object.keys(skillCodes).sort());
  });
});
