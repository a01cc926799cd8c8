// KEY=VALUE config overrides from the command line, checked against [config]: the key must exist,
// and the value must fit the declared type (or the type of the value written in the file) and choices.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ConfigEntry, ConfigType, ConfigValue } from '../model.js';
import { nearestName } from '../../diagnostics/nearest-name.js';

export interface OverrideResult {
  values: Map<string, ConfigValue>;
  diagnostics: Diagnostic[];
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export function parseOverrides(overrides: readonly string[], config: ReadonlyMap<string, ConfigEntry>): OverrideResult {
  const values = new Map<string, ConfigValue>();
  const diagnostics: Diagnostic[] = [];
  for (const text of overrides) {
    const eq = text.indexOf('=');
    const key = eq > 0 ? text.slice(0, eq).trim().replace(/^config\./, '') : '';
    if (eq <= 0 || key === '' || /\s/.test(key)) {
      diagnostics.push(diagnostic('CLI010', `config override \`${text}\` is not KEY=VALUE`));
      continue;
    }
    const raw = text.slice(eq + 1);
    const entry = config.get(key);
    if (entry === undefined) {
      const near = nearestName(key, config.keys());
      diagnostics.push(
        diagnostic('CLI012', `config override \`${key}\` is not a key in [config]${near ? ` (did you mean ${near}?)` : ''}`, {
          hint: near ? `write ${near}=${raw}` : 'declare the key in [config] first, so the workflow documents what it accepts',
        }),
      );
      continue;
    }
    if (CONTROL.test(raw)) {
      diagnostics.push(diagnostic('E043', `config override ${key}=…: the value holds a control character`, { hint: 'a value may hold tabs and newlines, not NUL, escape or other control characters' }));
      continue;
    }
    const parsed = coerce(raw, typeOf(entry));
    if (!parsed.ok) {
      diagnostics.push(diagnostic('CLI011', `config override ${key}=${raw}: ${parsed.message}`));
      continue;
    }
    const choices = entry.declaration?.choices;
    if (choices !== undefined && !choices.some((c) => sameValue(c, parsed.value))) {
      diagnostics.push(
        diagnostic('CLI011', `config override ${key}=${raw}: not one of the allowed choices`, {
          hint: `use one of: ${choices.map((c) => JSON.stringify(c)).join(', ')}`,
        }),
      );
      continue;
    }
    values.set(key, parsed.value);
  }
  return { values, diagnostics };
}

export type Wanted = ConfigType | 'array';

/** The declared type wins; otherwise the type of the value written in the file; otherwise text. */
export function typeOf(entry: ConfigEntry): Wanted {
  if (entry.declaration?.type !== undefined) return entry.declaration.type;
  const v = entry.value;
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return 'string';
}

function coerce(raw: string, wanted: Wanted): { ok: true; value: ConfigValue } | { ok: false; message: string } {
  const text = raw.trim();
  switch (wanted) {
    case 'int':
      return /^[+-]?\d+$/.test(text) ? { ok: true, value: Number(text) } : { ok: false, message: `expected an integer, got "${raw}"` };
    case 'float':
      return text !== '' && Number.isFinite(Number(text))
        ? { ok: true, value: Number(text) }
        : { ok: false, message: `expected a number, got "${raw}"` };
    case 'bool':
      // Only the two TOML spellings: `on=yes` is as much a type mismatch as `n=ten` for an integer.
      if (text === 'true') return { ok: true, value: true };
      if (text === 'false') return { ok: true, value: false };
      return { ok: false, message: `expected true or false, got "${raw}"` };
    case 'array':
      return { ok: true, value: raw === '' ? [] : raw.split(',').map((s) => s.trim()) };
    case 'string':
    case 'path':
      return { ok: true, value: raw };
  }
}

export function sameValue(a: ConfigValue, b: ConfigValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
