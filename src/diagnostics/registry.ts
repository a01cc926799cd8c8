// The single registry of diagnostic codes. Each domain keeps its codes in its own file under
// codes/; this file joins them, and the type system makes sure every code has an entry.
import type { CodeInfo } from './code-info.js';
import { cliCodes } from './codes/cli.js';
import { workflowCodes } from './codes/workflow.js';
import { skillCodes } from './codes/skills.js';
import { mcpCodes } from './codes/mcp.js';
import { aiCodes } from './codes/ai.js';
import { runCodes } from './codes/run.js';
import { knowledgeCodes } from './codes/knowledge.js';
import { reportCodes } from './codes/report.js';

export const codes = {
  ...cliCodes,
  ...workflowCodes,
  ...skillCodes,
  ...mcpCodes,
  ...aiCodes,
  ...runCodes,
  ...knowledgeCodes,
  ...reportCodes,
} as const satisfies Record<string, CodeInfo>;

export type Code = keyof typeof codes;

export function codeInfo(code: Code): CodeInfo {
  return codes[code];
}
