// Checks one of the AI layer's files (ai.toml, ai_config.json, .skill.toml, SKILL.md front matter)
// against its compiled shape (config-shapes.generated.ts, generated from the zod schemas in
// config-schemas.ts) and words each finding the way the file is written: a wrong type, an unknown key
// (with the nearest known one), a missing key. zod is never loaded here. The caller says which code
// each kind of finding gets and where a key path sits in its text; what a schema cannot say (name
// rules, lengths, URLs, secrets) stays with the caller.
import { diagnostic, type Diagnostic, type Location } from '../diagnostics/diagnostic.js';
import { nearestName } from '../diagnostics/nearest-name.js';
import type { Code } from '../diagnostics/registry.js';
import { conformsToShape, shapeFindings, type Shape, type ShapeFinding, type ShapePath } from '../workflow/load/shape-check.js';
import { typeName } from './skills/field-checks.js';

export interface CheckStyle {
  /** The code of each kind of finding; `choice` is for a value outside an enum (default: `type`). */
  codes: { type: Code; unknown: Code; missing: Code; choice?: Code };
  /** Where a key path sits in the file (only asked when there is a finding). */
  locate(path: ShapePath): Location;
  /** What the file calls a group of keys: "a table" (TOML), "an object" (JSON), "a mapping" (YAML). */
  table: string;
  /** How to name the group that holds an unknown key, e.g. "[ai.lint]" or "the skill file". */
  container(path: ShapePath): string;
  /** A hint for one finding where the generic one says less (e.g. "quote it" for a TOML version). */
  hint?(finding: ShapeFinding): string | undefined;
}

export interface CheckResult {
  readonly diagnostics: readonly Diagnostic[];
  /**
   * False when the value at `path`, anything inside it or anything around it has the wrong type or
   * misses a key: the reader skips it (an unknown key makes nothing unusable).
   */
  usable(path: ShapePath): boolean;
}

const key = (path: ShapePath) => path.join('\u0000');

/** Shared by every file that conforms; callers only read it. */
const CONFORMS: CheckResult = Object.freeze({ diagnostics: Object.freeze([]) as unknown as Diagnostic[], usable: () => true });

/** `style` is asked for only when there is something to report: a file that conforms (nearly all of them) costs one walk. */
export function checkAgainstShape(shape: Shape, data: unknown, style: () => CheckStyle): CheckResult {
  if (conformsToShape(shape, data)) return CONFORMS;
  const findings = shapeFindings(shape, data);
  const found = new Set<string>();
  const inside = new Set<string>();
  for (const f of findings) {
    if (f.kind === 'unknown') continue; // an unknown key is ignored; the table that holds it is still read
    found.add(key(f.path));
    for (let n = f.path.length; n >= 0; n -= 1) inside.add(key(f.path.slice(0, n)));
  }
  const usable = (path: ShapePath) => {
    if (inside.has(key(path))) return false;
    for (let n = path.length - 1; n >= 0; n -= 1) if (found.has(key(path.slice(0, n)))) return false;
    return true;
  };
  const wording = style();
  return { diagnostics: findings.map((f) => findingDiagnostic(f, wording)), usable };
}

/** `ai.lint.skills`, `models[0].aliases`: the path the way a user reads it. */
export function pathName(path: ShapePath): string {
  let text = '';
  for (const seg of path) text += typeof seg === 'number' ? `[${seg}]` : text === '' ? seg : `.${seg}`;
  return text;
}

function findingDiagnostic(f: ShapeFinding, style: CheckStyle): Diagnostic {
  const name = pathName(f.path);
  const hint = style.hint?.(f);
  const withHint = (where: Location) => (hint === undefined ? where : { ...where, hint });
  if (f.kind === 'unknown') {
    const last = String(f.path[f.path.length - 1]);
    const near = nearestName(last, f.known);
    const message = `unknown key \`${last}\` in ${style.container(f.path.slice(0, -1))}${near ? `; did you mean \`${near}\`?` : ''}`;
    return diagnostic(style.codes.unknown, message, {
      ...style.locate(f.path),
      hint: hint ?? (near ? `rename it to \`${near}\`, or remove it` : `known keys here: ${f.known.join(', ')}`),
    });
  }
  const expected = expectedText(f.shape, style.table);
  if (f.kind === 'missing') {
    const container = f.path.slice(0, -1);
    return diagnostic(style.codes.missing, `missing required field \`${name}\` (${expected})`, withHint(style.locate(container)));
  }
  if (f.shape.enum && typeof f.value === 'string') {
    return diagnostic(style.codes.choice ?? style.codes.type, `\`${name}\` is ${JSON.stringify(f.value)}; it must be ${expected}`, withHint(style.locate(f.path)));
  }
  return diagnostic(style.codes.type, `\`${name}\` must be ${expected}, found ${typeName(f.value)}`, withHint(style.locate(f.path)));
}

/** "a positive integer", "an array of strings", "a string or an array of strings", '"knowledge" or "tool"'. */
export function expectedText(shape: Shape, table: string): string {
  if (shape.enum) return orList(shape.enum.map((v) => JSON.stringify(v)));
  if ('const' in shape) return JSON.stringify(shape.const);
  const union = shape.anyOf ?? shape.oneOf;
  if (union) return orList([...new Set(union.map((s) => expectedText(s, table)))]);
  const types = shape.type === undefined ? [] : Array.isArray(shape.type) ? shape.type : [shape.type];
  if (types.length === 0) return 'any value';
  return orList(types.map((t) => typeText(t, shape, table)));
}

function typeText(type: string, shape: Shape, table: string): string {
  switch (type) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'integer':
      if (shape.exclusiveMinimum === 0 || shape.minimum === 1) return 'a positive integer';
      return shape.minimum === 0 ? 'a non-negative integer' : 'an integer';
    case 'number':
      if (shape.exclusiveMinimum === 0) return 'a positive number';
      return shape.minimum === 0 ? 'a non-negative number' : 'a number';
    case 'array':
      return shape.items ? `an array of ${plural(expectedText(shape.items, table))}` : 'an array';
    case 'object':
      if (!shape.properties && typeof shape.additionalProperties === 'object') return `${table} of ${plural(expectedText(shape.additionalProperties, table))}`;
      return table;
    default:
      return type;
  }
}

function plural(text: string): string {
  const m = /^an? (\w+)$/.exec(text);
  return m ? `${m[1]}s` : `values that are each ${text}`;
}

function orList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Diagnostics in file order (line, then column; those without a line first), stable otherwise. */
export function inFileOrder(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length < 2) return diagnostics;
  return diagnostics
    .map((d, n) => ({ d, n }))
    .sort((a, b) => (a.d.line ?? 0) - (b.d.line ?? 0) || (a.d.column ?? 0) - (b.d.column ?? 0) || a.n - b.n)
    .map((x) => x.d);
}
