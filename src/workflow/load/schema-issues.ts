// Turn zod issues into our diagnostics: unknown key → E020 (with the nearest known key), missing key
// → E025, anything else about shape or type → E024. Messages name the key path the way a user writes
// it (`rules[2].threads`, or `[[rules]] "align" threads`), never zod's wording.
import type * as z from 'zod';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KeyPath } from '../model.js';
import type { KeyPositions } from '../positions/index.js';
import { nearestName } from '../../diagnostics/nearest-name.js';

type Issue = z.core.$ZodIssue;

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value instanceof Date) return `a date (${String(value)})`;
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'a table';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer ${value}` : `float ${value}`;
  return `${typeof value} ${String(value)}`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

/** `rules[2] ("align").threads` — the rule name helps more than its index. */
function pathText(path: readonly PropertyKey[], data: unknown): string {
  let text = '';
  path.forEach((seg, n) => {
    if (typeof seg === 'number') {
      text += `[${seg}]`;
      const name = (valueAt(data, path.slice(0, n + 1)) as { name?: unknown } | undefined)?.name;
      if (n === 1 && path[0] === 'rules' && typeof name === 'string') text += ` ("${name}")`;
    } else text += text === '' ? String(seg) : `.${String(seg)}`;
  });
  return text === '' ? 'the file' : text;
}

function expectedText(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    case 'object':
    case 'record':
      return 'a table';
    default:
      return expected;
  }
}

/** Known keys of the object schema at `path` (every union branch that is an object contributes). */
function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  const visit = (s: z.core.$ZodType, rest: readonly PropertyKey[], depth: number): void => {
    if (depth > 50) return;
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    switch (def.type) {
      case 'optional':
      case 'default':
      case 'nullable':
      case 'prefault':
      case 'readonly':
        visit(def.innerType as z.core.$ZodType, rest, depth + 1);
        return;
      case 'pipe':
        visit(def.in as z.core.$ZodType, rest, depth + 1);
        return;
      case 'union':
        for (const o of def.options as z.core.$ZodType[]) visit(o, rest, depth + 1);
        return;
      case 'array':
        if (rest.length > 0 && typeof rest[0] === 'number') visit(def.element as z.core.$ZodType, rest.slice(1), depth + 1);
        return;
      case 'record':
        if (rest.length > 0) visit(def.valueType as z.core.$ZodType, rest.slice(1), depth + 1);
        return;
      case 'object': {
        const shape = def.shape as Record<string, z.core.$ZodType>;
        if (rest.length === 0) for (const k of Object.keys(shape)) keys.add(k);
        else {
          const child = shape[String(rest[0])];
          if (child) visit(child, rest.slice(1), depth + 1);
        }
        return;
      }
      default:
        return;
    }
  };
  visit(schema, path, 0);
  return [...keys];
}

export interface IssueContext {
  file: string;
  data: unknown;
  schema: z.core.$ZodType;
  positions: KeyPositions;
}

function at(ctx: IssueContext, path: KeyPath): { file: string; line?: number; column?: number } {
  const pos = ctx.positions.locate(path);
  return pos ? { file: ctx.file, line: pos.line, column: pos.column } : { file: ctx.file };
}

function ruleName(ctx: IssueContext, path: readonly PropertyKey[]): string | undefined {
  if (path[0] !== 'rules' || typeof path[1] !== 'number') return undefined;
  const name = (valueAt(ctx.data, path.slice(0, 2)) as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

function withRule(ctx: IssueContext, path: readonly PropertyKey[], where: object): object {
  const rule = ruleName(ctx, path);
  return rule === undefined ? where : { ...where, rule };
}

export function issuesToDiagnostics(issues: readonly Issue[], ctx: IssueContext): Diagnostic[] {
  const found: Finding[] = [];
  for (const issue of issues) found.push(...issueToDiagnostics(issue, ctx, []));
  // A misspelt required key shows up twice (unknown "nme", missing "name"): the E020 with its
  // suggestion says it all, so the matching E025 is dropped.
  const suggested = new Set(found.filter((f) => f.suggests !== undefined).map((f) => f.suggests));
  return found.filter((f) => f.missing === undefined || !suggested.has(f.missing)).map((f) => f.diagnostic);
}

interface Finding {
  diagnostic: Diagnostic;
  /** container path + key that an E020 suggests. */
  suggests?: string;
  /** container path + key that an E025 reports missing. */
  missing?: string;
}

const slot = (container: readonly PropertyKey[], key: PropertyKey) => [...container, key].map(String).join('\u0000');

function issueToDiagnostics(issue: Issue, ctx: IssueContext, prefix: readonly PropertyKey[]): Finding[] {
  const path = [...prefix, ...issue.path];
  const keyPath = path.filter((p): p is string | number => typeof p !== 'symbol');
  const where = (p: KeyPath) => withRule(ctx, path, at(ctx, p));

  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(ctx.schema, path);
    return issue.keys.map((key) => {
      const suggestion = nearestName(key, known);
      const table = path.length === 0 ? 'at the top level' : `in ${pathText(path, ctx.data)}`;
      const message = `unknown key "${key}" ${table}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
      const hint = suggestion
        ? `rename it to "${suggestion}"`
        : `known keys here: ${known.slice().sort().join(', ')}`;
      const d = diagnostic('E020', message, { ...where([...keyPath, key]), hint });
      return suggestion === undefined ? { diagnostic: d } : { diagnostic: d, suggests: slot(path, suggestion) };
    });
  }

  const value = valueAt(ctx.data, path);
  const parent = valueAt(ctx.data, path.slice(0, -1));
  const last = path[path.length - 1];
  const missing =
    value === undefined &&
    last !== undefined &&
    parent !== null &&
    typeof parent === 'object' &&
    !Object.hasOwn(parent, last);
  if (missing) {
    const where2 = path.length === 1 ? { file: ctx.file, line: 1, column: 1 } : where(keyPath.slice(0, -1));
    const container = path.length === 1 ? 'the file' : pathText(path.slice(0, -1), ctx.data);
    const what = path.length === 1 ? `[${String(last)}] table` : `key "${String(last)}"`;
    const d = diagnostic('E025', `${container} is missing the required ${what}`, {
      ...where2,
      hint: path.length === 1 ? `add a [${String(last)}] table with name = "..."` : `add ${String(last)} = ...`,
    });
    return [{ diagnostic: d, missing: slot(path.slice(0, -1), last) }];
  }

  const name = pathText(path, ctx.data);
  if (issue.code === 'invalid_type') {
    const expected = issue.message.startsWith('Invalid input') ? expectedText(issue.expected) : issue.message;
    return [{ diagnostic: diagnostic('E024', `${name} must be ${expected}, got ${describeValue(value)}`, where(keyPath)) }];
  }
  if (issue.code === 'invalid_union') {
    // A branch whose only complaints sit deeper than the union itself is the one the user meant:
    // report those (e.g. a typo inside a config declaration) instead of a vague "wrong type".
    const deeper = issue.errors.find((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0 || i.code === 'unrecognized_keys'));
    if (deeper) return deeper.flatMap((i) => issueToDiagnostics(i, ctx, path));
    return [{ diagnostic: diagnostic('E024', `${name} must be ${issue.message}, got ${describeValue(value)}`, where(keyPath)) }];
  }
  if (issue.code === 'invalid_value') {
    const allowed = issue.values.map((v) => JSON.stringify(v)).join(', ');
    return [{ diagnostic: diagnostic('E024', `${name} must be one of ${allowed}, got ${describeValue(value)}`, where(keyPath)) }];
  }
  return [{ diagnostic: diagnostic('E024', `${name}: ${issue.message}`, where(keyPath)) }];
}
