import type { CodeInfo } from '../code-info.js';

/** MCP transport, client and approval gate (src/ai/mcp, src/ai/approval). Filled in by that module's work. */
export const mcpCodes = {} as const satisfies Record<string, CodeInfo>;
