// Placeholder templates: compiled once per rule into literal text and references, then rendered per
// job without any regular expression work. Unknown `{name}` and `{a.b}` placeholders and `${VAR}` stay as written
// (the checks report every placeholder a command cannot fill, so none reaches a plan). This renders
// paths and plain text; a shell command is rendered by script.ts, where no value is written into it.
import type { ConfigValue } from '../model.js';

export type Ref =
  | { kind: 'paths'; which: 'input' | 'output'; index?: number; name?: string }
  | { kind: 'log' }
  | { kind: 'threads' }
  | { kind: 'memory' }
  | { kind: 'params'; key: string }
  | { kind: 'config'; key: string }
  | { kind: 'var'; name: string }
  /** `{a.b}` or `{a[N]}` in no namespace of ours (`{wildcards.sample}`): nothing fills it (E031). */
  | { kind: 'unknown'; name: string; key?: string; index?: number };

/** A compiled template: literal strings and references, with each reference's original text. */
export interface TemplateRef {
  ref: Ref;
  raw: string;
  /** Offset of the placeholder in the template text. */
  at: number;
}

export interface Template {
  /** The text it was compiled from. */
  readonly text: string;
  readonly parts: readonly (string | TemplateRef)[];
  /** Names of `{name}` references (wildcards, metadata, `{chunks}`), in order of first use. */
  readonly vars: readonly string[];
  /** Keys of `{config.k}` references. */
  readonly configKeys: readonly string[];
}

// `{name}`, `{name[N]}`, `{name.key}`; `$` before `{` means a shell variable, never a placeholder.
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\]|\.([A-Za-z_][A-Za-z0-9_-]*))?\}/g;

export function compileTemplate(text: string): Template {
  const parts: (string | TemplateRef)[] = [];
  const refs: TemplateRef[] = [];
  const vars: string[] = [];
  const configKeys: string[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = m.index;
    if (at > 0 && text[at - 1] === '$') continue;
    const ref = toRef(m[1]!, m[2], m[3]);
    if (at > last) parts.push(text.slice(last, at));
    const part: TemplateRef = { ref, raw: m[0], at };
    parts.push(part);
    refs.push(part);
    last = at + m[0].length;
    if (ref.kind === 'var' && !vars.includes(ref.name)) vars.push(ref.name);
    if (ref.kind === 'config' && !configKeys.includes(ref.key)) configKeys.push(ref.key);
  }
  if (last < text.length) parts.push(text.slice(last));
  return { text, parts, vars, configKeys };
}

function toRef(name: string, index: string | undefined, key: string | undefined): Ref {
  if (name === 'input' || name === 'output') {
    if (index !== undefined) return { kind: 'paths', which: name, index: Number(index) };
    if (key !== undefined) return { kind: 'paths', which: name, name: key };
    return { kind: 'paths', which: name };
  }
  if (index !== undefined) return { kind: 'unknown', name, index: Number(index) };
  if (name === 'params' && key !== undefined) return { kind: 'params', key };
  if (name === 'config' && key !== undefined) return { kind: 'config', key };
  // A column of the per-sample sheet: a value of the job's sample, like a wildcard's.
  if (name === 'sample' && key !== undefined) return { kind: 'var', name: `sample.${key}` };
  if (key !== undefined) return { kind: 'unknown', name, key };
  if (name === 'log') return { kind: 'log' };
  if (name === 'threads') return { kind: 'threads' };
  if (name === 'memory') return { kind: 'memory' };
  return { kind: 'var', name };
}

export interface PathList {
  paths: readonly string[];
  names: Readonly<Record<string, number>>;
}

/** Everything a reference can resolve to. Anything left undefined renders as the original text. */
export interface RenderValues {
  input?: PathList;
  output?: PathList;
  log?: string;
  threads?: number;
  memory?: string;
  params?: Readonly<Record<string, ConfigValue>>;
  config?: (key: string) => ConfigValue | undefined;
  /** A wildcard's value; a list (such as `{chunks}`) is several words. */
  vars?: (name: string) => string | readonly string[] | undefined;
}

