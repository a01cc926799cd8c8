// The system prompt an AI command sends: its base prompt, then one block per active knowledge skill
// (whole: the user activated them), then the names and one-line descriptions of the built-in skills
// that match the request (their bodies come on demand through read_skill).
import { normalisePromptText, singleLine } from './prompt-text.js';
import type { BuiltinHint } from './suggest-builtins.js';
import type { Skill } from './types.js';

export const SKILLS_HEADING = '## Activated Custom Skills';
const BUILTIN_HINTS_HEADING = '## Built-in skills that match this request';

/** The list of matching built-ins, or '' for none. */
function builtinHintsBlock(hints: readonly BuiltinHint[]): string {
  if (hints.length === 0) return '';
  const lines = hints.map((h) => `- builtin/${h.name}: ${singleLine(h.description)}`);
  const how = 'Read one in full with read_skill {"name": "builtin/NAME"} before you rely on it; lookup_skill finds others.';
  return `${BUILTIN_HINTS_HEADING}\n\n${how}\n\n${lines.join('\n')}\n`;
}

/**
 * Exactly the text one skill adds (what `ai skills show` prints); empty for a skill that adds none.
 * `qualified` puts the `scope/NAME` alias in the heading (when two active skills share a name).
 */
export function skillPromptBlock(skill: Skill, qualified = false): string {
  if (skill.type !== 'knowledge' || !skill.prompt) return '';
  return `## Skill: ${qualified ? `${skill.scope}/${skill.name}` : skill.name}\n${normalisePromptText(skill.prompt)}\n`;
}

/**
 * Base prompt, then `## Activated Custom Skills` and one block per distinct knowledge skill in
 * activation order; when two active skills share a name (project/x and builtin/x), their headings
 * carry the qualified alias so the model can tell them apart.
 */
export function assembleSkillPrompt(basePrompt: string, active: readonly Skill[], hints: readonly BuiltinHint[] = []): string {
  const distinct = [...new Set(active)];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const s of distinct) (seen.has(s.name) ? repeated : seen).add(s.name);
  const blocks = distinct.map((s) => skillPromptBlock(s, repeated.has(s.name))).filter((b) => b !== '');
  const listed = builtinHintsBlock(hints);
  if (blocks.length === 0 && listed === '') return basePrompt;
  const base = basePrompt.replace(/\n+$/, '');
  const skills = blocks.length > 0 ? `\n\n${SKILLS_HEADING}\n\n${blocks.join('\n')}` : '';
  return `${base}${skills}${listed !== '' ? `\n\n${listed}` : ''}`;
}
