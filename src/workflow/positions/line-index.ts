// Offsets → 1-based line/column. Built once per file; every position in the loader goes through it.
import type { Position } from '../model.js';

export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Binary search, so converting N offsets costs N log L rather than N × L. */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: clamped - this.starts[lo]! + 1 };
  }

  /** Offset of a 1-based line/column (the inverse of `position`). */
  offset(pos: Position): number {
    const start = this.starts[Math.max(0, pos.line - 1)] ?? this.text.length;
    return Math.min(start + Math.max(0, pos.column - 1), this.text.length);
  }

  /** The text of a 1-based line, without its newline. */
  lineText(line: number): string {
    const start = this.starts[line - 1];
    if (start === undefined) return '';
    const next = this.starts[line];
    const end = next === undefined ? this.text.length : next - 1;
    return this.text.slice(start, end).replace(/\r$/, '');
  }
}
