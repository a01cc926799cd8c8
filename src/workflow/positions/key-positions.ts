// Where each key (and each array element) sits in the TOML text. smol-toml gives values without
// positions, so we scan the text ourselves once, in one linear pass, after smol-toml has accepted it.
// The scanner is tolerant: on text it does not understand it skips ahead rather than failing, because
// a missing position only makes a diagnostic less precise, never wrong.
import type { KeyPath, Position, PositionIndex } from '../model.js';
import { LineIndex } from './line-index.js';

const SEP = '\u0000';

function keyOf(path: KeyPath): string {
  return path.join(SEP);
}

export class KeyPositions implements PositionIndex {
  private readonly keys = new Map<string, number>();
  private readonly values = new Map<string, number>();
  private scanned = false;

  /** The text is scanned on the first question: a file with nothing to report never pays for it. */
  constructor(
    readonly lines: LineIndex,
    private readonly text: string,
  ) {}

  private ensureScanned(): void {
    if (this.scanned) return;
    this.scanned = true;
    new Scanner(this.text, this).run();
  }

  /** First write wins, so a table header and a later dotted key both point at the first mention. */
  recordKey(path: KeyPath, offset: number): void {
    const k = keyOf(path);
    if (!this.keys.has(k)) this.keys.set(k, offset);
  }

  recordValue(path: KeyPath, offset: number): void {
    const k = keyOf(path);
    if (!this.values.has(k)) this.values.set(k, offset);
  }

  /** Position of the key (or array element); falls back to the nearest located ancestor. */
  locate(path: KeyPath): Position | undefined {
    this.ensureScanned();
    for (let n = path.length; n > 0; n -= 1) {
      const offset = this.keys.get(keyOf(path.slice(0, n)));
      if (offset !== undefined) return this.lines.position(offset);
    }
    return undefined;
  }

  /** Position of the value's first character (a string's opening quote), when recorded. */
  locateValue(path: KeyPath): Position | undefined {
    this.ensureScanned();
    const offset = this.values.get(keyOf(path));
    return offset === undefined ? this.locate(path) : this.lines.position(offset);
  }

  /** True when the exact path was written in the file. */
  has(path: KeyPath): boolean {
    this.ensureScanned();
    return this.keys.has(keyOf(path));
  }
}

/** A-Z a-z 0-9 _ - (TOML bare keys), by character code: no one-character string per test. */
function isBareKeyChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 45;
}

/** Index the position of every key path of TOML text (scanned when first asked). */
export function indexKeyPositions(text: string, lines: LineIndex = new LineIndex(text)): KeyPositions {
  return new KeyPositions(lines, text);
}

class Scanner {
  private i = 0;
  /** Current table prefix set by the last [header] or [[header]]. */
  private table: (string | number)[] = [];
  /** Array-of-tables path → number of elements seen so far. */
  private readonly arrayTables = new Map<string, number>();

  constructor(
    private readonly s: string,
    private readonly index: KeyPositions,
  ) {}

  run(): void {
    const s = this.s;
    while (this.i < s.length) {
      this.skipBlank(true);
      if (this.i >= s.length) break;
      const c = s[this.i];
      const before = this.i;
      if (c === '[') this.header();
      else this.keyValue(this.table);
      this.skipToLineEnd();
      if (this.i === before) this.i += 1; // never loop in place on unexpected text
    }
  }

