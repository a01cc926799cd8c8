// Where each key (and array element) of a JSON text sits: the JSON counterpart of the workflow
// loader's key-position index, for diagnostics on ai_config.json. Built only when there is a finding
// to place, from text that JSON.parse has already accepted.
import type { Position } from '../workflow/model.js';
import { LineIndex } from '../workflow/positions/index.js';

const SEP = '\u0000';
const MAX_DEPTH = 64;

export interface JsonKeyPositions {
  /** Position of the key (or array element); falls back to the nearest located ancestor. */
  locate(path: readonly (string | number)[]): Position | undefined;
}

export function indexJsonKeyPositions(text: string): JsonKeyPositions {
  const offsets = new Map<string, number>();
  new JsonScanner(text, offsets).value([], 0);
  const lines = new LineIndex(text);
  return {
    locate(path) {
      for (let n = path.length; n > 0; n -= 1) {
        const offset = offsets.get(path.slice(0, n).join(SEP));
        if (offset !== undefined) return lines.position(offset);
      }
      return undefined;
    },
  };
}

class JsonScanner {
  private i = 0;

  constructor(
    private readonly s: string,
    /** Last write wins, as in JSON.parse when a key is repeated. */
    private readonly offsets: Map<string, number>,
  ) {}

  private blank(): void {
    while (this.i < this.s.length && ' \t\r\n\ufeff'.includes(this.s[this.i]!)) this.i += 1;
  }

  private string(): string {
    const start = this.i;
    this.i += 1;
    while (this.i < this.s.length && this.s[this.i] !== '"') this.i += this.s[this.i] === '\\' ? 2 : 1;
    this.i += 1;
    try {
      return JSON.parse(this.s.slice(start, this.i)) as string;
    } catch {
      return '';
    }
  }

  value(path: (string | number)[], depth: number): void {
    this.blank();
    const c = this.s[this.i];
    if (c === '"') {
      this.string();
      return;
    }
    if (c !== '{' && c !== '[') {
      while (this.i < this.s.length && !',]} \t\r\n'.includes(this.s[this.i]!)) this.i += 1;
      return;
    }
    const close = c === '{' ? '}' : ']';
    this.i += 1;
    for (let n = 0; this.i < this.s.length; n += 1) {
      this.blank();
      if (this.s[this.i] === close) break;
      let item: (string | number)[];
      if (close === '}') {
        const at = this.i;
        item = [...path, this.string()];
        this.offsets.set(item.join(SEP), at);
        this.blank();
        this.i += 1; // the colon
      } else {
        this.blank();
        item = [...path, n];
        this.offsets.set(item.join(SEP), this.i);
      }
      // Deeper than any ai_config.json needs: skip the rest rather than recurse without bound.
      if (depth >= MAX_DEPTH) return;
      this.value(item, depth + 1);
      this.blank();
      if (this.s[this.i] !== ',') break;
      this.i += 1;
    }
    this.i += 1;
  }
}
