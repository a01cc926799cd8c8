// singleLine's shortcut for text that is one plain line already must change nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalisePromptText, singleLine } from '../../../src/ai/skills/prompt-text.js';

/** singleLine without its shortcut. */
const reference = (text: string) => normalisePromptText(text).replace(/\s+/g, ' ').trim();

describe('singleLine', () => {
  it('gives what the full normalisation gives, for plain lines and for anything else', () => {
    const piece = fc.constantFrom('a', 'Use', 'when:', 'x,', '-', '~', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u200b', '\u202e', '\u0007', '\u007f', '\u0085', 'é', '😀');
    const text = fc.oneof(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(fc.stringMatching(/^[!-~]{1,8}$/), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(singleLine(t)).toBe(reference(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('collapses and strips what a list cannot show', () => {
    expect(singleLine('  Sorts\treads\r\n\u200bfast  ')).toBe('Sorts reads fast');
    expect(singleLine('Sorts reads. Use when: aligning')).toBe('Sorts reads. Use when: aligning');
  });
});
