// The values a command gives [config]: `--configfile` files in the order given (a later file wins),
// then KEY=VALUE words (which win over every file). Each value is checked against the key's
// declaration as a KEY=VALUE override is (the key must exist; the declared type, or the type of the
// value in the workflow, and the choices must fit), and the message names the file and the key.
// The result is the workflow's config with those values as the effective ones.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { nearestName } from '../../diagnostics/nearest-name.js';
import { parseOverrides, sameValue, typeOf, type Wanted } from '../expand/overrides.js';
import type { ConfigEntry, ConfigValue } from '../model.js';
import type { ConfigLayer } from './config-file.js';

export interface ConfigSettings {
  /** `--configfile` files, parsed, in command-line order. */
  files?: readonly ConfigLayer[];
  /** `KEY=VALUE` words as typed. */
  overrides?: readonly string[];
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function describe(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a table';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : `${typeof value} ${String(value)}`;
}

const scalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A file's value as the key wants it, or why it does not fit. */
function fileValue(value: unknown, wanted: Wanted): { ok: true; value: ConfigValue } | { ok: false; message: string } {
  const bad = (what: string) => ({ ok: false as const, message: `expected ${what}, got ${describe(value)}` });
  switch (wanted) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? { ok: true, value } : bad('an integer');
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : bad('a number');
    case 'bool':
      return typeof value === 'boolean' ? { ok: true, value } : bad('true or false');
    case 'string':
    case 'path':
      // A number is not silently turned into text: YAML reads 1.10 as 1.1. Quote it in the file.
      return typeof value === 'string' ? { ok: true, value } : bad('a string (quote the value)');
    case 'array':
      if (Array.isArray(value) && value.every(scalar)) return { ok: true, value: [...value] };
      // As on the command line: a comma-separated string is a list.
      if (typeof value === 'string') return { ok: true, value: value === '' ? [] : value.split(',').map((s) => s.trim()) };
      return bad('a list of strings, numbers or booleans');
  }
}

function hasControl(value: ConfigValue): boolean {
  return Array.isArray(value) ? value.some(hasControl) : typeof value === 'string' && CONTROL.test(value);
}

/**
 * The config with the files' values, then the overrides', as effective values. A problem is a
 * usage error of the command (exit 2), as a wrong KEY=VALUE is: the workflow itself is fine.
 */
export function applyConfigSettings(config: ReadonlyMap<string, ConfigEntry>, settings: ConfigSettings): { config: Map<string, ConfigEntry>; diagnostics: Diagnostic[] } {
  const out = new Map<string, ConfigEntry>();
  for (const [k, e] of config) out.set(k, e);
  const diagnostics: Diagnostic[] = [];
  const set = (key: string, value: ConfigValue) => out.set(key, { ...config.get(key)!, value });
  for (const layer of settings.files ?? []) {
    for (const [key, raw] of Object.entries(layer.values)) {
      const line = layer.lineOf(key);
      const where = { file: layer.file, ...(line !== undefined ? { line, column: 1 } : {}) };
      const entry = config.get(key);
      if (entry === undefined && key === 'config' && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
        diagnostics.push(
          diagnostic('CLI012', `config file ${layer.file}: the keys are under a \`config\` table; a config file holds the keys themselves`, {
            ...where,
            hint: 'write the keys at the top level of the file (no [config] header, no config: level)',
          }),
        );
        continue;
      }
      if (entry === undefined) {
        const near = nearestName(key, config.keys());
        diagnostics.push(
          diagnostic('CLI012', `config file ${layer.file}: \`${key}\` is not a key in [config]${near ? ` (did you mean ${near}?)` : ''}`, {
            ...where,
            hint: near ? `rename it to ${near}` : 'declare the key in [config] first, so the workflow documents what it accepts; a config file is a flat table of those keys',
          }),
        );
        continue;
      }
      const parsed = fileValue(raw, typeOf(entry));
      if (!parsed.ok) {
        diagnostics.push(diagnostic('CLI011', `config file ${layer.file}: ${key}: ${parsed.message}`, where));
        continue;
      }
      if (hasControl(parsed.value)) {
        diagnostics.push(diagnostic('E043', `config file ${layer.file}: ${key}: the value holds a control character`, { ...where, hint: 'a value may hold tabs and newlines, not NUL, escape or other control characters' }));
        continue;
      }
      const choices = entry.declaration?.choices;
      if (choices !== undefined && !choices.some((c) => sameValue(c, parsed.value))) {
        diagnostics.push(
          diagnostic('CLI011', `config file ${layer.file}: ${key}: ${JSON.stringify(parsed.value)} is not one of the allowed choices`, {
            ...where,
            hint: `use one of: ${choices.map((c) => JSON.stringify(c)).join(', ')}`,
          }),
        );
        continue;
      }
      set(key, parsed.value);
    }
  }
  // KEY=VALUE is read against the declarations, not against a file's value: a file cannot change
  // how the command line is read.
  const words = parseOverrides(settings.overrides ?? [], config);
  diagnostics.push(...words.diagnostics);
  for (const [key, value] of words.values) set(key, value);
  return { config: out, diagnostics };
}
