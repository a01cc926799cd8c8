// The state index: every job's current record in one file, `.oxo-flow/state/index.jsonl`. After a
// header line, one line per job: the JSON-encoded job id, a tab, the record's JSON. Lines are sorted by
// the id's UTF-8 bytes, so a lookup is a binary search in the file's bytes: a start-up that asks for
// 10 jobs reads the file and decodes 10 lines, whether it holds 10 records or 100,000. Written whole
// by compaction (src/run/state.ts), never edited in place.
import { readFileSync } from 'node:fs';

export const INDEX_HEADER = 'oxo-flow state index 1';
const NL = 0x0a;
const TAB = 0x09;

export class StateIndex {
  readonly #buf: Buffer;
  readonly #start: number;

  private constructor(buf: Buffer, start: number) {
    this.#buf = buf;
    this.#start = start;
  }

  /** The index in `file`; undefined when there is none; 'damaged' when the file is not an index. */
  static read(file: string): StateIndex | undefined | 'damaged' {
    let buf: Buffer;
    try {
      buf = readFileSync(file);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'damaged';
    }
    const end = buf.indexOf(NL);
    if (end < 0 || buf.toString('utf8', 0, end) !== INDEX_HEADER) return 'damaged';
    return new StateIndex(buf, end + 1);
  }

  /** The record text of a job id, or undefined. */
  lookup(id: string): string | undefined {
    const key = Buffer.from(JSON.stringify(id));
    const buf = this.#buf;
    let lo = this.#start;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = Math.max(lo, buf.lastIndexOf(NL, mid - 1) + 1);
      let e = buf.indexOf(NL, s);
      if (e < 0 || e > hi) e = hi;
      let tab = buf.indexOf(TAB, s);
      if (tab < 0 || tab > e) tab = e;
      const c = buf.compare(key, 0, key.length, s, tab);
      if (c === 0) return buf.toString('utf8', tab + 1, e);
      if (c < 0) lo = e + 1;
      else hi = s;
    }
    return undefined;
  }

  /** Every line as [JSON-encoded id, record text], in order. */
  *lines(): IterableIterator<[string, string]> {
    const buf = this.#buf;
    let s = this.#start;
    while (s < buf.length) {
      let e = buf.indexOf(NL, s);
      if (e < 0) e = buf.length;
      const tab = buf.indexOf(TAB, s);
      if (tab > s && tab < e) yield [buf.toString('utf8', s, tab), buf.toString('utf8', tab + 1, e)];
      s = e + 1;
    }
  }
}

/** The text of an index holding these [JSON-encoded id, record text] entries (sorted here). */
export function indexText(entries: readonly [string, string][]): string {
  const keyed = entries.map(([key, text]) => ({ key: Buffer.from(key), line: `${key}\t${text}\n` }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return `${INDEX_HEADER}\n${keyed.map((k) => k.line).join('')}`;
}
