// The skills library: read-only discovery, explicit activation, prompt assembly. Pure and fast;
// the only I/O is bounded, synchronous reads of skill files during discovery.
export type { Discovery, McpSettings, ParsedSkill, Skill, SkillFormat, SkillScope, SkillStatus, SkillType } from './types.js';
export { SKILL_STATUSES } from './types.js';
export {
  discoverSkills,
  discoverInRoots,
  expandDirGlob,
  loadSkillBody,
  skillSha256,
  skillRoots,
  statusCounts,
  FRONT_MATTER_MAX,
  MAX_DIR_ENTRIES,
  MAX_GLOB_DIRS,
  SKILL_FILE_CAP,
  SCOPES,
  type DiscoveryContext,
  type SkillRoot,
} from './discover.js';
export { activateSkills, lookupSkill, requestedNames, type Activation, type ActivationRequest, type ActivationSource, type Lookup, type SkillLists } from './activate.js';
export { assembleSkillPrompt, skillPromptBlock, SKILLS_HEADING } from './assemble-prompt.js';
export { loadSkillContext, oxoFlowHome, builtinSkillsDir, type SkillContext, type SkillContextInput } from './load-context.js';
export { normalisePromptText, singleLine } from './prompt-text.js';
export { nameProblem, NAME_PATTERN } from './field-checks.js';
export { parseTomlSkill } from './parse-toml-skill.js';
export { parseMdSkill } from './parse-md-skill.js';

/** `scope/name`: the qualified alias that always names exactly this skill's scope. */
export function skillAlias(skill: { scope: string; name: string }): string {
  return `${skill.scope}/${skill.name}`;
}
