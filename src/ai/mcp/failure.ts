// Local and transport failures of the MCP client, each with a stable code. Errors a server
// reports (JSON-RPC error objects, tool results with isError) are MCP020/MCP021 and carry the
// server's own code and message. Thrown inside the client layers, turned into diagnostics or
// tool errors at the registry boundary.
import type { McpCode } from '../../diagnostics/codes/mcp.js';

export class McpFailure extends Error {
  override readonly name = 'McpFailure';
  constructor(
    readonly code: McpCode,
    message: string,
    readonly hint?: string,
    /** For MCP020: the JSON-RPC error code the server sent. */
    readonly rpcCode?: number,
    /** For MCP020: the error's `data` (e.g. the versions a server supports). */
    readonly rpcData?: unknown,
  ) {
    super(message);
  }
}

/**
 * The URL as it may be shown: no user-info, no query values (either may hold a token).
 * Header values are never shown anywhere.
 */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const key of [...u.searchParams.keys()]) u.searchParams.set(key, '…');
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}
