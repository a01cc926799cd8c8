// A rule's `params` values with their placeholders filled per job. A string value (or each string of
// an array: an option list) is a template of the same placeholders as a path: wildcards and
// metadata (`{sample}`), `{config.key}`, `{threads}` and `{memory}`. Compiled once per rule, rendered
// per job; the filled values still reach a command only as OXO_ environment variables (script.ts).
import type { ConfigValue } from '../model.js';
import { compileTemplate, renderTemplate, type RenderValues, type Template } from './template.js';

type Compiled = ConfigValue | Template;

/** A rule's params, each string value compiled; undefined when no value holds a placeholder. */
export interface CompiledParams {
  readonly entries: readonly (readonly [string, Compiled | readonly Compiled[]])[];
  /** Every template, for the names they mention (a params placeholder decides the fan-out too). */
  readonly templates: readonly Template[];
}

export function compileParams(params: Readonly<Record<string, ConfigValue>>): CompiledParams | undefined {
  const templates: Template[] = [];
  const one = (v: ConfigValue): Compiled => {
    if (typeof v !== 'string' || !v.includes('{')) return v;
    const t = compileTemplate(v);
    if (t.parts.every((p) => typeof p === 'string')) return v;
    templates.push(t);
    return t;
  };
  const entries = Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.map(one) : one(v)] as const);
  return templates.length === 0 ? undefined : { entries, templates };
}

/** The values one job gets: the templates rendered with its wildcards, config, threads and memory. */
export function renderParams(compiled: CompiledParams, values: RenderValues): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  const one = (c: Compiled): ConfigValue => (isTemplate(c) ? renderTemplate(c, values) : c);
  for (const [k, v] of compiled.entries) out[k] = Array.isArray(v) ? v.map(one) : one(v as Compiled);
  return out;
}

function isTemplate(c: Compiled | readonly Compiled[]): c is Template {
  return typeof c === 'object' && !Array.isArray(c);
}
