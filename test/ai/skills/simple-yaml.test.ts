// The front-matter fast path must return exactly what js-yaml's FAILSAFE load returns, or decline.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleYaml } from '../../../src/ai/skills/simple-yaml.js';

function jsYaml(block: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: yaml.load(block, { schema: yaml.FAILSAFE_SCHEMA }) };
  } catch {
    return { ok: false };
  }
}

/** Same value, same key order (the order decides the order of findings), same prototypes. */
function expectSame(block: string, fast: Record<string, unknown>): void {
  const slow = jsYaml(block);
  expect(slow.ok, `js-yaml rejects what the fast path accepted: ${JSON.stringify(block)}`).toBe(true);
  if (!slow.ok) return;
  // isDeepStrictEqual rather than toStrictEqual: a key named `constructor` confuses the latter's type check.
  expect(isDeepStrictEqual(fast, slow.value), `${JSON.stringify(block)}: ${JSON.stringify(fast)} vs ${JSON.stringify(slow.value)}`).toBe(true);
  expect(JSON.stringify(fast), JSON.stringify(block)).toBe(JSON.stringify(slow.value));
}

// Pieces near the edges of the subset: YAML indicators, quotes, comments, escapes, tabs, odd
// whitespace and line separators, non-BMP text, words js-yaml's other schemas would type.
const fragments = [
  'a', 'b', 'qc', 'x y', 'MIT', 'true', 'no', '1.0', '0x1F', '~', 'null', '2024-01-01', '-', '- x', '-x', '?', '? x', ':', ': x', 'x:', 'x:y',
  '#', ' #c', 'x#y', "'", "''", '"', '\\', '\\n', '[', ']', '{', '}', ',', '&a', '*a', '!t', '!!str', '|', '>', '%', '@', '`', '...', '---',
  ' ', '  ', '\t', '\u00a0', '\u0085', '\u2028', '\ufeff', '\r', '\u0007', 'é', '😀', '\ud800', 'Use when: PDFs', 'http://x/y', 'a, b c',
];
const fragment = fc.constantFrom(...fragments);
const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/);
const text = fc.array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: fragment }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { maxLength: 5 }).map((parts) => parts.join(''));
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('name', 'description', 'license', 'metadata', 'domain', 'primary_tool', 'allowed-tools', 'version', 'domains') },
  { weight: 2, arbitrary: word },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '1', '-a', 'a b', "'a'", '"a"', 'a ', 'a.b', '<<', '?a', 'x'.repeat(130), '') },
);
const quoted = fc.oneof(
  text.map((t) => `'${t.replace(/'/g, "''")}'`),
  text.map((t) => `"${t}"`),
  text.map((t) => `'${t}'`),
);
const value = fc.oneof({ weight: 4, arbitrary: text }, { weight: 2, arbitrary: quoted }, { weight: 1, arbitrary: fc.constant('') });
const indent = fc.constantFrom('', '', '', ' ', '  ', '  ', '   ', '    ', '\t');
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(indent, key, fc.constantFrom(': ', ': ', ':', ' : ', ':  '), value).map(([i, k, c, v]) => `${i}${k}${c}${v}`) },
  { weight: 2, arbitrary: fc.tuple(indent, fc.constantFrom('- ', '-', '-  ', '- - '), value).map(([i, d, v]) => `${i}${d}${v}`) },
  { weight: 1, arbitrary: fc.tuple(indent, text).map(([i, t]) => `${i}# ${t}`) },
  { weight: 1, arbitrary: fc.tuple(indent, text).map(([i, t]) => `${i}${t}`) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '...', '---', '%YAML 1.2') },
);
const nearBlock = fc.tuple(fc.array(line, { maxLength: 9 }), fc.boolean()).map(([ls, nl]) => ls.join('\n') + (nl ? '\n' : ''));

// Blocks inside the subset, written in every style it covers: the fast path must take all of them.
const safeChar = fc.constantFrom(...'abcxyz019 .,;()/+=~\'"-_éü😀:#'.split(/(?:)/u));
const safeText = fc
  .array(safeChar, { minLength: 1, maxLength: 20 })
  .map((cs) => cs.join(''))
  .filter((t) => t.trim() === t && t !== '');
const plainOk = (t: string) => !'-?:,[]{}#&*!|>\'"%@`'.includes(t[0]!) && !t.includes(': ') && !t.endsWith(':') && !t.includes(' #');
const styled = (t: string) =>
  fc.constantFrom(...(plainOk(t) ? ['plain', 'single', 'double'] : ['single', 'double'])).map((style) =>
    style === 'plain' ? t : style === 'single' ? `'${t.replace(/'/g, "''")}'` : t.includes('"') ? `'${t.replace(/'/g, "''")}'` : `"${t}"`,
  );
