// Random edits of a JSON-like document (set a value, delete a key, add a key), for property tests
// that a compiled shape and its zod schema agree (test/workflow/load/shape-check.test.ts,
// test/ai/config-check.test.ts). TOML data may hold dates, so one leaf is a Date.
import fc from 'fast-check';

export type Json = unknown;
export const leaf = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.integer({ min: -3, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant([] as Json[]),
  fc.constant({} as Record<string, Json>),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.constant(new Date(0)),
);

export function paths(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === 'object' && !(value instanceof Date)) for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

export function mutate(base: Json, at: (string | number)[], op: 'set' | 'delete' | 'add', value: Json, key: string): Json {
  const copy = structuredClone(base) as Record<string | number, Json>;
  if (at.length === 0) return op === 'set' ? value : copy;
  let parent: Record<string | number, Json> = copy;
  for (const seg of at.slice(0, -1)) {
    const next = parent?.[seg];
    if (next === null || typeof next !== 'object') return copy; // an earlier mutation removed this path
    parent = next as Record<string | number, Json>;
  }
  if (parent === null || typeof parent !== 'object') return copy;
  const last = at[at.length - 1]!;
  if (op === 'set') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target !== null && typeof target === 'object' && !Array.isArray(target) && !(target instanceof Date)) (target as Record<string, Json>)[key] = value;
  }
  return copy;
}

export const hasDate = (v: Json): boolean =>
  v instanceof Date || (Array.isArray(v) ? v.some(hasDate) : v !== null && typeof v === 'object' ? Object.values(v).some(hasDate) : false);

