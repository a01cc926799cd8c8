// A fixture MCP server built on the official SDK (@modelcontextprotocol/sdk), on 127.0.0.1:0.
// JSON or SSE replies; a read-only tool, a destructive tool, a tool returning isError, a slow
// tool, a progress tool, a huge tool, paginated tools; optional bearer token; sessions that the
// test can expire (then answered 404 like the SDK examples). Stops by itself after `lifetimeMs`.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface SdkFixtureOptions {
  mode: 'json' | 'sse';
  /** Require `Authorization: Bearer <token>`. */
  token?: string;
  /** Tools per tools/list page. */
  pageSize?: number;
  /** Extra tools named page_tool_<n>, to exercise pagination. */
  extraTools?: number;
  lifetimeMs?: number;
}

export interface SdkFixture {
  url: string;
  /** Every tools/call the server ran, in order. */
  calls: { name: string; args: Record<string, unknown> }[];
  /** Request ids the server saw cancelled (notifications/cancelled). */
  cancelled: string[];
  /** Protocol-version headers seen on requests after initialize. */
  versionHeaders: string[];
  /** Session ids sent on initialize requests (must always be empty). */
  sessionOnInitialize: string[];
  deletes: number;
  initializes: number;
  /** Forget every session: the next request with an old id gets 404. */
  expireSessions(): void;
  /** GET requests (the stream for messages outside a request) the server received. */
  gets: number;
  /** Every message POSTed, in order: its method (or "response"), and for notifications/cancelled the request id. */
  posted: string[];
  /** Change a tool's annotations and tell every connected client (tools/list_changed, GET stream). */
  changeAnnotations(tool: string, annotations: Tool['annotations']): Promise<void>;
  /** Send the newest session's client a request outside any call (sampling), on the GET stream; resolves with the client's answer. */
  askClient(): Promise<{ ok: boolean; code?: number; ms: number }>;
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

const obj = (properties: Record<string, object> = {}, required: string[] = []) => ({ type: 'object' as const, properties, required });

function baseTools(): Tool[] {
  return [
    { name: 'lookup', title: 'Look up a gene', description: 'Find a gene record', inputSchema: obj({ gene: { type: 'string' } }, ['gene']), annotations: { readOnlyHint: true, openWorldHint: false } },
    { name: 'delete_records', description: 'Delete records for a gene', inputSchema: obj({ gene: { type: 'string' } }, ['gene']), annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'unannotated', description: 'No annotations at all', inputSchema: obj() },
    { name: 'fail', description: 'Always fails as a tool', inputSchema: obj(), annotations: { readOnlyHint: true } },
    { name: 'slow', description: 'Sleeps ms milliseconds', inputSchema: obj({ ms: { type: 'number' } }), annotations: { readOnlyHint: true } },
    { name: 'progress', description: 'Reports progress steps', inputSchema: obj({ steps: { type: 'number' }, everyMs: { type: 'number' } }), annotations: { readOnlyHint: true } },
    { name: 'big', description: 'Returns a large text', inputSchema: obj({ bytes: { type: 'number' } }), annotations: { readOnlyHint: true } },
    { name: 'ping.me', description: 'Pings the client before answering (dotted name)', inputSchema: obj(), annotations: { readOnlyHint: true } },
  ];
}

export async function startSdkFixture(options: SdkFixtureOptions): Promise<SdkFixture> {
  const tools = baseTools();
  for (let i = 1; i <= (options.extraTools ?? 0); i++) {
    tools.push({ name: `page_tool_${i}`, description: `Paginated tool ${i}`, inputSchema: obj(), annotations: { readOnlyHint: true } });
  }
  const pageSize = options.pageSize ?? 100;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const fixture = {
    calls: [] as SdkFixture['calls'],
    cancelled: [] as string[],
    versionHeaders: [] as string[],
    sessionOnInitialize: [] as string[],
    deletes: 0,
    initializes: 0,
    gets: 0,
    posted: [] as string[],
  };

  const servers: Server[] = [];
  const makeServer = () => {
    const server = new Server({ name: 'sdk-fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } }, instructions: 'Look a gene up before deleting its records.\n\u001b[31mNever\u001b[0m skip the lookup.' });
    servers.push(server);
    server.setRequestHandler(ListToolsRequestSchema, async (req) => {
      const start = req.params?.cursor ? Number(req.params.cursor) : 0;
      const page = tools.slice(start, start + pageSize);
      const next = start + pageSize < tools.length ? String(start + pageSize) : undefined;
      return next === undefined ? { tools: page } : { tools: page, nextCursor: next };
    });
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      fixture.calls.push({ name: req.params.name, args });
      switch (req.params.name) {
        case 'lookup':
          return { content: [{ type: 'text', text: `gene ${String(args.gene)}: chr17` }], structuredContent: { gene: args.gene, chromosome: '17' } };
        case 'delete_records':
          return { content: [{ type: 'text', text: `deleted records for ${String(args.gene)}` }] };
        case 'unannotated':
          return { content: [{ type: 'text', text: 'ran' }] };
        case 'fail':
          return { content: [{ type: 'text', text: 'database offline' }], isError: true };
        case 'slow': {
          const ms = typeof args.ms === 'number' ? args.ms : 5_000;
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, ms);
            extra.signal.addEventListener('abort', () => {
              clearTimeout(t);
              fixture.cancelled.push(String(extra.requestId));
              resolve();
            });
          });
          return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
        }
        case 'progress': {
          const steps = typeof args.steps === 'number' ? args.steps : 3;
          const every = typeof args.everyMs === 'number' ? args.everyMs : 50;
          const token = req.params._meta?.progressToken;
          for (let i = 1; i <= steps; i++) {
            await new Promise((r) => setTimeout(r, every));
            if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
          }
          return { content: [{ type: 'text', text: `done ${steps} steps` }] };
        }
        case 'big': {
          const bytes = typeof args.bytes === 'number' ? args.bytes : 100_000;
          return { content: [{ type: 'text', text: `BEGIN${'x'.repeat(bytes)}END` }] };
        }
        case 'ping.me': {
          await extra.sendRequest({ method: 'ping' }, (await import('@modelcontextprotocol/sdk/types.js')).EmptyResultSchema);
          return { content: [{ type: 'text', text: 'pong received' }] };
        }
        default:
          return { content: [{ type: 'text', text: `page tool ${req.params.name}` }] };
      }
    });
    return server;
  };

