// Placeholder templates: compiled once per rule into literal text and references, then rendered per
// job without any regular expression work. Unknown `{name}` placeholders and `${VAR}` stay as written.
import type { ConfigValue } from '../model.js';
import { shellQuote } from './shell-quote.js';

export type Ref =
  | { kind: 'paths'; which: 'input' | 'output'; index?: number; name?: string }
  | { kind: 'log' }
  | { kind: 'threads' }
  | { kind: 'memory' }
  | { kind: 'params'; key: string }
  | { kind: 'config'; key: string }
  | { kind: 'var'; name: string };

/** A compiled template: literal strings and references, with each reference's original text. */
export interface Template {
  readonly parts: readonly (string | { ref: Ref; raw: string })[];
  /** Names of `{name}` references (wildcards, metadata, `{chunks}`), in order of first use. */
  readonly vars: readonly string[];
  /** Keys of `{config.k}` references. */
  readonly configKeys: readonly string[];
}

// `{name}`, `{name[N]}`, `{name.key}`; `$` before `{` means a shell variable, never a placeholder.
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\]|\.([A-Za-z_][A-Za-z0-9_-]*))?\}/g;

export function compileTemplate(text: string): Template {
  const parts: (string | { ref: Ref; raw: string })[] = [];
  const vars: string[] = [];
  const configKeys: string[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = m.index;
    if (at > 0 && text[at - 1] === '$') continue;
    const ref = toRef(m[1]!, m[2], m[3]);
    if (ref === undefined) continue;
    if (at > last) parts.push(text.slice(last, at));
    parts.push({ ref, raw: m[0] });
    last = at + m[0].length;
    if (ref.kind === 'var' && !vars.includes(ref.name)) vars.push(ref.name);
    if (ref.kind === 'config' && !configKeys.includes(ref.key)) configKeys.push(ref.key);
  }
  if (last < text.length) parts.push(text.slice(last));
  return { parts, vars, configKeys };
}

function toRef(name: string, index: string | undefined, key: string | undefined): Ref | undefined {
  if (name === 'input' || name === 'output') {
    if (index !== undefined) return { kind: 'paths', which: name, index: Number(index) };
    if (key !== undefined) return { kind: 'paths', which: name, name: key };
    return { kind: 'paths', which: name };
  }
  if (index !== undefined) return undefined;
  if (name === 'params' && key !== undefined) return { kind: 'params', key };
  if (name === 'config' && key !== undefined) return { kind: 'config', key };
  if (key !== undefined) return undefined;
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
  vars?: (name: string) => string | undefined;
  /** Shell-quote substituted paths (commands: yes; paths themselves: no). */
  quotePaths?: boolean;
}

export function formatValue(value: ConfigValue): string {
  if (Array.isArray(value)) return value.map(formatValue).join(' ');
  return String(value);
}

export function renderTemplate(template: Template, values: RenderValues): string {
  // Indexed: runs for every path of every job, mostly before V8 optimises it (a for-of would allocate).
  const parts = template.parts;
  if (parts.length === 1) {
    const part = parts[0]!;
    return typeof part === 'string' ? part : (resolve(part.ref, values) ?? part.raw);
  }
  // join, not +=: it builds one flat string. Concatenation builds a tree of string pieces that V8
  // flattens into a copy anyway the first time the path is hashed (a Map key) or matched.
  const pieces = new Array<string>(parts.length);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    pieces[k] = typeof part === 'string' ? part : (resolve(part.ref, values) ?? part.raw);
  }
  return pieces.join('');
}

function resolve(ref: Ref, v: RenderValues): string | undefined {
  switch (ref.kind) {
    case 'paths': {
      const list = ref.which === 'input' ? v.input : v.output;
      if (list === undefined) return undefined;
      const q = v.quotePaths ? shellQuote : (p: string) => p;
      if (ref.index !== undefined) {
        const p = list.paths[ref.index];
        return p === undefined ? undefined : q(p);
      }
      if (ref.name !== undefined) {
        const i = list.names[ref.name];
        const p = i === undefined ? undefined : list.paths[i];
        return p === undefined ? undefined : q(p);
      }
      return list.paths.map(q).join(' ');
    }
    case 'log':
      return v.log === undefined ? undefined : v.quotePaths ? shellQuote(v.log) : v.log;
    case 'threads':
      return v.threads === undefined ? undefined : String(v.threads);
    case 'memory':
      return v.memory;
    case 'params': {
      const p = v.params?.[ref.key];
      return p === undefined ? undefined : formatValue(p);
    }
    case 'config': {
      const c = v.config?.(ref.key);
      return c === undefined ? undefined : formatValue(c);
    }
    case 'var':
      return v.vars?.(ref.name);
  }
}
