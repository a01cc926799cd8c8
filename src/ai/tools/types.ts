// The tools the model (and `ai tools` / `ai call`) sees: built-in read-only tools and MCP tools,
// one shape for both.
import type { GateTool } from '../approval/policy.js';
import type { Code } from '../../diagnostics/registry.js';

export type ToolOrigin = { kind: 'builtin' } | { kind: 'mcp'; server: string; url: string; rawName: string };

/** What a tool call produced, as the model sees it (text already capped at 16 KiB). */
export interface ToolOutput {
  isError: boolean;
  text: string;
  /** Set when the error is ours or the transport's (MCP0xx, TOOL0xx), not the tool's own isError. */
  code?: Code;
  /** What a person can do about that error (a diagnostic's hint). */
  hint?: string;
}

export interface ToolEntry {
  /** The exposed name (`read_skill`, `mcp_<server>_<tool>`). */
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  origin: ToolOrigin;
  /** MCP annotations as the server sent them; built-ins declare readOnlyHint: true. */
  annotations: Record<string, unknown>;
  gate: GateTool;
  /** false for MCP tools that need task augmentation, which this client does not do. */
  callable: boolean;
  invoke(args: Record<string, unknown>): Promise<ToolOutput>;
  /** The tool as it is now (MCP servers may change their list); undefined if it is gone. */
  refresh?(): Promise<ToolEntry | undefined>;
}
