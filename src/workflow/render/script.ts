// A job's shell script and the values it gets. No value is ever written into the script: each
// placeholder becomes a reference to an environment variable (`"${OXO_SAMPLE}"`), and the value
// reaches the job in its environment. The shell expands a reference into data and never parses the
// result as code, so no value, however hostile, can become a command. How each reference is written
// depends on where it sits (shell-contexts.ts):
//
//   words   "${OXO_INPUT_0}" "${OXO_INPUT_1}"     a list is one word per element
//   word    "${OXO_INPUT_0} ${OXO_INPUT_1}"       one word: an assignment, a redirection target
//   quoted  ${OXO_INPUT_0} ${OXO_INPUT_1}         inside "…" or an unquoted here-document; comments
//
// Names are stable and readable: OXO_SAMPLE, OXO_CONFIG_REFERENCE, OXO_PARAMS_MINLEN, OXO_THREADS,
// OXO_MEMORY, OXO_LOG, OXO_INPUT_<i> / OXO_OUTPUT_<i> (the path's index), and _<i> per element of a
// list value. Two references whose names would agree but whose values differ get _2, _3, … suffixes.
import type { ShellAnalysis, SlotContext } from './shell-contexts.js';
import { shellQuote } from './shell-quote.js';
import { resolveRef, type Ref, type RenderValues, type Template, type TemplateRef } from './template.js';

export interface RenderedScript {
  /** The exact script `sh -c` runs. */
  script: string;
  /** The variables it refers to, with their values. */
  env: Record<string, string>;
  /** The command as a person reads it (see renderShown), from the same values. */
  shown: string;
}

/**
 * The script, its environment and the command as shown, for a template whose analysis refused
 * nothing: one pass over the template, each reference resolved once for both forms.
 */
export function renderScript(template: Template, analysis: ShellAnalysis, values: RenderValues): RenderedScript {
  // A plain object: every name is OXO_…, which nothing on Object.prototype is, and a plain object
  // keeps one shape per command (JSON.stringify and lookups take V8's fast paths).
  const env: Record<string, string> = {};
  const parts = template.parts;
  const script = new Array<string>(parts.length);
  const shown = new Array<string>(parts.length);
  let k = -1;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (typeof part === 'string') {
      script[p] = part;
      shown[p] = part;
      continue;
    }
    k += 1;
    const context = analysis.contexts[k];
    const resolved = context === undefined || !isSubstituted(part) ? undefined : resolveRef(part.ref, values);
    if (resolved === undefined) {
      script[p] = part.raw;
      shown[p] = part.raw;
      continue;
    }
    script[p] = reference(claimNames(env, part, resolved), context!);
    shown[p] = shownValue(resolved, context!);
  }
  return { script: script.join(''), env, shown: shown.join('') };
}

/**
 * The command as a person reads it: each value written in (quoted the way a shell user would quote
 * it where the reference is a word), for displays and logs only, never for running.
 */
export function renderShown(template: Template, analysis: ShellAnalysis, values: RenderValues): string {
  const pieces: string[] = [];
  let k = -1;
  for (const part of template.parts) {
    if (typeof part === 'string') {
      pieces.push(part);
      continue;
    }
    k += 1;
    const context = analysis.contexts[k];
    const resolved = context === undefined || !isSubstituted(part) ? undefined : resolveRef(part.ref, values);
    pieces.push(resolved === undefined ? part.raw : shownValue(resolved, context!));
  }
  return pieces.join('');
}

type Resolved = NonNullable<ReturnType<typeof resolveRef>>;

/** A reference's values as the shown command writes them. */
function shownValue(resolved: Resolved, context: SlotContext): string {
  if (context === 'words') return resolved.values.length === 1 ? shellQuote(resolved.values[0]!) : resolved.values.map(shellQuote).join(' ');
  if (context === 'word') return shellQuote(resolved.values.length === 1 ? resolved.values[0]! : resolved.values.join(' '));
  return resolved.values.length === 1 ? resolved.values[0]! : resolved.values.join(' ');
}

/** The variables a reference's values get: one per value (a path keeps its index), each claimed in `env`. */
function claimNames(env: Record<string, string>, part: TemplateRef, resolved: Resolved): string[] {
  const base = baseName(part);
  const names = new Array<string>(resolved.values.length);
  for (let i = 0; i < names.length; i++) {
    const name = part.ref.kind === 'paths' ? `${base}${resolved.indexes?.[i] ?? i}` : resolved.list ? `${base}_${i}` : base;
    names[i] = claim(env, name, resolved.values[i]!);
  }
  return names;
}

/** `{_name}` is never a wildcard: it stays as written, like any placeholder nothing fills. */
export function isSubstituted(part: TemplateRef): boolean {
  return !((part.ref.kind === 'var' || part.ref.kind === 'unknown') && part.ref.name.startsWith('_'));
}

function reference(names: readonly string[], context: SlotContext): string {
  if (names.length === 1) return context === 'words' || context === 'word' ? `"\${${names[0]}}"` : `\${${names[0]}}`;
  if (context === 'words') return names.map((n) => `"\${${n}}"`).join(' ');
  if (context === 'word') return `"${names.map((n) => `\${${n}}`).join(' ')}"`;
  return names.map((n) => `\${${n}}`).join(' ');
}

function upper(s: string): string {
  return s.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

/** Each placeholder's variable name (a path's ends in `_`, its index follows), worked out once. */
const baseNames = new WeakMap<TemplateRef, string>();

function baseName(part: TemplateRef): string {
  let name = baseNames.get(part);
  if (name === undefined) {
    name = nameOf(part.ref);
    baseNames.set(part, name);
  }
  return name;
}

function nameOf(ref: Ref): string {
  switch (ref.kind) {
    case 'paths':
      return `OXO_${ref.which.toUpperCase()}_`;
    case 'log':
      return 'OXO_LOG';
    case 'threads':
      return 'OXO_THREADS';
    case 'memory':
      return 'OXO_MEMORY';
    case 'params':
      return `OXO_PARAMS_${upper(ref.key)}`;
    case 'config':
      return `OXO_CONFIG_${upper(ref.key)}`;
    case 'var':
      return `OXO_${upper(ref.name)}`;
    case 'unknown':
      return `OXO_${upper(ref.name)}_${upper(ref.key ?? String(ref.index))}`; // never used: nothing fills it
  }
}

/** The name for a value: `base` unless another value already holds it. */
function claim(env: Record<string, string>, base: string, value: string): string {
  let name = base;
  for (let n = 2; env[name] !== undefined && env[name] !== value; n++) name = `${base}_${n}`;
  env[name] = value;
  return name;
}
