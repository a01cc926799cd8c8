// The system prompt an AI command sends: its base prompt, then one block per active knowledge skill.
import { normalisePromptText } from './prompt-text.js';
import type { Skill } from './types.js';

export const SKILLS_HEADING = '## Activated Custom Skills';

/** Exactly the text one skill adds (what `ai skills show` prints); empty for a skill that adds none. */
export function skillPromptBlock(skill: Skill): string {
  if (skill.type !== 'knowledge' || !skill.prompt) return '';
  return `## Skill: ${skill.name}\n${normalisePromptText(skill.prompt)}\n`;
}

/** Base prompt, then `## Activated Custom Skills` and each knowledge skill's block in activation order. */
export function assembleSkillPrompt(basePrompt: string, active: readonly Skill[]): string {
  const blocks = active.map(skillPromptBlock).filter((b) => b !== '');
  if (blocks.length === 0) return basePrompt;
  const base = basePrompt.replace(/\n+$/, '');
  return `${base}\n\n${SKILLS_HEADING}\n\n${blocks.join('\n')}`;
}
