// Placeholder templates: compiled once per rule into literal text and references, then rendered per
// job without any regular expression work. Unknown `{name}` placeholders and `${VAR}` stay as written
// (the checks report every placeholder a command cannot fill, so none reaches a plan).
import type { ConfigValue } from '../model.js';
import { quoteContexts, quoteFor, type QuoteContext } from './shell-quote.js';

export type Ref =
  | { kind: 'paths'; which: 'input' | 'output'; index?: number; name?: string }
  | { kind: 'log' }
  | { kind: 'threads' }
  | { kind: 'memory' }
  | { kind: 'params'; key: string }
  | { kind: 'config'; key: string }
  | { kind: 'var'; name: string };

/** A compiled template: literal strings and references, with each reference's original text. */
export interface TemplateRef {
  ref: Ref;
  raw: string;
  /** Where the placeholder sits when the template is a shell command (see shell-quote.ts). */
  quote: QuoteContext;
  /** Offset of the placeholder in the template text. */
  at: number;
}

export interface Template {
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
    if (ref === undefined) continue;
    if (at > last) parts.push(text.slice(last, at));
    const part: TemplateRef = { ref, raw: m[0], quote: 'bare', at };
    parts.push(part);
    refs.push(part);
    last = at + m[0].length;
    if (ref.kind === 'var' && !vars.includes(ref.name)) vars.push(ref.name);
    if (ref.kind === 'config' && !configKeys.includes(ref.key)) configKeys.push(ref.key);
  }
  if (last < text.length) parts.push(text.slice(last));
  if (refs.length > 0 && /['"\\]/.test(text)) {
    const contexts = quoteContexts(text, refs.map((r) => r.at));
    for (let k = 0; k < refs.length; k++) refs[k]!.quote = contexts[k]!;
  }
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
  /** A wildcard's value; a list (such as `{chunks}`) is several words. */
  vars?: (name: string) => string | readonly string[] | undefined;
  /**
   * Rendering a shell command: every substituted value is quoted for where it sits, so the shell
   * reads it back as literal text. Paths rendered as paths are never quoted.
   */
  quote?: boolean;
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

/** A value as it lands in the output: literal text in a command, as is in a path. */
function one(part: TemplateRef, v: RenderValues, value: string): string {
  return v.quote ? quoteFor(part.quote, value) : value;
}

/** Several values (all inputs, a list): space-separated words, each quoted on its own. */
function many(part: TemplateRef, v: RenderValues, values: readonly string[]): string {
  if (!v.quote) return values.join(' ');
  let out = '';
  for (let k = 0; k < values.length; k++) out += (k === 0 ? '' : ' ') + quoteFor(part.quote, values[k]!);
  return out;
}

function words(value: ConfigValue): string[] {
  return Array.isArray(value) ? value.flatMap(words) : [String(value)];
}

function resolve(part: TemplateRef, v: RenderValues): string | undefined {
  const ref = part.ref;
  switch (ref.kind) {
    case 'paths': {
      const list = ref.which === 'input' ? v.input : v.output;
      if (list === undefined) return undefined;
      if (ref.index !== undefined) {
        const p = list.paths[ref.index];
        return p === undefined ? undefined : one(part, v, p);
      }
      if (ref.name !== undefined) {
        const i = list.names[ref.name];
        const p = i === undefined ? undefined : list.paths[i];
        return p === undefined ? undefined : one(part, v, p);
      }
      return many(part, v, list.paths);
    }
    case 'log':
      return v.log === undefined ? undefined : one(part, v, v.log);
    case 'threads':
      return v.threads === undefined ? undefined : String(v.threads);
    case 'memory':
      return v.memory === undefined ? undefined : one(part, v, v.memory);
    case 'params': {
      const p = v.params?.[ref.key];
      return p === undefined ? undefined : Array.isArray(p) ? many(part, v, words(p)) : one(part, v, String(p));
    }
    case 'config': {
      const c = v.config?.(ref.key);
      return c === undefined ? undefined : Array.isArray(c) ? many(part, v, words(c)) : one(part, v, String(c));
    }
    case 'var': {
      const value = v.vars?.(ref.name);
      return value === undefined ? undefined : typeof value === 'string' ? one(part, v, value) : many(part, v, value);
    }
  }
}
