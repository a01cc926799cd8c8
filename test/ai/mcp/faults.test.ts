// Fault injection against a raw node:http server: each fault gives its specified error, in
// bounded time, and leaves no socket open.
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/ai/mcp/client.js';
import { McpFailure } from '../../../src/ai/mcp/failure.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { initializeResult, json, SESSION, sseHead, startRawServer, type RawHandler, type RawServer } from '../../helpers/mcp-raw-server.js';

const clientInfo = { name: 'oxo-flow-test', version: '0' };
let server: RawServer | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: RawHandler, timeouts: { handshakeTimeoutMs?: number; callTimeoutMs?: number } = {}): Promise<{ server: RawServer; client: McpClient }> {
  server = await startRawServer(handler);
  client = new McpClient(new StreamableHttpTransport({ url: server.url }), { clientInfo, handshakeTimeoutMs: 2_000, callTimeoutMs: 2_000, ...timeouts });
  return { server, client };
}

async function failure(p: Promise<unknown>): Promise<McpFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpFailure);
  return err as McpFailure;
}

async function expectNoSockets(s: RawServer, c: McpClient): Promise<void> {
  await c.close();
  await expect.poll(() => s.openSockets(), { timeout: 3_000 }).toBe(0);
}

describe('fault injection', () => {
  it('malformed JSON → MCP007', async () => {
    const { server: s, client: c } = await setup(({ message, res }) => {
      if (message.method !== 'initialize') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0", "id": 1, "result": {');
      return true;
    });
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP007');
    expect(err.message).toContain('not JSON');
    await expectNoSockets(s, c);
  });

  it('JSON that is not JSON-RPC → MCP007', async () => {
    const { client: c } = await setup(({ message, res }) => (message.method === 'initialize' ? json(res, 200, { hello: 'world' }) : false));
    expect((await failure(c.connect())).code).toBe('MCP007');
  });

  it('a result that does not match the schema → MCP007 naming the field', async () => {
    const { client: c } = await setup(({ message, res }) =>
      message.method === 'initialize' ? json(res, 200, { jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25' } }) : false,
    );
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP007');
    expect(err.message).toMatch(/capabilities|serverInfo/);
  });

  it('wrong content type → MCP006', async () => {
    const { server: s, client: c } = await setup(({ message, res }) => {
      if (message.method !== 'initialize') return false;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login page</html>');
      return true;
    });
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP006');
    expect(err.message).toContain('text/html');
    await expectNoSockets(s, c);
  });

  it('HTTP 500 → MCP004 with the status', async () => {
    const { server: s, client: c } = await setup(({ res }) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('database exploded');
      return true;
    });
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP004');
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('database exploded');
    await expectNoSockets(s, c);
  });

  it('401 with WWW-Authenticate → MCP005 with the parsed challenge', async () => {
    const { client: c } = await setup(({ res }) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="read write", error="invalid_token"' });
      res.end();
      return true;
    });
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP005');
    expect(err.message).toContain('HTTP 401');
    expect(err.message).toContain('scope="read write"');
    expect(err.message).toContain('resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"');
  });

  it('an SSE stream that ends without the response → MCP008 at once, not a timeout', async () => {
    const { server: s, client: c } = await setup(
      ({ message, res }) => {
        if (message.method !== 'tools/list') return false;
        sseHead(res);
        res.write('data:\n\n');
        res.end(': bye\n\n');
        return true;
      },
      { handshakeTimeoutMs: 20_000 },
    );
    await c.connect();
    const started = Date.now();
    const err = await failure(c.listTools());
    expect(err.code).toBe('MCP008');
    expect(Date.now() - started).toBeLessThan(5_000);
    await expectNoSockets(s, c);
  });

  it('an SSE reply cut after an event id is resumed with GET + Last-Event-ID after the server\'s retry', async () => {
    let pendingId: unknown;
    server = await startRawServer(
      ({ message, res }) => {
        if (message.method !== 'tools/list') return false;
        pendingId = message.id;
        sseHead(res);
        res.end('id: ev-1\nretry: 200\ndata:\n\n');
        return true;
      },
      {
        onGet: (req, res) => {
          sseHead(res);
          const payload = { jsonrpc: '2.0', id: pendingId, result: { tools: [{ name: 'resumed', inputSchema: { type: 'object' } }] } };
          res.end(`id: ev-2\ndata: ${JSON.stringify(payload)}\n\n`);
          void req;
        },
      },
    );
    client = new McpClient(new StreamableHttpTransport({ url: server.url }), { clientInfo, handshakeTimeoutMs: 5_000 });
    await client.connect();
    const started = Date.now();
    expect((await client.listTools()).map((t) => t.name)).toEqual(['resumed']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // One resumption GET (the other GET, without Last-Event-ID, is the client's stream for messages outside a request).
    const resumes = server.gets.filter((h) => h['last-event-id'] !== undefined);
    expect(resumes).toHaveLength(1);
    expect(resumes[0]!['last-event-id']).toBe('ev-1');
    expect(resumes[0]!['mcp-session-id']).toBe(SESSION);
  });

  it('a resumption the server refuses (GET 405) fails with MCP008 after the bounded retry', async () => {
    const { client: c } = await setup(({ message, res }) => {
      if (message.method !== 'tools/list') return false;
      sseHead(res);
      res.end('id: ev-1\nretry: 100\ndata:\n\n');
      return true;
    });
    await c.connect();
    const started = Date.now();
    expect((await failure(c.listTools())).code).toBe('MCP008');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a server that never answers → MCP003 after the deadline, with notifications/cancelled', async () => {
    const { server: s, client: c } = await setup(({ message }) => message.method === 'tools/call', { callTimeoutMs: 300 });
    await c.connect();
    const err = await failure(c.callTool('hang', {}));
    expect(err.code).toBe('MCP003');
    await expect.poll(() => s.received.some((r) => r.message.method === 'notifications/cancelled'), { timeout: 3_000 }).toBe(true);
    const cancel = s.received.find((r) => r.message.method === 'notifications/cancelled')!;
    const call = s.received.find((r) => r.message.method === 'tools/call')!;
    expect(cancel.message.params?.requestId).toBe(call.message.id);
    await expectNoSockets(s, c);
  });

  it('an initialize that never answers → MCP003 after the handshake deadline, never cancelled', async () => {
    const { server: s, client: c } = await setup(({ message }) => message.method === 'initialize', { handshakeTimeoutMs: 300 });
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP003');
    expect(s.received.some((r) => r.message.method === 'notifications/cancelled')).toBe(false);
    await expectNoSockets(s, c);
  });

  it('a huge response body → MCP012, read no further than the cap', async () => {
    server = await startRawServer(({ message, res }) => {
      if (message.method !== 'tools/call') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'x'.repeat(300_000) }] } }));
      return true;
    });
    client = new McpClient(new StreamableHttpTransport({ url: server.url, maxResponseBytes: 100_000 }), { clientInfo });
    await client.connect();
    const err = await failure(client.callTool('big', {}));
    expect(err.code).toBe('MCP012');
    await expectNoSockets(server, client);
  });

  it('SSE: chunk-split CRLF lines, multi-line data, comments, priming events, named events', async () => {
    const { client: c } = await setup(async ({ message, res }) => {
      if (message.method !== 'tools/list') return false;
      sseHead(res);
      const payload = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'split', inputSchema: { type: 'object' } }] } });
      const half = payload.indexOf(',"result"') + 1; // between two members, so the joining \n is whitespace
      // data split over two data: lines (joined with \n, still valid JSON), CRLF split across writes.
      const text = `: keep-alive\r\nid: p1\r\ndata:\r\n\r\nevent: other\r\ndata: {"ignored":true}\r\n\r\ndata:${payload.slice(0, half)}\r\ndata: ${payload.slice(half)}\r\n\r\n`;
      for (let i = 0; i < text.length; i += 7) {
        res.write(text.slice(i, i + 7));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
      return true;
    });
    await c.connect();
    const tools = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['split']);
  });

  it('answers ping with {} and other server requests with -32601 during a call', async () => {
    let answers: unknown[] = [];
    const { client: c } = await setup(async ({ message, res }) => {
      if (message.method === 'tools/call') {
        sseHead(res);
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' })}\n\n`);
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} })}\n\n`);
        const started = Date.now();
        while (answers.length < 2 && Date.now() - started < 3_000) await new Promise((r) => setTimeout(r, 10));
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: JSON.stringify(answers) }] } })}\n\n`);
        return true;
      }
      if (message.method === undefined && message.id !== undefined) {
        answers.push(message);
        res.writeHead(202).end();
        return true;
      }
      return false;
    });
    await c.connect();
    await c.callTool('t', {});
    answers = answers.sort((a, b) => ((a as { id: number }).id - (b as { id: number }).id));
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
    expect(answers[1]).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } });
  });

  it('progress notifications reset the deadline', async () => {
    const { client: c } = await setup(
      async ({ message, res }) => {
        if (message.method !== 'tools/call') return false;
        const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
        sseHead(res);
        for (let i = 1; i <= 6; i++) {
          await new Promise((r) => setTimeout(r, 100));
          res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: i } })}\n\n`);
        }
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [] } })}\n\n`);
        return true;
      },
      { callTimeoutMs: 300 },
    );
    await c.connect();
    const seen: number[] = [];
    await c.callTool('t', {}, { timeoutMs: 300, onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('takes the session id only from a successful initialize and sends the negotiated version', async () => {
    const { server: s, client: c } = await setup(({ message, res }) => {
      if (message.method === 'initialize') return json(res, 200, initializeResult(message.id, '2025-03-26'), { 'mcp-session-id': SESSION });
      if (message.method === 'tools/list') return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [] } }, { 'mcp-session-id': 'hijacked' });
      return false;
    });
    await c.connect();
    await c.listTools();
    await c.listTools();
    const later = s.received.filter((r) => r.message.method !== 'initialize');
    expect(later.map((r) => r.headers['mcp-session-id'])).toEqual(later.map(() => SESSION));
    expect(new Set(later.map((r) => r.headers['mcp-protocol-version']))).toEqual(new Set(['2025-03-26']));
    expect(s.received[0]!.headers['mcp-session-id']).toBeUndefined();
  });

  it('never adopts a session id from a failed initialize', async () => {
    let first = true;
    const { server: s, client: c } = await setup(({ message, res }) => {
      if (message.method === 'initialize' && first) {
        first = false;
        return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Unsupported protocol version' } }, { 'mcp-session-id': 'poison' });
      }
      return false;
    });
    expect((await failure(c.connect())).code).toBe('MCP020');
    await c.connect();
    expect(s.received.every((r) => r.headers['mcp-session-id'] !== 'poison')).toBe(true);
  });

  it('refuses a protocol version it does not speak → MCP009', async () => {
    const { client: c } = await setup(({ message, res }) => (message.method === 'initialize' ? json(res, 200, initializeResult(message.id, '2024-01-01')) : false));
    const err = await failure(c.connect());
    expect(err.code).toBe('MCP009');
    expect(err.message).toContain('2024-01-01');
  });

  it('a 400 naming the session (server-everything style) → one re-initialisation and retry', async () => {
    let expired = false;
    const { server: s, client: c } = await setup(({ message, req, res }) => {
      if (message.method === 'tools/list' && !expired && req.headers['mcp-session-id'] === SESSION) {
        expired = true;
        return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
      }
      return false;
    });
    await c.connect();
    await c.listTools();
    expect(s.received.filter((r) => r.message.method === 'initialize')).toHaveLength(2);
  });

  it('gives up after one re-initialisation when the session keeps expiring → MCP010', async () => {
    const { server: s, client: c } = await setup(({ message, res }) =>
      message.method === 'tools/list' ? json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) : false,
    );
    await c.connect();
    const err = await failure(c.listTools());
    expect(err.code).toBe('MCP010');
    expect(s.received.filter((r) => r.message.method === 'initialize')).toHaveLength(2);
  });

  it('pagination: a repeated cursor and an endless cursor both stop → MCP013', async () => {
    const { client: c } = await setup(({ message, res }) =>
      message.method === 'tools/list' ? json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [], nextCursor: 'same' } }) : false,
    );
    await c.connect();
    expect((await failure(c.listTools())).message).toContain('already returned');
    await c.close();
    let n = 0;
    const { server: s2, client: c2 } = await setup(({ message, res }) =>
      message.method === 'tools/list' ? json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [], nextCursor: `c${n++}` } }) : false,
    );
    await c2.connect();
    const err = await failure(c2.listTools());
    expect(err.code).toBe('MCP013');
    expect(s2.received.filter((r) => r.message.method === 'tools/list').length).toBe(50);
  });

  it('redirects: same-origin 307 is followed, another origin is refused → MCP011', async () => {
    const other = await startRawServer(() => false);
    try {
      const { server: s, client: c } = await setup(({ req, res }) => {
        if (req.url === '/mcp') {
          res.writeHead(307, { location: '/mcp2' }).end();
          return true;
        }
        return false;
      });
      await c.connect();
      expect(s.received.filter((r) => r.message.method === 'initialize')).toHaveLength(2);
      await c.close();
      const { client: c2 } = await setup(({ res }) => {
        res.writeHead(307, { location: other.url }).end();
        return true;
      });
      const err = await failure(c2.connect());
      expect(err.code).toBe('MCP011');
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('an unreachable port → MCP002 quickly', async () => {
    const s = await startRawServer(() => false);
    const url = s.url;
    await s.close();
    const c = new McpClient(new StreamableHttpTransport({ url }), { clientInfo });
    const err = await failure(c.connect());
    await c.close();
    expect(err.code).toBe('MCP002');
  });
});
