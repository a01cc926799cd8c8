// A strict fast path for the front matter nearly every SKILL.md has: top-level `key: value` lines,
// one level of nested map (`metadata:` with indented `key: value` lines) and simple `- item` lists.
// Discovery parses hundreds of front matters per command, and js-yaml costs several times more per
// block than this scan (it is general, and cold: its first few hundred calls run unoptimised). Each
// line is checked by one regular expression, which runs as native code from the first call and, used
// with test(), builds no match object; the little JavaScript around it cuts out the key and value and
// checks indentation and keys.
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

// A scalar after `key: ` or `- `: 'single-quoted' ('' for a quote), "double-quoted" without escapes,
// or plain. A plain scalar does not start with a YAML indicator or a space; inside it, `:` must be
// followed by a non-space (`: ` and a final `:` start a mapping) and a space must be followed, after
// any more spaces, by a character that is not `#` (` #` starts a comment). Trailing spaces are not
// part of it. Only ' ' is a space here (tabs were refused above), as in js-yaml.
const VALUE = String.raw`(?:'(?:[^'\n]|'')*'|"[^"\\\n]*"|[^ \n\-?:,[\]{}#&*!|>'"%@${'`'}](?:[^ \n:]|:(?=[^ \n])| (?= *[^ \n#]))*)`;
/**
 * One line, from where the last one ended (sticky): indentation, then `key:` with an optional value,
 * or `-` with an optional value, or a comment, or nothing; trailing spaces; the newline or the end.
 */
const LINE = new RegExp(String.raw` *(?:[A-Za-z0-9_][A-Za-z0-9_.-]*:(?: +${VALUE})?|-(?: +${VALUE})?|#[^\n]*)? *(?:\n|$)`, 'y');
const KEY_MAX = 128;
const SPACE = 0x20;

/** The scalar from `from` to `end` (a line LINE accepted, trailing spaces cut): null when there is none. */
function scalar(block: string, from: number, end: number): string | null {
  while (from < end && block.charCodeAt(from) === SPACE) from++;
  if (from === end) return null;
  const first = block.charCodeAt(from);
  if (first === 0x27 /* ' */) {
    const text = block.slice(from + 1, end - 1);
    return text.includes("''") ? text.replaceAll("''", "'") : text;
  }
  if (first === 0x22 /* " */) return block.slice(from + 1, end - 1);
  return block.slice(from, end);
}

/**
 * The mapping in `block` (the text between the `---` lines, LF newlines), or undefined when the block
 * is outside the subset this parser is sure of.
 */
export function parseSimpleYaml(block: string): Record<string, unknown> | undefined {
  if (block.length === 0 || AWKWARD.test(block)) return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  /** A top-level `key:` with no value: a map, a list or null, as the next content line tells. */
  let pending: string | undefined;
  /** The open nested map or list, and the indentation of its lines. */
  let map: Record<string, unknown> | undefined;
  let list: string[] | undefined;
  let childIndent = 0;
  LINE.lastIndex = 0;
  while (LINE.lastIndex < block.length) {
    const start = LINE.lastIndex;
    if (!LINE.test(block)) return undefined;
    // The line as LINE accepted it, without its newline and trailing spaces.
    let end = LINE.lastIndex;
    if (block.charCodeAt(end - 1) === 0x0a) end--;
    while (end > start && block.charCodeAt(end - 1) === SPACE) end--;
    let at = start;
    while (at < end && block.charCodeAt(at) === SPACE) at++;
    if (at === end || block.charCodeAt(at) === 0x23 /* # */) continue; // a blank line or a comment
    const indent = at - start;
    const dash = block.charCodeAt(at) === 0x2d; /* - (a key never starts with it) */
    // A key has no `:` of its own, so the first `:` ends it.
    const colon = dash ? -1 : block.indexOf(':', at);
    const key = dash ? undefined : block.slice(at, colon);
    if (pending !== undefined) {
      if (dash) out[pending] = list = [];
      else if (indent > 0) out[pending] = map = {};
      else out[pending] = null;
      childIndent = indent;
      pending = undefined;
    }
    if (list !== undefined) {
      if (dash && indent === childIndent) {
        const item = scalar(block, at + 1, end);
        if (item === null) return undefined; // `-` alone: a null item, left to js-yaml
        list.push(item);
        continue;
      }
      // A list ends at a line less indented, or at the parent's next key when it sits at the parent's indentation.
      if (indent > childIndent || (indent === childIndent && childIndent > 0)) return undefined;
      list = undefined;
    } else if (map !== undefined) {
      if (indent > 0) {
        // Only `key: value` or `key:` (null) lines at the map's indentation; anything deeper or a list is declined.
        if (indent !== childIndent || key === undefined || key.length > KEY_MAX || key === '__proto__' || Object.hasOwn(map, key)) return undefined;
        map[key] = scalar(block, colon + 1, end);
        continue;
      }
      map = undefined;
    }
    if (indent !== 0 || key === undefined || key.length > KEY_MAX || key === '__proto__' || Object.hasOwn(out, key)) return undefined;
    any = true;
    const value = scalar(block, colon + 1, end);
    if (value === null) pending = key;
    else out[key] = value;
  }
  if (pending !== undefined) out[pending] = null;
  return any ? out : undefined;
}