const styledValue = safeText.chain(styled);
const keyName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/).filter((k) => k !== '__proto__');
const entry = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(keyName, styledValue).map(([k, v]) => `${k}: ${v}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(keyName, fc.constantFrom(1, 2, 4), fc.uniqueArray(fc.tuple(keyName, styledValue), { minLength: 1, maxLength: 4, selector: ([k]) => k }))
      .map(([k, n, kvs]) => [`${k}:`, ...kvs.map(([kk, v]) => `${' '.repeat(n)}${kk}: ${v}`)].join('\n')),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(keyName, fc.constantFrom(0, 2, 4), fc.array(styledValue, { minLength: 1, maxLength: 4 }))
      .map(([k, n, items]) => [`${k}:`, ...items.map((v) => `${' '.repeat(n)}- ${v}`)].join('\n')),
  },
  { weight: 1, arbitrary: keyName.map((k) => `${k}:`) },
);
const insideBlock = fc
  .uniqueArray(fc.tuple(keyName, entry), { minLength: 1, maxLength: 7, selector: ([k]) => k })
  .chain((entries) =>
    fc.tuple(fc.constant(entries.map(([k, e]) => e.replace(/^[^:]*:/, `${k}:`))), fc.array(fc.constantFrom('', '# note', '  # note'), { maxLength: 2 })),
  )
  .map(([es, extras]) => [...es, ...extras].join('\n'));

// A block inside the subset with a few edits: a fragment inserted anywhere, a line repeated or
// dropped, an indentation changed. Most land just outside the subset, some stay in.
const edit = fc.oneof(
  fc.tuple(fc.constant('insert' as const), fc.nat(), fragment),
  fc.tuple(fc.constant('repeat' as const), fc.nat(), fc.constant('')),
  fc.tuple(fc.constant('drop' as const), fc.nat(), fc.constant('')),
  fc.tuple(fc.constant('indent' as const), fc.nat(), fc.constantFrom('', ' ', '  ', '   ', '\t')),
  // Endings that turn a value into something else: trailing spaces, a comment, a mapping, a quote.
  fc.tuple(fc.constant('append' as const), fc.nat(), fc.constantFrom(' ', '  ', ' #c', '  # x', '#x', ':', ': y', ' :', "'", '"', '\t', ' \\')),
);
const editedBlock = fc.tuple(insideBlock, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([block, edits]) => {
  let b = block;
  for (const [kind, at, piece] of edits) {
    const ls = b.split('\n');
    const i = at % ls.length;
    if (kind === 'insert') {
      const pos = at % (b.length + 1);
      b = b.slice(0, pos) + piece + b.slice(pos);
      continue;
    }
    if (kind === 'append') ls[i] += piece;
    else if (kind === 'repeat') ls.splice(i, 0, ls[i]!);
    else if (kind === 'drop') ls.splice(i, 1);
    else ls[i] = piece + ls[i]!.trimStart();
    b = ls.join('\n');
  }
  return b;
});

describe('parseSimpleYaml', () => {
  it('returns what js-yaml returns, or declines, near the edges of the subset', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(nearBlock, editedBlock), (block) => {
        const fast = parseSimpleYaml(block);
        if (fast === undefined) return;
        taken++;
        expectSame(block, fast);
      }),
      { numRuns: 6000 },
    );
    // The property is not vacuous: a fair share of the generated blocks went through the fast path.
    expect(taken).toBeGreaterThan(600);
  });

  it('takes every block inside the subset, and agrees with js-yaml', () => {
    fc.assert(
      fc.property(insideBlock, (block) => {
        const fast = parseSimpleYaml(block);
        expect(fast, JSON.stringify(block)).toBeDefined();
        expectSame(block, fast!);
      }),
      { numRuns: 1500 },
    );
  });

  it('declines what it does not cover', () => {
    for (const block of [
      'a: |\n  x',
      'a: >\n  x',
      'a: [x]',
      'a: {b: c}',
      'a: &x y',
      'a: *x',
      'a: !t y',
      'a: x\n  more',
      'a: "x\\ny"',
      'a: x # comment',
      'a: x\na: y',
      'a:\n  b: c\n   d: e',
      'a:\n  - x: y',
      'a:\n-',
      'a:\n  - x\n  -',
      'a:\n  b:\n    - c',
      '__proto__: x',
      'a:\tx',
      '',
      '# only a comment',
      ' a: x',
      "'a': x",
      'a: x\n...',
    ])
      expect(parseSimpleYaml(block), JSON.stringify(block)).toBeUndefined();
  });

  it('takes the front matter of every built-in skill, with the same result as js-yaml', () => {
    const dir = path.join(import.meta.dirname, '../../../skills-builtin');
    const names = readdirSync(dir).filter((n) => !n.startsWith('.'));
    expect(names.length).toBeGreaterThan(100);
    for (const name of names) {
      const text = readFileSync(path.join(dir, name, 'SKILL.md'), 'utf8').replace(/\r\n?/g, '\n');
      const lines = text.split('\n');
      const close = lines.findIndex((l, i) => i > 0 && l.startsWith('---'));
      const block = lines.slice(1, close).join('\n');
      const fast = parseSimpleYaml(block);
      expect(fast, name).toBeDefined();
      expectSame(block, fast!);
    }
  });
});
