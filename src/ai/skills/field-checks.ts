// Checks shared by both skill formats that a schema cannot express: the name rule and the
// description's length. Keys and types are checked against the compiled shapes (src/ai/config-check.ts).
import { diagnostic, type Diagnostic, type Location } from '../../diagnostics/diagnostic.js';

export const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;

/**
 * Findings for a skill name (already known to be a string: the shape check reports a missing or
 * wrongly typed one) that should equal `expected` (the file stem or directory name). A difference is
 * a warning (SK002): community collections often name a skill `bio-x` in a folder `x`, and the skill
 * loads under its declared name. `where` is a function: locating a key costs a scan, paid only when
 * there is a finding.
 */
export function nameFindings(name: string, expected: string, where: () => Location, what: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const problem = nameProblem(name);
  if (problem) out.push(diagnostic('SK001', `skill name "${name}" ${problem}`, where()));
  if (name !== expected) out.push(diagnostic('SK002', `skill name "${name}" does not match the ${what} "${expected}"`, where()));
  return out;
}

/** Why a name breaks the rule, or undefined when it is fine. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > NAME_MAX) return `is ${name.length} characters long (at most ${NAME_MAX})`;
  if (!NAME_PATTERN.test(name)) return 'must be lower-case letters and digits in words joined by single hyphens';
  return undefined;
}

/** The description's length, counted in characters once trimmed (its type is the shape check's). */
export function descriptionFindings(description: string, where: () => Location): Diagnostic[] {
  const trimmed = description.trim();
  // A string has at least as many UTF-16 units as characters: spread it (to count characters) only
  // when its units could exceed the limit.
  if (trimmed.length > 0 && trimmed.length <= DESCRIPTION_MAX) return [];
  const length = [...trimmed].length;
  if (length === 0) return [diagnostic('SK005', '`description` is empty (1 to 1024 characters)', where())];
  if (length > DESCRIPTION_MAX) return [diagnostic('SK005', `\`description\` is ${length} characters long (at most ${DESCRIPTION_MAX})`, where())];
  return [];
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  return `a ${typeof value}`;
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** 1-based line of the first top-level `key:` line of a YAML block (TOML files use the key-position index). */
export function lineOfYamlKey(text: string, key: string): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^(?:${escaped}|"${escaped}"|'${escaped}')\\s*:`);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i]!)) return i + 1;
  return undefined;
}
