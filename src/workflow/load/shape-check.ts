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

export function conformsToShape(shape: Shape, value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (shape.anyOf && !shape.anyOf.some((s) => conformsToShape(s, value, depth + 1))) return false;
  if (shape.oneOf && shape.oneOf.filter((s) => conformsToShape(s, value, depth + 1)).length !== 1) return false;
  if (shape.enum && !shape.enum.some((e) => e === value)) return false;
  if ('const' in shape && shape.const !== value) return false;
  if (shape.type !== undefined) {
    const types = Array.isArray(shape.type) ? shape.type : [shape.type];
    if (!types.some((t) => hasType(t, value))) return false;
  }
  if (typeof value === 'number') {
    if (shape.minimum !== undefined && value < shape.minimum) return false;
    if (shape.maximum !== undefined && value > shape.maximum) return false;
    if (shape.exclusiveMinimum !== undefined && value <= shape.exclusiveMinimum) return false;
    if (shape.exclusiveMaximum !== undefined && value >= shape.exclusiveMaximum) return false;
  }
  if (Array.isArray(value)) {
    if (shape.items) for (const item of value) if (!conformsToShape(shape.items, item, depth + 1)) return false;
    return true;
  }
  if (isPlainObject(value)) return objectConforms(shape, value, depth);
  return true;
}

function objectConforms(shape: Shape, value: Record<string, unknown>, depth: number): boolean {
  for (const key of shape.required ?? []) if (!Object.hasOwn(value, key)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (shape.propertyNames && !conformsToShape(shape.propertyNames, key, depth + 1)) return false;
    const known = shape.properties?.[key];
    if (known) {
      if (!conformsToShape(known, item, depth + 1)) return false;
    } else if (shape.additionalProperties === false) {
      return false;
    } else if (typeof shape.additionalProperties === 'object' && !conformsToShape(shape.additionalProperties, item, depth + 1)) {
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
      const known = shape.properties?.[key];
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
