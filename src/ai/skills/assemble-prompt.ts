// The system prompt an AI command sends: its base prompt, then one block per active knowledge skill.
import { normalisePromptText } from './prompt-text.js';
import type { Skill } from './types.js';

export const SKILLS_HEADING = '## Activated Custom Skills';

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
export function assembleSkillPrompt(basePrompt: string, active: readonly Skill[]): string {
  const distinct = [...new Set(active)];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const s of distinct) (seen.has(s.name) ? repeated : seen).add(s.name);
  const blocks = distinct.map((s) => skillPromptBlock(s, repeated.has(s.name))).filter((b) => b !== '');
  if (blocks.length === 0) return basePrompt;
  const base = basePrompt.replace(/\n+$/, '');
  return `${base}\n\n${SKILLS_HEADING}\n\n${blocks.join('\n')}`;
}
