// The built-in skill library as shipped (skills-builtin/), for tests whose expectations depend on its size.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const BUILTIN_DIR = path.resolve(import.meta.dirname, '../../skills-builtin');

/** Names of the directories of skills-builtin/ that hold a SKILL.md. */
export function builtinSkillNames(): string[] {
  return readdirSync(BUILTIN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(BUILTIN_DIR, d.name, 'SKILL.md')))
    .map((d) => d.name)
    .sort();
}
