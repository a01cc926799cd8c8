// The MCP client: one short method per operation. initialize (version negotiation), paginated
// tools/list, tools/call with isError returned as data, one re-initialisation when the server
// forgets the session, DELETE on close.
import { McpFailure } from './failure.js';
import { JsonRpcSession, type Progress } from './jsonrpc.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type InitializeResult,
  type Tool,
  mcpSchemas,
} from './messages.js';
import type { ElicitResult } from './elicit.js';
import type { Transport } from './transport.js';

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** Bounds on tools/list pagination: a server cannot keep us listing forever. */
const MAX_TOOL_PAGES = 50;
const MAX_TOOLS = 2_000;

export interface McpClientOptions {
  clientInfo: { name: string; version: string };
  /** Deadline for initialize and tools/list. */
  handshakeTimeoutMs?: number;
  /** Deadline for tools/call without progress; progress resets it up to 10×. */
  callTimeoutMs?: number;
  /**
   * Answers elicitation/create (a person at a terminal). Given only when someone can answer: the
   * client then declares the elicitation capability; without it, the server is told -32601.
   */
  elicit?: (params: Record<string, unknown> | undefined) => Promise<ElicitResult>;
}

export class McpClient {
  private readonly rpc: JsonRpcSession;
  private initResult: InitializeResult | undefined;
  private listChanged = false;

  constructor(
    private readonly transport: Transport,
    private readonly options: McpClientOptions,
  ) {
    this.rpc = new JsonRpcSession(transport);
    const elicit = options.elicit;
    if (elicit !== undefined) this.rpc.handlers['elicitation/create'] = async (params) => ({ ...(await elicit(params)) });
    this.rpc.onnotification = (n) => {
      if (n.method === 'notifications/tools/list_changed') this.listChanged = true;
    };
  }

  get serverInfo(): InitializeResult | undefined {
    return this.initResult;
  }

  /** True once the server said its tool list changed (since the last listTools). */
  get toolsChanged(): boolean {
    return this.listChanged;
  }

  async connect(): Promise<InitializeResult> {
    const result = await this.rpc.request(
      'initialize',
      { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.options.elicit !== undefined ? { elicitation: {} } : {}, clientInfo: this.options.clientInfo },
      mcpSchemas().InitializeResultSchema,
      { timeoutMs: this.handshakeTimeout, cancellable: false },
    );
    if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
      await this.transport.close();
      // Revisions are dates: say which side is behind, so the advice fits.
      const newer = result.protocolVersion > LATEST_PROTOCOL_VERSION;
      throw new McpFailure(
        'MCP009',
        `the server chose protocol version ${result.protocolVersion}, which this client does not speak (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
        newer
          ? `the server is newer than this oxo-flow: upgrade oxo-flow, or run the server in a mode that still speaks ${LATEST_PROTOCOL_VERSION}`
          : `the server is older than ${SUPPORTED_PROTOCOL_VERSIONS.at(-1)}: upgrade the server`,
      );
    }
    this.transport.setProtocolVersion(result.protocolVersion);
    await this.rpc.notify('notifications/initialized', undefined, this.handshakeTimeout);
    this.initResult = result;
    // Notifications outside a request (tools/list_changed) and server requests come on the GET
    // stream; without it, a tool that turned destructive would still be judged by its old annotations.
    this.transport.listen?.();
    return result;
  }

  /** Every tool, following nextCursor with a page cap and a repeated-cursor guard. */
  async listTools(): Promise<Tool[]> {
    return this.withSession(async () => {
      this.listChanged = false;
      const tools: Tool[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let page = 1; ; page++) {
        const result = await this.rpc.request('tools/list', cursor === undefined ? undefined : { cursor }, mcpSchemas().ListToolsResultSchema, {
          timeoutMs: this.handshakeTimeout,
        });
        tools.push(...result.tools);
        if (result.nextCursor === undefined) return tools;
        if (seen.has(result.nextCursor)) throw new McpFailure('MCP013', `tools/list returned a cursor it had already returned (page ${page}); stopped listing`);
        if (page >= MAX_TOOL_PAGES || tools.length >= MAX_TOOLS) {
          throw new McpFailure('MCP013', `tools/list kept paginating past ${page} pages / ${tools.length} tools; stopped listing`);
        }
        seen.add(result.nextCursor);
        cursor = result.nextCursor;
      }
    });
  }

  /** Call a tool by its raw (server) name. A tool's own failure comes back as isError: true, not as a throw. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { timeoutMs?: number; onprogress?: (p: Progress) => void } = {},
  ): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    return this.withSession(() =>
      this.rpc.request('tools/call', { name, arguments: args }, mcpSchemas().CallToolResultSchema, {
        timeoutMs,
        maxTotalMs: timeoutMs * 10,
        ...(options.onprogress !== undefined ? { onprogress: options.onprogress } : { onprogress: () => undefined }),
      }),
    );
  }

  /**
   * Cancel what is still running (notifications/cancelled for each request in flight, so the
   * server stops its work), then DELETE the session and release connections. Never throws.
   */
  async close(reason = 'the client is closing'): Promise<void> {
    const inflight = this.rpc.inflight().filter((r) => r.method !== 'initialize');
    await Promise.all(inflight.map((r) => this.rpc.notify('notifications/cancelled', { requestId: r.id, reason }, 2_000).catch(() => undefined)));
    this.rpc.failAll(new McpFailure('MCP015', 'the MCP connection was closed'));
    await this.transport.close();
  }

  private get handshakeTimeout(): number {
    return this.options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  }

  /** One re-initialisation when the server no longer knows our session (404, or a 400 naming it). */
  private async withSession<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (!(err instanceof McpFailure && err.code === 'MCP010')) throw err;
    }
    this.transport.resetSession();
    await this.connect();
    try {
      return await op();
    } catch (err) {
      if (err instanceof McpFailure && err.code === 'MCP010') {
        throw new McpFailure('MCP010', `${err.message}, again right after a new session was started; giving up`);
      }
      throw err;
    }
  }
}
