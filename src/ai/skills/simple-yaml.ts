// A strict fast path for the front matter nearly every SKILL.md has: top-level `key: value` lines,
// one level of nested map (`metadata:` with indented `key: value` lines) and simple `- item` lists.
// Discovery parses hundreds of front matters per command, and js-yaml costs several times more per
// block than this scan (it is general, and cold: its first few hundred calls run unoptimised). Each
// line is read by one regular expression, which runs as native code from the first call; the little
// JavaScript around it only checks indentation and keys.
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
const VALUE = String.raw`(?:'((?:[^'\n]|'')*)'|"([^"\\\n]*)"|([^ \n\-?:,[\]{}#&*!|>'"%@${'`'}](?:[^ \n:]|:(?=[^ \n])| (?= *[^ \n#]))*))`;
/**
 * One line, from where the last one ended (sticky): indentation (1), then `key:` (2) with an optional
 * value (3-5), or `-` (6) with an optional value (7-9), or a comment, or nothing; trailing spaces;
 * the newline or the end of the block.
 */
const LINE = new RegExp(String.raw`( *)(?:([A-Za-z0-9_][A-Za-z0-9_.-]*):(?: +${VALUE})?|(-)(?: +${VALUE})?|#[^\n]*)? *(?:\n|$)`, 'y');
const KEY_MAX = 128;

/** The value of a line's match: groups `at`, `at + 1`, `at + 2` hold the single-quoted, double-quoted or plain form. */
function scalarAt(m: RegExpExecArray, at: number): string | null {
  const single = m[at];
  if (single !== undefined) return single.includes("''") ? single.replaceAll("''", "'") : single;
  return m[at + 1] ?? m[at + 2] ?? null;
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
    const m = LINE.exec(block);
    if (m === null) return undefined;
    const key = m[2];
    const dash = m[6] !== undefined;
    if (key === undefined && !dash) continue; // a blank line or a comment
    const indent = m[1]!.length;
    if (pending !== undefined) {
      if (dash) out[pending] = list = [];
      else if (indent > 0) out[pending] = map = {};
      else out[pending] = null;
      childIndent = indent;
      pending = undefined;
    }
    if (list !== undefined) {
      if (dash && indent === childIndent) {
        const item = scalarAt(m, 7);
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
        map[key] = scalarAt(m, 3);
        continue;
      }
      map = undefined;
    }
    if (indent !== 0 || key === undefined || key.length > KEY_MAX || key === '__proto__' || Object.hasOwn(out, key)) return undefined;
    any = true;
    const value = scalarAt(m, 3);
    if (value === null) pending = key;
    else out[key] = value;
  }
  if (pending !== undefined) out[pending] = null;
  return any ? out : undefined;
}
