// Positions for findings: a key path, or a piece of text inside the value at that key path.
import type { KeyPath, Position, Workflow } from '../model.js';
import { KeyPositions, LineIndex } from '../positions/index.js';

export interface Where {
  file: string;
  line?: number;
  column?: number;
  rule?: string;
}

/** Built once per check or lint run so every lookup shares one line index. */
export class Locator {
  private readonly lines: LineIndex;

  constructor(private readonly workflow: Workflow) {
    const p = workflow.positions;
    this.lines = p instanceof KeyPositions ? p.lines : new LineIndex(workflow.source);
  }

  private where(pos: Position | undefined, rule?: string): Where {
    const w: Where = { file: this.workflow.file };
    if (pos) {
      w.line = pos.line;
      w.column = pos.column;
    }
    if (rule !== undefined) w.rule = rule;
    return w;
  }

  at(path: KeyPath, rule?: string): Where {
    return this.where(this.workflow.positions.locate(path), rule);
  }

  /**
   * Position of `needle` inside the value written at `path` (e.g. `{config.refernce}` inside a shell
   * string), so the caret points at the problem; falls back to the key.
   */
  inValue(path: KeyPath, needle: string, rule?: string, occurrence = 0): Where {
    const key = this.workflow.positions.locate(path);
    if (!key) return this.where(undefined, rule);
    const start = this.lines.offset(key);
    let found = -1;
    let from = start;
    for (let n = 0; n <= occurrence; n += 1) {
      found = this.workflow.source.indexOf(needle, from);
      if (found < 0) break;
      from = found + needle.length;
    }
    // Only trust a hit close to the key: a long multi-line shell string is at most a few KB.
    if (found < 0 || found - start > 20_000) return this.where(key, rule);
    return this.where(this.lines.position(found), rule);
  }

  /**
   * Position of offset `at` of `text`, the value written at `path`: found through the line of the
   * text that holds it (a TOML string may be written with escapes, so offsets in the value and in
   * the file differ, but a line without escapes reads the same in both); falls back to the key.
   */
  atOffset(path: KeyPath, text: string, at: number, rule?: string): Where {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = text.indexOf('\n', at);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    const key = this.workflow.positions.locate(path);
    if (!key || line.trim() === '') return this.where(key, rule);
    const start = this.lines.offset(key);
    const found = this.workflow.source.indexOf(line, start);
    if (found < 0 || found - start > 20_000) return this.where(key, rule);
    return this.where(this.lines.position(found + (at - lineStart)), rule);
  }
}
