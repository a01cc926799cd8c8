// The MCP client: one short method per operation. initialize (version negotiation), or for a
// 2026-07-28 server the stateless lifecycle (server/discover, and the version, client and
// capabilities in every request's _meta), paginated tools/list, tools/call with isError returned
// as data and a server's requests for input (SEP-2322) answered and sent back, one
// re-initialisation when the server forgets the session, DELETE on close.
import { McpFailure } from './failure.js';
import { JsonRpcSession, type Progress } from './jsonrpc.js';
import {
  LATEST_PROTOCOL_VERSION,
  STATELESS_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type InitializeResult,
  type InputRequiredResult,
  type Tool,
  mcpSchemas,
} from './messages.js';
import type { ElicitResult } from './elicit.js';
import { headerParams, paramHeaders } from './param-headers.js';
import type { Transport } from './transport.js';

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** Bounds on tools/list pagination: a server cannot keep us listing forever. */
const MAX_TOOL_PAGES = 50;
const MAX_TOOLS = 2_000;
/** Rounds of input a tool may ask for before its call (SEP-2322); a server cannot keep us answering forever. */
const MAX_INPUT_ROUNDS = 8;
/** JSON-RPC error of 2026-07-28: the version asked for is not spoken; `data.supported` lists those that are. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

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
  /** A 2026-07-28 server: no initialize, no session. */
  private stateless = false;
  /** SEP-2243: per tool, the parameters mirrored into Mcp-Param-* headers. */
  private readonly headerParams = new Map<string, Record<string, string>>();
  private rejected: { name: string; reason: string }[] = [];
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

  /** Tools of the latest listTools left out, and why (invalid x-mcp-header marks, SEP-2243). */
  get rejectedTools(): readonly { name: string; reason: string }[] {
    return this.rejected;
  }

  /** True once the server said its tool list changed (since the last listTools). */
  get toolsChanged(): boolean {
    return this.listChanged;
  }

  private get capabilities(): Record<string, unknown> {
    return this.options.elicit !== undefined ? { elicitation: {} } : {};
  }

  /** What a 2026-07-28 server reads from every request's _meta (and older servers ignore). */
  private requestMeta(version: string): Record<string, unknown> {
    return { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': this.options.clientInfo, 'io.modelcontextprotocol/clientCapabilities': this.capabilities };
  }

  async connect(): Promise<InitializeResult> {
    if (this.stateless) return this.discover();
    // initialize says its version in the header and _meta too, as every request of the stateless
    // revision must: a 2026-07-28-only server then answers which versions it speaks.
    this.transport.setProtocolVersion(LATEST_PROTOCOL_VERSION);
    let result: InitializeResult;
    try {
      result = await this.rpc.request(
        'initialize',
        { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.capabilities, clientInfo: this.options.clientInfo, _meta: this.requestMeta(LATEST_PROTOCOL_VERSION) },
        mcpSchemas().InitializeResultSchema,
        { timeoutMs: this.handshakeTimeout, cancellable: false },
      );
    } catch (err) {
      if (err instanceof McpFailure && err.code === 'MCP020' && (err.rpcCode === -32601 || (err.rpcCode === UNSUPPORTED_PROTOCOL_VERSION && supportedOf(err.rpcData).includes(STATELESS_PROTOCOL_VERSION)))) {
        return this.discover();
      }
      if (err instanceof McpFailure && err.code === 'MCP020' && err.rpcCode === UNSUPPORTED_PROTOCOL_VERSION) throw versionFailure(supportedOf(err.rpcData));
      throw err;
    }
    if (result.protocolVersion === STATELESS_PROTOCOL_VERSION) {
      // A server that still answers initialize but chose the stateless revision: what it said
      // stands for server/discover; every request from now on carries the version in _meta.
      this.stateless = true;
      this.transport.setProtocolVersion(STATELESS_PROTOCOL_VERSION);
      this.rpc.requestMeta = this.requestMeta(STATELESS_PROTOCOL_VERSION);
      this.initResult = result;
      return result;
    }
    if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
      await this.transport.close();
      throw versionFailure([result.protocolVersion]);
    }
    this.transport.setProtocolVersion(result.protocolVersion);
    await this.rpc.notify('notifications/initialized', undefined, this.handshakeTimeout);
    this.initResult = result;
    // Notifications outside a request (tools/list_changed) and server requests come on the GET
    // stream; without it, a tool that turned destructive would still be judged by its old annotations.
    this.transport.listen?.();
    return result;
  }

  /**
   * The stateless lifecycle (2026-07-28, SEP-2575): no initialize, no session, no GET stream; the
   * version goes in the header and, with the client and its capabilities, in every request's _meta.
   * server/discover tells who the server is and what it offers.
   */
  private async discover(): Promise<InitializeResult> {
    this.stateless = true;
    this.transport.setProtocolVersion(STATELESS_PROTOCOL_VERSION);
    this.rpc.requestMeta = this.requestMeta(STATELESS_PROTOCOL_VERSION);
    const found = await this.rpc.request('server/discover', undefined, mcpSchemas().DiscoverResultSchema, { timeoutMs: this.handshakeTimeout, cancellable: false });
    if (found.supportedVersions !== undefined && !found.supportedVersions.includes(STATELESS_PROTOCOL_VERSION)) throw versionFailure(found.supportedVersions);
    this.initResult = {
      protocolVersion: STATELESS_PROTOCOL_VERSION,
      capabilities: found.capabilities,
      serverInfo: found.serverInfo ?? found._meta?.['io.modelcontextprotocol/serverInfo'] ?? { name: '(the server gives no name)' },
      ...(found.instructions !== undefined ? { instructions: found.instructions } : {}),
    };
    return this.initResult;
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
        if (result.nextCursor === undefined) return this.keepValid(tools);
        if (seen.has(result.nextCursor)) throw new McpFailure('MCP013', `tools/list returned a cursor it had already returned (page ${page}); stopped listing`);
        if (page >= MAX_TOOL_PAGES || tools.length >= MAX_TOOLS) {
          throw new McpFailure('MCP013', `tools/list kept paginating past ${page} pages / ${tools.length} tools; stopped listing`);
        }
        seen.add(result.nextCursor);
        cursor = result.nextCursor;
      }
    });
  }

  /** The tools whose x-mcp-header marks are valid (SEP-2243); the others are set aside with the reason. */
  private keepValid(tools: Tool[]): Tool[] {
    this.headerParams.clear();
    this.rejected = [];
    return tools.filter((t) => {
      const marks = headerParams(t.inputSchema);
      if ('invalid' in marks) {
        this.rejected.push({ name: t.name, reason: marks.invalid });
        return false;
      }
      if (Object.keys(marks.params).length > 0) this.headerParams.set(t.name, marks.params);
      return true;
    });
  }

  /** Call a tool by its raw (server) name. A tool's own failure comes back as isError: true, not as a throw. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { timeoutMs?: number; onprogress?: (p: Progress) => void } = {},
  ): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    return this.withSession(async () => {
      let params: Record<string, unknown> = { name, arguments: args };
      const marked = this.headerParams.get(name);
      const headers = marked !== undefined ? paramHeaders(marked, args) : undefined;
      for (let round = 0; ; round++) {
        const answer = await this.rpc.request('tools/call', params, mcpSchemas().CallToolAnswerSchema, {
          timeoutMs,
          ...(headers !== undefined ? { headers } : {}),
          maxTotalMs: timeoutMs * 10,
          ...(options.onprogress !== undefined ? { onprogress: options.onprogress } : { onprogress: () => undefined }),
        });
        if (!('resultType' in answer) || answer.resultType !== 'input_required') return answer as CallToolResult;
        const asked = answer as InputRequiredResult;
        if (round >= MAX_INPUT_ROUNDS) throw new McpFailure('MCP022', `the tool ${name} asked for input ${round + 1} times in a row; stopped answering`);
        // Sent again (a new request id) with the answers, and the server's state exactly as it came.
        const inputResponses = await this.answerInputRequests(name, asked.inputRequests);
        params = { name, arguments: args, inputResponses, ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}) };
      }
    });
  }

  /** The answers to a tool's requests for input: a form (elicitation) goes to the person; nothing else can be answered. */
  private async answerInputRequests(tool: string, requests: InputRequiredResult['inputRequests']): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [key, req] of Object.entries(requests)) {
      if (req.method === 'elicitation/create' && this.options.elicit !== undefined) {
        out[key] = { ...(await this.options.elicit(req.params)) };
        continue;
      }
      throw new McpFailure(
        'MCP022',
        req.method === 'elicitation/create'
          ? `the tool ${tool} needs a person to fill in a form before it runs, and nobody can answer here`
          : `the tool ${tool} needs input this client cannot give (${req.method.replace(/[^\x20-\x7e]/g, '?').slice(0, 80)})`,
        req.method === 'elicitation/create' ? 'run the command in an interactive terminal (no CI, no --json), where the form is shown' : 'this client answers forms (elicitation) only',
      );
    }
    return out;
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

/** The versions a -32022 error says the server speaks. */
function supportedOf(data: unknown): string[] {
  const list = typeof data === 'object' && data !== null ? (data as { supported?: unknown }).supported : undefined;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

/** MCP009, saying which side is behind (revisions are dates), so the advice fits. */
function versionFailure(theirs: string[]): McpFailure {
  const ours = [STATELESS_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];
  // A server that names no version is most likely ahead of us.
  const newer = theirs.every((v) => v > STATELESS_PROTOCOL_VERSION);
  return new McpFailure(
    'MCP009',
    `${theirs.length > 0 ? `the server speaks protocol version ${theirs.join(', ')}` : 'the server names no protocol version it speaks'}, which this client does not (it speaks ${ours.join(', ')})`,
    newer ? `the server is newer than this oxo-flow: upgrade oxo-flow, or run the server in a mode that still speaks ${STATELESS_PROTOCOL_VERSION} or ${LATEST_PROTOCOL_VERSION}` : `the server is older than ${SUPPORTED_PROTOCOL_VERSIONS.at(-1)}: upgrade the server`,
  );
}