  private skipBlank(newlines: boolean): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) this.i += 1;
      else if (c === '#') {
        const end = s.indexOf('\n', this.i);
        this.i = end === -1 ? s.length : end;
      } else break;
    }
  }

  private skipToLineEnd(): void {
    this.skipBlank(false);
    const end = this.s.indexOf('\n', this.i);
    this.i = end === -1 ? this.s.length : end;
  }

  /** Resolve a dotted header path: segments naming an array of tables point at its last element. */
  private resolve(segments: { key: string; offset: number }[], isArrayHeader: boolean): (string | number)[] {
    const path: (string | number)[] = [];
    segments.forEach((seg, n) => {
      path.push(seg.key);
      const last = n === segments.length - 1;
      const count = this.arrayTables.get(keyOf(path));
      if (last && isArrayHeader) {
        const next = count ?? 0;
        this.arrayTables.set(keyOf(path), next + 1);
        this.index.recordKey(path, seg.offset);
        path.push(next);
        this.index.recordKey(path, seg.offset);
        return;
      }
      this.index.recordKey(path, seg.offset);
      if (count !== undefined) path.push(count - 1);
    });
    return path;
  }

  private header(): void {
    const isArray = this.s[this.i + 1] === '[';
    this.i += isArray ? 2 : 1;
    const segments = this.dottedKey();
    this.table = this.resolve(segments, isArray);
  }

  /** Read `a."b c".d` and return each segment with its offset. */
  private dottedKey(): { key: string; offset: number }[] {
    const segments: { key: string; offset: number }[] = [];
    const s = this.s;
    for (;;) {
      this.skipBlank(false);
      const offset = this.i;
      const c = s[this.i];
      let key = '';
      if (c === '"' || c === "'") key = this.readString(c, true);
      else {
        const start = this.i;
        while (this.i < s.length && isBareKeyChar(s.charCodeAt(this.i))) this.i += 1;
        key = s.slice(start, this.i);
      }
      if (key === '' && offset === this.i) return segments;
      segments.push({ key, offset });
      this.skipBlank(false);
      if (s[this.i] === '.') {
        this.i += 1;
        continue;
      }
      return segments;
    }
  }

  private keyValue(prefix: (string | number)[]): void {
    const segments = this.dottedKey();
    if (segments.length === 0) return;
    const path = [...prefix];
    for (const seg of segments) {
      path.push(seg.key);
      this.index.recordKey(path, seg.offset);
    }
    this.skipBlank(false);
    if (this.s[this.i] !== '=') return;
    this.i += 1;
    this.skipBlank(false);
    this.value(path);
  }

  private value(path: (string | number)[]): void {
    const s = this.s;
    const c = s[this.i];
    this.index.recordValue(path, this.i);
    if (c === '"' || c === "'") {
      this.readString(c, false);
    } else if (c === '[') {
      this.array(path);
    } else if (c === '{') {
      this.inlineTable(path);
    } else {
      while (this.i < s.length && !',]}\n#'.includes(s[this.i]!)) this.i += 1;
    }
  }

  private array(path: (string | number)[]): void {
    let n = 0;
    this.delimited(']', () => {
      const element = [...path, n];
      this.index.recordKey(element, this.i);
      this.value(element);
      n += 1;
    });
  }

  private inlineTable(path: (string | number)[]): void {
    this.delimited('}', () => this.keyValue(path));
  }

  /** `[a, b]` or `{ k = v, … }` from the opening bracket: one `item` per entry, up to `close`. */
  private delimited(close: ']' | '}', item: () => void): void {
    const s = this.s;
    this.i += 1;
    while (this.i < s.length) {
      this.skipBlank(true);
      const c = s[this.i];
      if (c === close) {
        this.i += 1;
        return;
      }
      if (c === ',') {
        this.i += 1;
        continue;
      }
      const before = this.i;
      item();
      if (this.i === before) this.i += 1; // never stall on text the scanner does not understand
    }
  }

  /**
   * Move past a basic or literal string, single- or multi-line. With `decode` (keys), return its
   * decoded-enough value; values are only skipped, so a long shell command costs no copying.
   */
  private readString(quote: string, decode: boolean): string {
    const s = this.s;
    const triple = s.startsWith(quote.repeat(3), this.i);
    if (triple) {
      const end = s.indexOf(quote.repeat(3), this.i + 3);
      const stop = end < 0 ? s.length : end + 3;
      // A closing delimiter may carry up to two extra quotes (`""""` ends with a quote in the value).
      let after = stop;
      while (after < s.length && s[after] === quote && after - stop < 2) after += 1;
      const value = decode ? s.slice(this.i + 3, after - 3) : '';
      this.i = after;
      return value;
    }
    const q = quote.charCodeAt(0);
    let value = '';
    this.i += 1;
    let run = this.i; // start of the characters not yet copied into value
    for (; this.i < s.length; this.i += 1) {
      const code = s.charCodeAt(this.i);
      if (code === q || code === 10) break;
      if (code === 92 && q === 34) {
        // A backslash in a basic string: keep what came before, decode the escape, skip both.
        const next = s[this.i + 1] ?? '';
        if (decode) value += s.slice(run, this.i) + (next === 'n' ? '\n' : next === 't' ? '\t' : next);
        this.i += 1;
        run = this.i + 1;
      }
    }
    if (decode) value += s.slice(run, Math.min(this.i, s.length));
    if (s[this.i] === quote) this.i += 1;
    return value;
  }
}
