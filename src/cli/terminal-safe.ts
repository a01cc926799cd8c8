// Untrusted text (model output, server messages, names) made safe for a terminal: control
// characters that could move the cursor, recolour, retitle or reorder what the reader sees become
// visible escapes. JSON output keeps the exact text; only human renderers use this.

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]|[\t\n]/g;

/** `\x1b`, `\u202e`, …; newlines and tabs are kept. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === '\n' || c === '\t') return c;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
