import type { CodeInfo } from '../code-info.js';

const doc = 'docs/mcp.md';

/**
 * MCP client, tool registry and approval gate (src/ai/mcp, src/ai/tools, src/ai/approval).
 * MCP001-MCP019 are local or transport failures (nothing the server said in JSON-RPC);
 * MCP020-MCP029 are errors a server reported; TOOL0xx are built-in tool and registry problems;
 * APR0xx are approval decisions.
 */
export const mcpCodes = {
  MCP001: { severity: 'error', title: 'invalid MCP server URL', hint: 'use mcp://host:port/path, http://… or https://… (for --mcp: URL or NAME=URL)', exit: 'usage', doc },
  MCP002: { severity: 'error', title: 'cannot connect to the MCP server', hint: 'check that the server is running and the URL is right', doc },
  MCP003: { severity: 'error', title: 'MCP request timed out', hint: 'the server did not answer in time; raise [mcp] call_timeout_ms / connect_timeout_ms in the skill if it is just slow', doc },
  MCP004: { severity: 'error', title: 'MCP server answered with an HTTP error status', doc },
  MCP005: { severity: 'error', title: 'MCP server refused authentication', hint: 'set the header in the skill\'s [mcp] headers, e.g. Authorization = "Bearer ${TOKEN_VAR}", and export TOKEN_VAR', doc },
  MCP006: { severity: 'error', title: 'MCP server answered with an unexpected content type', hint: 'is the URL the server\'s Streamable HTTP endpoint (often …/mcp)?', doc },
  MCP007: { severity: 'error', title: 'malformed MCP message', hint: 'the server sent something that is not valid MCP JSON-RPC; report it to the server\'s maintainers', doc },
  MCP008: { severity: 'error', title: 'MCP response stream ended without the response', hint: 'the server closed the connection early; try again, or check the server\'s logs', doc },
  MCP009: { severity: 'error', title: 'MCP protocol version not supported', hint: 'this client speaks 2026-07-28 (stateless), 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05; the message says which side is behind', doc },
  MCP010: { severity: 'error', title: 'MCP session expired', hint: 'the server ended the session again right after a fresh one was started; check the server', doc },
  MCP011: { severity: 'error', title: 'MCP redirect refused', hint: 'use the final URL directly; redirects to another origin are never followed so headers cannot leak', doc },
  MCP012: { severity: 'error', title: 'MCP response too large', doc },
  MCP013: { severity: 'error', title: 'MCP tool list pagination stopped', hint: 'the server kept paginating (or repeated a cursor); report it to the server\'s maintainers', doc },
  MCP014: { severity: 'error', title: 'a header or [mcp] oauth setting of the tool skill names an unset environment variable', hint: 'export the variable before running oxo-flow', doc },
  MCP015: { severity: 'error', title: 'MCP connection closed', doc },
  MCP016: { severity: 'error', title: 'OAuth authorization with the MCP server failed', hint: 'run `oxo-flow ai login SERVER` in a terminal, or check the skill\'s [mcp] oauth settings', doc },
  MCP020: { severity: 'error', title: 'MCP server reported an error', doc },
  MCP022: { severity: 'error', title: 'MCP tool needs input this client cannot give here', hint: 'a form (elicitation) is answered in an interactive terminal; other kinds of input are not supported', doc },
  MCP021: { severity: 'error', title: 'MCP tool reported an error (isError)', doc },
  TOOL001: { severity: 'error', title: 'unknown tool', hint: 'run `oxo-flow ai tools` to list the tools and their names', exit: 'usage', doc },
  TOOL002: { severity: 'error', title: 'tool arguments are not a JSON object', hint: 'pass --args with a JSON object, e.g. --args \'{"gene":"BRCA1"}\'', exit: 'usage', doc },
  TOOL003: { severity: 'error', title: 'built-in tool failed', doc },
  TOOL004: { severity: 'warning', title: 'tool name shortened or made unique', doc },
  TOOL005: { severity: 'warning', title: 'MCP tool cannot be called by this client', doc },
  TOOL006: { severity: 'warning', title: 'MCP server skipped', hint: 'the other tools are still available; fix the server or deactivate its skill', doc },
  APR001: { severity: 'error', title: 'call refused: no human can approve it here', hint: 'run the command in an interactive terminal (no CI, no --json, stdin and stderr on a terminal) to be asked', doc },
  APR002: { severity: 'error', title: 'call refused at the approval prompt', doc },
} as const satisfies Record<string, CodeInfo>;

export type McpCode = keyof typeof mcpCodes;