export function renderTemplate(template: Template, values: RenderValues): string {
  // Indexed: runs for every path of every job, mostly before V8 optimises it (a for-of would allocate).
  const parts = template.parts;
  if (parts.length === 1) {
    const part = parts[0]!;
    return typeof part === 'string' ? part : (resolve(part, values) ?? part.raw);
  }
  // join, not +=: it builds one flat string. Concatenation builds a tree of string pieces that V8
  // flattens into a copy anyway the first time the path is hashed (a Map key) or matched.
  const pieces = new Array<string>(parts.length);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    pieces[k] = typeof part === 'string' ? part : (resolve(part, values) ?? part.raw);
  }
  return pieces.join('');
}

/** A list value (all inputs, a list in config or params): its elements, space-separated. */
export function words(value: ConfigValue): string[] {
  return Array.isArray(value) ? value.flatMap(words) : [String(value)];
}

/**
 * What a reference resolves to: one value, or a list of them (every input, a list in config or
 * params, `{chunks}`), with the path's index for `{input[N]}` and `{input.name}`; undefined when the
 * values have none.
 */
export function resolveRef(ref: Ref, v: RenderValues): { values: readonly string[]; list: boolean; indexes?: readonly number[] } | undefined {
  switch (ref.kind) {
    case 'paths': {
      const list = ref.which === 'input' ? v.input : v.output;
      if (list === undefined) return undefined;
      const i = ref.index ?? (ref.name !== undefined ? list.names[ref.name] : undefined);
      // The whole list: each element's index is its position.
      if (ref.index === undefined && ref.name === undefined) return { values: list.paths, list: true };
      const p = i === undefined ? undefined : list.paths[i];
      return p === undefined ? undefined : { values: [p], list: false, indexes: [i!] };
    }
    case 'log':
      return v.log === undefined ? undefined : { values: [v.log], list: false };
    case 'threads':
      return v.threads === undefined ? undefined : { values: [String(v.threads)], list: false };
    case 'memory':
      return v.memory === undefined ? undefined : { values: [v.memory], list: false };
    case 'params': {
      const p = v.params?.[ref.key];
      return p === undefined ? undefined : Array.isArray(p) ? { values: words(p), list: true } : { values: [String(p)], list: false };
    }
    case 'config': {
      const c = v.config?.(ref.key);
      return c === undefined ? undefined : Array.isArray(c) ? { values: words(c), list: true } : { values: [String(c)], list: false };
    }
    case 'var': {
      const value = v.vars?.(ref.name);
      return value === undefined ? undefined : typeof value === 'string' ? { values: [value], list: false } : { values: value, list: true };
    }
    case 'unknown':
      return undefined;
  }
}

/** A value as it lands in a path or plain text: as is; a list is space-separated. */
function resolve(part: TemplateRef, v: RenderValues): string | undefined {
  const ref = part.ref;
  switch (ref.kind) {
    case 'paths': {
      const list = ref.which === 'input' ? v.input : v.output;
      if (list === undefined) return undefined;
      if (ref.index !== undefined) return list.paths[ref.index];
      if (ref.name !== undefined) {
        const i = list.names[ref.name];
        return i === undefined ? undefined : list.paths[i];
      }
      return list.paths.join(' ');
    }
    case 'log':
      return v.log;
    case 'threads':
      return v.threads === undefined ? undefined : String(v.threads);
    case 'memory':
      return v.memory;
    case 'params': {
      const p = v.params?.[ref.key];
      return p === undefined ? undefined : Array.isArray(p) ? words(p).join(' ') : String(p);
    }
    case 'config': {
      const c = v.config?.(ref.key);
      return c === undefined ? undefined : Array.isArray(c) ? words(c).join(' ') : String(c);
    }
    case 'var': {
      const value = v.vars?.(ref.name);
      return value === undefined ? undefined : typeof value === 'string' ? value : value.join(' ');
    }
    case 'unknown':
      return undefined;
  }
}
