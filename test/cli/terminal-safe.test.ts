import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasTerminalControls, terminalSafe, terminalSafeLine } from '../../src/cli/terminal-safe.js';

const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('turns ESC, other C0 controls, DEL, C1 and bidi controls into visible escapes', () => {
    expect(terminalSafe('\u001b[2J\u001b]0;title\u0007')).toBe('\\x1b[2J\\x1b]0;title\\x07');
    expect(terminalSafe('a\u009bb\u007fc\u0000')).toBe('a\\x9bb\\x7fc\\x00');
    expect(terminalSafe('abc\u202edcba\u2066\u2069\u200e\u200f\u061c')).toBe('abc\\u202edcba\\u2066\\u2069\\u200e\\u200f\\u061c');
    expect(terminalSafe('x\ry')).toBe('x\\ry');
  });

  it('keeps newlines and tabs, ordinary Unicode and backslashes as they are', () => {
    expect(terminalSafe('line 1\n\tline 2 — ünïcødé 漢字 \\x1b')).toBe('line 1\n\tline 2 — ünïcødé 漢字 \\x1b');
  });

  it('terminalSafeLine also escapes newlines and tabs', () => {
    expect(terminalSafeLine('a\nb\tc\u001b')).toBe('a\\nb\\tc\\x1b');
  });

  it('never leaves a raw control or bidi character, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(RAW.test(terminalSafe(s))).toBe(false);
        expect(/[\n\t]/.test(terminalSafeLine(s)) || RAW.test(terminalSafeLine(s))).toBe(false);
        expect(hasTerminalControls(terminalSafe(s))).toBe(false);
      }),
    );
  });

  it('hasTerminalControls finds what a terminal would act on', () => {
    expect(hasTerminalControls('plain\n')).toBe(false);
    expect(hasTerminalControls('x\u001b[31m')).toBe(true);
    expect(hasTerminalControls('x\u202e')).toBe(true);
  });
});
