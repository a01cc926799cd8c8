import type { CodeInfo } from '../code-info.js';

/** Skill discovery, validation and activation (src/ai/skills). Filled in by that module's work. */
export const skillCodes = {} as const satisfies Record<string, CodeInfo>;