  const httpServer = http.createServer(async (req, res) => {
    try {
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="fixture", error="invalid_token", error_description="token missing or wrong", scope="db.read"' });
        res.end();
        return;
      }
      const sid = req.headers['mcp-session-id'] as string | undefined;
      if (req.method === 'GET') fixture.gets++;
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      if (body !== undefined) for (const m of Array.isArray(body) ? body : [body]) fixture.posted.push(m.method === 'notifications/cancelled' ? `${m.method} ${m.params?.requestId}` : (m.method ?? 'response'));
      if (sid !== undefined && sessions.has(sid)) {
        if (req.method === 'DELETE') fixture.deletes++;
        const v = req.headers['mcp-protocol-version'];
        if (typeof v === 'string') fixture.versionHeaders.push(v);
        if (body?.method === 'notifications/cancelled') fixture.cancelled.push(String(body.params?.requestId));
        await sessions.get(sid)!.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && body?.method === 'initialize') {
        fixture.initializes++;
        if (sid !== undefined) fixture.sessionOnInitialize.push(sid);
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: options.mode === 'json',
          ...(options.mode === 'sse' ? { eventStore: new InMemoryEventStore() } : {}),
          onsessioninitialized: (id) => {
            sessions.set(id, transport);
          },
        });
        await makeServer().connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      res.writeHead(sid !== undefined ? 404 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: sid !== undefined ? -32001 : -32000, message: sid !== undefined ? 'Session not found' : 'Bad Request: no session' } }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  const stopTimer = setTimeout(() => void close(), options.lifetimeMs ?? 300_000);
  stopTimer.unref();

  async function close(): Promise<void> {
    clearTimeout(stopTimer);
    for (const t of sessions.values()) await t.close().catch(() => undefined);
    sessions.clear();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  }

  return Object.assign(fixture, {
    url: `http://127.0.0.1:${port}/mcp`,
    expireSessions: () => {
      for (const t of sessions.values()) void t.close().catch(() => undefined);
      sessions.clear();
    },
    openConnections: () => new Promise<number>((resolve) => httpServer.getConnections((_e, count) => resolve(count))),
    changeAnnotations: async (name: string, annotations: Tool['annotations']) => {
      const tool = tools.find((t) => t.name === name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      if (annotations === undefined) delete tool.annotations;
      else tool.annotations = annotations;
      await Promise.all(servers.map((s) => s.sendToolListChanged().catch(() => undefined)));
    },
    askClient: async () => {
      const started = Date.now();
      const { CreateMessageResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
      try {
        await servers.at(-1)!.request(
          { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 } },
          CreateMessageResultSchema,
          { timeout: 30_000 },
        );
        return { ok: true, ms: Date.now() - started };
      } catch (err) {
        return { ok: false, code: (err as { code?: number }).code, ms: Date.now() - started };
      }
    },
    close,
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
