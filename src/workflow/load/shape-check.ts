// The loader's fast path: does the parsed TOML conform to the format's shape? The shape is the JSON
// Schema that zod generates from src/workflow/schema.ts (compiled into schema-shape.generated.ts), so
// zod stays the single source of truth. This check only answers yes or no; for a "no", the loader asks
// zod itself for the precise issues. It is deliberately stricter than zod where they could differ
// (only plain objects count as tables), so a "yes" always means zod would accept the data too.
// `shapeFindings` says where a "no" comes from, for readers that must explain without zod (the AI
// layer's config and skill files: see src/ai/config-check.ts).

export interface Shape {
  type?: string | string[];
  properties?: Record<string, Shape>;
  required?: string[];
  additionalProperties?: boolean | Shape;
  propertyNames?: Shape;
  items?: Shape;
  anyOf?: Shape[];
  oneOf?: Shape[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

const MAX_DEPTH = 64;

/**
 * Every JSON Schema keyword that conformsToShape implements. A shape is generated from zod's JSON
 * Schema (src/workflow/schema-runtime.ts, shapeOf), which refuses any other keyword: a keyword the
 * check ignored (minLength, pattern, maxItems…) would let through data that zod rejects.
 */
export const SHAPE_KEYWORDS: ReadonlySet<string> = new Set(['type', 'properties', 'required', 'additionalProperties', 'propertyNames', 'items', 'anyOf', 'oneOf', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/** Where `shape` uses a keyword outside SHAPE_KEYWORDS, or one in a form the check does not read, as `<JSON pointer>: <keyword>`. */
export function unimplementedKeywords(shape: unknown, at = '#'): string[] {
  if (shape === null || typeof shape !== 'object' || Array.isArray(shape)) return [`${at}: not a schema object`];
  const out: string[] = [];
  for (const [key, value] of Object.entries(shape)) {
    const here = `${at}/${key}`;
    if (!SHAPE_KEYWORDS.has(key)) out.push(`${at}: ${key}`);
    else if (key === 'properties') for (const [name, sub] of Object.entries(value as object)) out.push(...unimplementedKeywords(sub, `${here}/${name}`));
    else if (key === 'anyOf' || key === 'oneOf') (value as unknown[]).forEach((sub, i) => out.push(...unimplementedKeywords(sub, `${here}/${i}`)));
    else if (key === 'items' || key === 'propertyNames' || (key === 'additionalProperties' && typeof value !== 'boolean')) out.push(...unimplementedKeywords(value, here));
  }
  return out;
}

export function conformsToShape(shape: Shape, value: unknown, depth = 0): boolean {
  return conforms(compiled(shape), value, depth);
}

/**
 * A shape with every field present, in one order, so that every node has the same hidden class:
 * the generated shapes are JSON literals of a dozen different layouts, and reading `shape.anyOf` on
 * each of them would make V8's property lookups megamorphic. This check runs once per value of every
 * file read (hundreds of skills in `ai status`), mostly before V8 has optimised it. A node is filled
 * in when first visited, so a file pays only for the part of the shape it uses.
 */
class Node {
  ready = false;
  /** The one type of a shape that says nothing else (most leaves): tested in place, without a call. */
  leaf: string | undefined = undefined;
  types: string[] | undefined = undefined;
  anyOf: Node[] | undefined = undefined;
  oneOf: Node[] | undefined = undefined;
  enum: unknown[] | undefined = undefined;
  hasConst = false;
  const: unknown = undefined;
  minimum: number | undefined = undefined;
  maximum: number | undefined = undefined;
  exclusiveMinimum: number | undefined = undefined;
  exclusiveMaximum: number | undefined = undefined;
  items: Node | undefined = undefined;
  required: string[] | undefined = undefined;
  properties: Record<string, Shape> | undefined = undefined;
  /** The nodes of `properties`, made when a key is first seen. */
  children: Record<string, Node> | undefined = undefined;
  propertyNames: Node | undefined = undefined;
  /** false: no other key; a node: every other key's value; undefined: anything. */
  additionalProperties: false | Node | undefined = undefined;

  constructor(readonly raw: Shape) {}
}

const roots = new WeakMap<Shape, Node>();

function compiled(shape: Shape): Node {
  let node = roots.get(shape);
  if (node === undefined) {
    node = new Node(shape);
    roots.set(shape, node);
  }
  return node;
}

function prepare(node: Node): Node {
  const shape = node.raw;
  const sub = (s: Shape) => new Node(s);
  const extra = shape.additionalProperties;
  if (shape.type !== undefined) node.types = Array.isArray(shape.type) ? shape.type : [shape.type];
  if (shape.anyOf !== undefined) node.anyOf = shape.anyOf.map(sub);
  if (shape.oneOf !== undefined) node.oneOf = shape.oneOf.map(sub);
  node.enum = shape.enum;
  node.hasConst = 'const' in shape;
  node.const = shape.const;
  node.minimum = shape.minimum;
  node.maximum = shape.maximum;
  node.exclusiveMinimum = shape.exclusiveMinimum;
  node.exclusiveMaximum = shape.exclusiveMaximum;
  if (shape.items !== undefined) node.items = sub(shape.items);
  node.required = shape.required;
  if (shape.properties !== undefined) {
    node.properties = shape.properties;
    node.children = Object.create(null) as Record<string, Node>;
  }
  if (shape.propertyNames !== undefined) node.propertyNames = sub(shape.propertyNames);
  node.additionalProperties = extra === undefined || extra === true ? undefined : extra === false ? false : sub(extra);
  if (typeof shape.type === 'string' && Object.keys(shape).length === 1) node.leaf = shape.type;
  node.ready = true;
  return node;
}

function conforms(node: Node, value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const shape = node.ready ? node : prepare(node);
  // The type first: it is the cheapest test and the one that fails most often.
  const types = shape.types;
  if (types !== undefined && !(types.length === 1 ? hasType(types[0]!, value) : anyType(types, value))) return false;
  // Loops rather than .some(callback): no closure is made per value.
  if (shape.anyOf !== undefined && matching(shape.anyOf, value, depth + 1, 1) === 0) return false;
  if (shape.oneOf !== undefined && matching(shape.oneOf, value, depth + 1, 2) !== 1) return false;
  if (shape.enum !== undefined && !shape.enum.includes(value)) return false;
  if (shape.hasConst && shape.const !== value) return false;
  if (typeof value === 'number') {
    if (shape.minimum !== undefined && value < shape.minimum) return false;
    if (shape.maximum !== undefined && value > shape.maximum) return false;
    if (shape.exclusiveMinimum !== undefined && value <= shape.exclusiveMinimum) return false;
    if (shape.exclusiveMaximum !== undefined && value >= shape.exclusiveMaximum) return false;
    return true;
  }
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    const items = shape.items;
    if (items !== undefined) for (const item of value) if (!fits(items, item, depth + 1)) return false;
    return true;
  }
  if (isPlainObject(value)) return objectConforms(shape, value, depth);
  return true;
}

/** `conforms`, with a plain-typed leaf (most of them) tested in place: fewer calls, less for V8 to optimise. */
function fits(node: Node, value: unknown, depth: number): boolean {
  const leaf = node.leaf;
  if (leaf === undefined) return conforms(node, value, depth);
  return leaf === 'string' ? typeof value === 'string' : hasType(leaf, value);
}

function anyType(types: string[], value: unknown): boolean {
  for (const t of types) if (hasType(t, value)) return true;
  return false;
}

/** How many of `options` the value conforms to, counting up to `enough`. */
function matching(options: Node[], value: unknown, depth: number, enough: number): number {
  let n = 0;
  for (const option of options) if (fits(option, value, depth) && ++n >= enough) break;
  return n;
}

function objectConforms(shape: Node, value: Record<string, unknown>, depth: number): boolean {
  if (shape.required !== undefined) for (const key of shape.required) if (!Object.hasOwn(value, key)) return false;
  const { properties, propertyNames, additionalProperties } = shape;
  for (const key of Object.keys(value)) {
    if (propertyNames !== undefined && !conforms(propertyNames, key, depth + 1)) return false;
    // Own keys only: a key named `constructor` or `toString` is not a known property.
    const known = properties !== undefined && Object.hasOwn(properties, key) ? (shape.children![key] ??= new Node(properties[key]!)) : undefined;
    if (known !== undefined) {
      if (!fits(known, value[key], depth + 1)) return false;
    } else if (additionalProperties === false) {
      return false;
    } else if (additionalProperties !== undefined && !fits(additionalProperties, value[key], depth + 1)) {
      return false;
    }
  }
  return true;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export type ShapePath = (string | number)[];

/** Why data does not conform, one finding per place: an unknown key, a missing key, or a value of the wrong type. */
export type ShapeFinding =
  | { kind: 'unknown'; path: ShapePath; known: string[] }
  | { kind: 'missing'; path: ShapePath; shape: Shape }
  | { kind: 'type'; path: ShapePath; shape: Shape; value: unknown };

/**
 * The findings for `value` against `shape`, in the data's key order; empty exactly when
 * `conformsToShape` says yes. Objects and arrays are walked so each finding names the innermost
 * place; a union whose one table branch matches the value's kind is walked the same way.
 */
export function shapeFindings(shape: Shape, value: unknown, path: ShapePath = [], depth = 0): ShapeFinding[] {
  if (conformsToShape(shape, value, depth)) return [];
  if (depth > MAX_DEPTH) return [{ kind: 'type', path, shape, value }];
  const union = shape.anyOf ?? shape.oneOf;
  if (union) {
    const tables = union.filter((s) => s.type === 'object');
    const arrays = union.filter((s) => s.type === 'array');
    if (isPlainObject(value) && tables.length === 1) return shapeFindings(tables[0]!, value, path, depth + 1);
    if (Array.isArray(value) && arrays.length === 1) return shapeFindings(arrays[0]!, value, path, depth + 1);
    return [{ kind: 'type', path, shape, value }];
  }
  if (shape.type === 'object' && isPlainObject(value)) {
    const out: ShapeFinding[] = [];
    for (const key of shape.required ?? []) {
      if (!Object.hasOwn(value, key)) out.push({ kind: 'missing', path: [...path, key], shape: shape.properties?.[key] ?? {} });
    }
    for (const [key, item] of Object.entries(value)) {
      const known = shape.properties !== undefined && Object.hasOwn(shape.properties, key) ? shape.properties[key] : undefined;
      if (known) out.push(...shapeFindings(known, item, [...path, key], depth + 1));
      else if (shape.additionalProperties === false) out.push({ kind: 'unknown', path: [...path, key], known: Object.keys(shape.properties ?? {}) });
      else if (typeof shape.additionalProperties === 'object') out.push(...shapeFindings(shape.additionalProperties, item, [...path, key], depth + 1));
    }
    // A rule the walk does not name (a key pattern): the table as a whole is reported.
    return out.length > 0 ? out : [{ kind: 'type', path, shape, value }];
  }
  if (shape.type === 'array' && Array.isArray(value) && shape.items) {
    const items = shape.items;
    const out = value.flatMap((item, n) => shapeFindings(items, item, [...path, n], depth + 1));
    return out.length > 0 ? out : [{ kind: 'type', path, shape, value }];
  }
  return [{ kind: 'type', path, shape, value }];
}
