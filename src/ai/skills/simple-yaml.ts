// A strict fast path for the front matter nearly every SKILL.md has: top-level `key: value` lines,
// one level of nested map (`metadata:` with indented `key: value` lines) and simple `- item` lists.
// Discovery parses hundreds of front matters per command, and js-yaml costs several times more per
// block than this scan (it is general, and cold: its first few hundred calls run unoptimised).
//
// The contract: for any block, `parseSimpleYaml` either declines (undefined) or returns exactly what
// js-yaml 3's `load(block, { schema: FAILSAFE_SCHEMA })` returns (test/ai/skills/simple-yaml.test.ts
// checks it on generated blocks and on every built-in skill). It declines anything it is not sure
// of: block scalars (`|`, `>`), flow collections, anchors, aliases, tags, directives, multi-line
// scalars, escapes in double quotes, tabs, odd indentation, duplicate keys, unusual key characters,
// trailing comments, control and line-separator characters. The caller then uses js-yaml, which also
// gives the errors. With the FAILSAFE schema every scalar is a string (`true`, `1.0`, `~` included);
// only an empty value is null.

/** Characters that make js-yaml do something other than read plain text, or that we choose not to reason about. */
const AWKWARD = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A key we accept: plain, starting with a letter, digit or `_`, then letters, digits, `_`, `-`, `.`. */
const KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const KEY_MAX = 128;
/** Characters that cannot start a plain scalar (YAML indicators), or start one we decline. */
const INDICATORS = '-?:,[]{}#&*!|>\'"%@`';

const SPACE = 0x20;

/** A value on a line: a string, null (nothing after the colon), or undefined to decline. */
type Scalar = string | null | undefined;

/**
 * The mapping in `block` (the text between the `---` lines, LF newlines), or undefined when the block
 * is outside the subset this parser is sure of.
 */
export function parseSimpleYaml(block: string): Record<string, unknown> | undefined {
  if (AWKWARD.test(block)) return undefined;
  const out: Record<string, unknown> = {};
  const lines = new LineCursor(block);
  let any = false;
  while (lines.next()) {
    if (lines.indent !== 0) return undefined;
    const entry = keyValue(lines.text, 0);
    if (entry === undefined || Object.hasOwn(out, entry.key)) return undefined;
    any = true;
    if (entry.value !== null) {
      out[entry.key] = entry.value;
      continue;
    }
    // `key:` with nothing after it: a nested map, a list, or null.
    if (!lines.peek()) {
      out[entry.key] = null;
      break;
    }
    const childIndent = lines.indent;
    const dash = isDashLine(lines.text, childIndent);
    if (dash) {
      const items = readList(lines, childIndent);
      if (items === undefined) return undefined;
      out[entry.key] = items;
    } else if (childIndent > 0) {
      const map = readMap(lines, childIndent);
      if (map === undefined) return undefined;
      out[entry.key] = map;
    } else out[entry.key] = null;
  }
  return any ? out : undefined;
}

/** Walks the content lines of a block: blank lines and whole-line comments are skipped. */
class LineCursor {
  private pos = 0;
  /** The current line and its indentation (leading spaces). */
  text = '';
  indent = 0;
  private peeked = false;

  constructor(private readonly block: string) {}

  /** Move to the next content line; false at the end. */
  next(): boolean {
    if (this.peeked) {
      this.peeked = false;
      return true;
    }
    return this.advance();
  }

  /** Look at the next content line without consuming it; false at the end. */
  peek(): boolean {
    if (this.peeked) return true;
    const found = this.advance();
    this.peeked = found;
    return found;
  }

  private advance(): boolean {
    const block = this.block;
    while (this.pos <= block.length) {
      let end = block.indexOf('\n', this.pos);
      if (end === -1) end = block.length;
      const start = this.pos;
      this.pos = end + 1;
      let i = start;
      while (i < end && block.charCodeAt(i) === SPACE) i++;
      if (i === end || block.charCodeAt(i) === 0x23 /* # */) continue;
      this.text = block.slice(start, end);
      this.indent = i - start;
      return true;
    }
    return false;
  }
}

function isDashLine(line: string, indent: number): boolean {
  return line.charCodeAt(indent) === 0x2d && (line.length === indent + 1 || line.charCodeAt(indent + 1) === SPACE);
}

/** `- item` lines at exactly `indent`, each a scalar. */
function readList(lines: LineCursor, indent: number): string[] | undefined {
  const items: string[] = [];
  while (lines.peek()) {
    if (lines.indent < indent) break;
    if (lines.indent > indent) return undefined;
    if (!isDashLine(lines.text, indent)) {
      // A list at the parent's indentation ends at the parent's next key.
      if (indent === 0) break;
      return undefined;
    }
    lines.next();
    const value = scalar(lines.text, indent + 2);
    // `-` alone is a null item: declined, like `- a: b` (a map item; scalar() refuses `: `).
    if (typeof value !== 'string') return undefined;
    items.push(value);
  }
  return items;
}

/** `key: value` lines at exactly `indent` (> 0), each value a scalar or null. */
function readMap(lines: LineCursor, indent: number): Record<string, unknown> | undefined {
  const map: Record<string, unknown> = {};
  while (lines.peek()) {
    if (lines.indent === 0) break;
    if (lines.indent !== indent) return undefined;
    lines.next();
    const entry = keyValue(lines.text, indent);
    if (entry === undefined || Object.hasOwn(map, entry.key)) return undefined;
    // A nested key with nothing after it: null, unless more-indented lines or a list follow (declined).
    if (entry.value === null && lines.peek() && (lines.indent > indent || (lines.indent === indent && isDashLine(lines.text, indent)))) return undefined;
    map[entry.key] = entry.value;
  }
  return map;
}

/** `key: value` or `key:` starting at `indent`; undefined when the line is anything else. */
function keyValue(line: string, indent: number): { key: string; value: string | null } | undefined {
  const colon = line.indexOf(':', indent);
  if (colon === -1) return undefined;
  const key = line.slice(indent, colon);
  if (key.length > KEY_MAX || !KEY.test(key) || key === '__proto__') return undefined;
  if (colon + 1 < line.length && line.charCodeAt(colon + 1) !== SPACE) return undefined;
  const value = scalar(line, colon + 1);
  if (value === undefined) return undefined;
  return { key, value };
}

/** The scalar from `from` to the end of `line` (leading spaces skipped); null when there is none. */
function scalar(line: string, from: number): Scalar {
  let i = from;
  while (i < line.length && line.charCodeAt(i) === SPACE) i++;
  if (i >= line.length) return null;
  let end = line.length;
  while (line.charCodeAt(end - 1) === SPACE) end--;
  const first = line[i]!;
  if (first === "'") {
    // 'text', with '' for a quote; it must close on this line, with nothing after it.
    let text = '';
    let j = i + 1;
    for (;;) {
      const q = line.indexOf("'", j);
      if (q === -1) return undefined;
      text += line.slice(j, q);
      if (line.charCodeAt(q + 1) === 0x27) {
        text += "'";
        j = q + 2;
        continue;
      }
      return q + 1 === end ? text : undefined;
    }
  }
  if (first === '"') {
    // "text" without escapes (a backslash is left to js-yaml).
    const q = line.indexOf('"', i + 1);
    if (q === -1 || q + 1 !== end) return undefined;
    const text = line.slice(i + 1, q);
    return text.includes('\\') ? undefined : text;
  }
  if (INDICATORS.includes(first)) return undefined;
  const text = line.slice(i, end);
  // `: ` or a final `:` would start a mapping, ` #` a comment.
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) return undefined;
  return text;
}
