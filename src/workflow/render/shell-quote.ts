// Every value substituted into a shell command reaches the shell as literal text. A value is quoted
// for the place it lands in the command: bare (POSIX single quotes, unless every character is safe,
// so ordinary commands read exactly as written), inside '…' the user wrote, or inside "…".
// Each function is one pass over the value: no per-job regular expression is compiled.

const SAFE = /^[A-Za-z0-9_/.:=@%+,-]+$/;

/** Where a placeholder sits in a command: outside quotes, inside single quotes, inside double quotes. */
export type QuoteContext = 'bare' | 'single' | 'double';

/** POSIX single-quote a word unless every character is shell-safe. */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A value made literal for its context: the shell gives back exactly `value`, as part of one word. */
export function quoteFor(context: QuoteContext, value: string): string {
  switch (context) {
    case 'bare':
      return shellQuote(value);
    case 'single':
      // Inside '…' everything is literal except the closing quote: close, escape it, reopen.
      return value.includes("'") ? value.replace(/'/g, `'\\''`) : value;
    case 'double':
      // Inside "…" only $ ` " \ are special (and a backslash before a newline).
      return /[$`"\\]/.test(value) ? value.replace(/[$`"\\]/g, '\\$&') : value;
  }
}

/**
 * The quote context at each offset of interest in a command template, found by one scan that follows
 * the shell's quoting rules (backslash escapes, '…', "…"). `offsets` must be ascending.
 */
export function quoteContexts(text: string, offsets: readonly number[]): QuoteContext[] {
  const out: QuoteContext[] = [];
  let state: QuoteContext = 'bare';
  let next = 0;
  for (let i = 0; i <= text.length && next < offsets.length; i++) {
    while (next < offsets.length && offsets[next]! <= i) {
      out.push(state);
      next += 1;
    }
    const ch = text[i];
    if (state === 'single') {
      if (ch === "'") state = 'bare';
    } else if (ch === '\\') {
      i += 1; // the next character is escaped (in "…" too, for the characters that matter here)
    } else if (state === 'double') {
      if (ch === '"') state = 'bare';
    } else if (ch === "'") state = 'single';
    else if (ch === '"') state = 'double';
  }
  while (out.length < offsets.length) out.push(state);
  return out;
}
