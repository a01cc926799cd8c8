// A hand-written MCP endpoint on node:http (127.0.0.1:0) for fault injection: each test overrides
// how some messages are answered; everything else gets a plain, correct default. Counts open
// sockets so tests can prove nothing leaks. Stops by itself after `lifetimeMs`.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type RawMessage = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

export interface RawExchange {
  message: RawMessage;
  req: http.IncomingMessage;
  res: http.ServerResponse;
}

/** Return true when the exchange was answered; false/undefined falls through to the default. */
export type RawHandler = (x: RawExchange) => boolean | undefined | Promise<boolean | undefined>;

export interface RawServer {
  url: string;
  origin: string;
  /** Every message received (POST bodies), in order, with the headers that came with it. */
  received: { message: RawMessage; headers: http.IncomingHttpHeaders }[];
  deletes: number;
  /** Headers of every GET (resumption) request. */
  gets: http.IncomingHttpHeaders[];
  openSockets(): number;
  close(): Promise<void>;
}

export const SESSION = 'raw-session-1';

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
  return true;
}

export function sseHead(res: http.ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
}

export function initializeResult(id: string | number | undefined, protocolVersion = '2025-11-25'): RawMessage {
  return { jsonrpc: '2.0', id, result: { protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'raw', version: '0' } } } as RawMessage;
}

export async function startRawServer(
  handler: RawHandler,
  options: { lifetimeMs?: number; onGet?: (req: http.IncomingMessage, res: http.ServerResponse) => void } = {},
): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const state = { received: [] as RawServer['received'], deletes: 0, gets: [] as http.IncomingHttpHeaders[] };
  const server = http.createServer(async (req, res) => {
    if (req.method === 'DELETE') {
      state.deletes++;
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && options.onGet) {
      state.gets.push(req.headers);
      options.onGet(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    let message: RawMessage;
    try {
      message = JSON.parse(body) as RawMessage;
    } catch {
      json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    state.received.push({ message, headers: req.headers });
    if (await handler({ message, req, res })) return;
    if (message.method === 'initialize') {
      json(res, 200, initializeResult(message.id), { 'mcp-session-id': SESSION });
    } else if (message.id === undefined || message.method === undefined) {
      res.writeHead(202).end();
    } else if (message.method === 'tools/list') {
      json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [] } });
    } else {
      json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(() => void close(), options.lifetimeMs ?? 300_000);
  timer.unref();
  async function close(): Promise<void> {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return Object.assign(state, { url: `http://127.0.0.1:${port}/mcp`, origin: `http://127.0.0.1:${port}`, openSockets: () => sockets.size, close });
}
