// The 2026-07-28 revision against a hand-written server on 127.0.0.1: the stateless lifecycle
// (SEP-2575), tool input requests answered and sent back (SEP-2322), and tool parameters mirrored
// into Mcp-Param-* headers (SEP-2243), with tools whose marks are invalid left out.
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/ai/mcp/client.js';
import type { McpFailure } from '../../../src/ai/mcp/failure.js';
import { headerParams, headerValue, paramHeaders } from '../../../src/ai/mcp/param-headers.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { initializeResult, json, SESSION, startRawServer, type RawServer } from '../../helpers/mcp-raw-server.js';

const clientInfo = { name: 'oxo-flow-test', version: '0' };
let raw: RawServer | undefined;
let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  await raw?.close();
  client = undefined;
  raw = undefined;
});

const META = 'io.modelcontextprotocol/protocolVersion';
/** A 2026-07-28-only server: initialize is refused with -32022 and the versions it speaks. */
const statelessServer = (more: Parameters<typeof startRawServer>[0] = () => undefined) =>
  startRawServer(async (x) => {
    const m = x.message;
    if (m.method === 'initialize') return json(x.res, 400, { jsonrpc: '2.0', id: m.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } });
    if (m.method === 'server/discover') return json(x.res, 200, { jsonrpc: '2.0', id: m.id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, instructions: 'be kind', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'stateless', version: '1' } } } });
    if ((await more(x)) === true) return true;
    if (m.method === 'tools/list') return json(x.res, 200, { jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } });
    return undefined;
  });

describe('2026-07-28 (stateless, SEP-2575)', () => {
  it('a server that refuses initialize with -32022 naming 2026-07-28 is discovered; every request then says the version in the header and _meta', async () => {
    raw = await statelessServer();
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    const init = await client.connect();
    expect(init).toMatchObject({ protocolVersion: '2026-07-28', serverInfo: { name: 'stateless' }, instructions: 'be kind' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo']);
    const methods = raw.received.map((r) => r.message.method);
    expect(methods).toEqual(['initialize', 'server/discover', 'tools/list']);
    // initialize already says its version both ways (so such a server can answer which it speaks).
    expect(raw.received[0]!.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(raw.received[0]!.message.params?._meta).toMatchObject({ [META]: '2025-11-25' });
    for (const r of raw.received.slice(1)) {
      expect(r.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(r.message.params?._meta).toEqual({ [META]: '2026-07-28', 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': {} });
      expect(r.headers['mcp-session-id']).toBeUndefined();
    }
    expect(raw.received.some((r) => r.message.method === 'notifications/initialized')).toBe(false);
  });

  it('a server of another revision only is MCP009, naming the versions on both sides', async () => {
    raw = await startRawServer((x) => (x.message.method === 'initialize' ? json(x.res, 400, { jsonrpc: '2.0', id: x.message.id, error: { code: -32022, message: 'no', data: { supported: ['2031-01-01'] } } }) : undefined));
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    const err = (await client.connect().catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP009');
    expect(err.message).toContain('2031-01-01');
    expect(err.hint).toMatch(/newer than this oxo-flow/);
  });

  it('an older server still gets the stateful handshake, and _meta only on initialize', async () => {
    raw = await startRawServer((x) => (x.message.method === 'initialize' ? json(x.res, 200, initializeResult(x.message.id, '2025-06-18'), { 'mcp-session-id': SESSION }) : undefined));
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    await client.connect();
    await client.listTools();
    const list = raw.received.find((r) => r.message.method === 'tools/list')!;
    expect(list.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(list.headers['mcp-session-id']).toBe(SESSION);
    expect(list.message.params?._meta).toBeUndefined();
  });
});

describe('tool input requests (SEP-2322)', () => {
  const STATE = '{"nonce":"n-1",  "odd spacing":true}';
  const form = { method: 'elicitation/create', params: { message: 'Confirm?', requestedSchema: { type: 'object', properties: { confirmed: { type: 'boolean' } } } } };
  const inputServer = (withState: boolean) =>
    statelessServer((x) => {
      const m = x.message;
      if (m.method !== 'tools/call') return undefined;
      if (m.params?.inputResponses === undefined) return json(x.res, 200, { jsonrpc: '2.0', id: m.id, result: { resultType: 'input_required', inputRequests: { confirm: form }, ...(withState ? { requestState: STATE } : {}) } });
      return json(x.res, 200, { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: `done: ${JSON.stringify(m.params.inputResponses)}` }] } });
    });

  it('the form goes to the person; the call is sent again with a new id, the answers and the exact requestState', async () => {
    raw = await inputServer(true);
    const asked: unknown[] = [];
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo, elicit: async (params) => (asked.push(params), { action: 'accept', content: { confirmed: true } }) });
    await client.connect();
    const result = await client.callTool('echo', { a: 1 });
    expect(result.content).toEqual([{ type: 'text', text: 'done: {"confirm":{"action":"accept","content":{"confirmed":true}}}' }]);
    expect(asked).toEqual([form.params]);
    const calls = raw.received.filter((r) => r.message.method === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.message.id).not.toBe(calls[0]!.message.id);
    expect(calls[1]!.message.params).toMatchObject({ name: 'echo', arguments: { a: 1 }, requestState: STATE });
  });

  it('no requestState from the server, none sent back; nobody to answer the form is MCP022, not a hang', async () => {
    raw = await inputServer(false);
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo, elicit: async () => ({ action: 'decline' }) });
    await client.connect();
    await client.callTool('echo', {});
    const retry = raw.received.filter((r) => r.message.method === 'tools/call')[1]!;
    expect(retry.message.params).not.toHaveProperty('requestState');
    await client.close();
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    await client.connect();
    const err = (await client.callTool('echo', {}).catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP022');
    expect(err.message).toContain('needs a person to fill in a form');
  });
});

describe('Mcp-Param-* headers (SEP-2243)', () => {
  it('marks are checked: empty, not a token, repeated ignoring case, or on an object/array/null parameter are refused', () => {
    const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
    expect(headerParams(schema({ r: { type: 'string', 'x-mcp-header': 'Region' }, q: { type: 'string' } }))).toEqual({ params: { r: 'Region' } });
    for (const [props, why] of [
      [{ v: { type: 'string', 'x-mcp-header': '' } }, 'empty'],
      [{ v: { type: 'string', 'x-mcp-header': 'My Region' } }, 'not a valid header name'],
      [{ v: { type: 'string', 'x-mcp-header': 'Region:1' } }, 'not a valid header name'],
      [{ v: { type: 'string', 'x-mcp-header': 'Région' } }, 'not a valid header name'],
      [{ v: { type: 'string', 'x-mcp-header': 'Tab\t1' } }, 'not a valid header name'],
      [{ v: { type: 'object', 'x-mcp-header': 'Data' } }, 'not a string, number, integer or boolean'],
      [{ v: { type: 'array', 'x-mcp-header': 'Items' } }, 'not a string, number, integer or boolean'],
      [{ v: { type: 'null', 'x-mcp-header': 'Nil' } }, 'not a string, number, integer or boolean'],
      [{ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }, 'both use'],
    ] as const) {
      const r = headerParams(schema(props));
      expect('invalid' in r && r.invalid, JSON.stringify(props)).toContain(why);
    }
  });

  it('values: printable ASCII as it is, numbers and booleans as JSON, anything else base64; null and absent omitted', () => {
    expect(headerValue('us west 1')).toBe('us west 1');
    expect(headerValue('')).toBe('');
    expect(headerValue(42)).toBe('42');
    expect(headerValue(false)).toBe('false');
    for (const v of [' padded', 'trail ', 'Hello, 世界', 'a\nb', '\tx']) expect(headerValue(v)).toBe(`=?base64?${Buffer.from(v).toString('base64')}?=`);
    expect(paramHeaders({ r: 'Region', v: 'Verbose', p: 'Priority' }, { r: 'eu', v: null, q: 'SELECT 1' })).toEqual({ 'Mcp-Param-Region': 'eu' });
  });

  it('a call sends the marked arguments as headers; a tool with invalid marks is left out and said why', async () => {
    raw = await startRawServer((x) => {
      const m = x.message;
      if (m.method === 'tools/call') return json(x.res, 200, { jsonrpc: '2.0', id: m.id, result: { content: [] } });
      if (m.method !== 'tools/list') return undefined;
      return json(x.res, 200, {
        jsonrpc: '2.0',
        id: m.id,
        result: {
          tools: [
            { name: 'route', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' }, body: { type: 'string' } } } },
            { name: 'broken', inputSchema: { type: 'object', properties: { x: { type: 'string', 'x-mcp-header': 'Bad Name' } } } },
          ],
        },
      });
    });
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    await client.connect();
    expect((await client.listTools()).map((t) => t.name)).toEqual(['route']);
    expect(client.rejectedTools).toEqual([{ name: 'broken', reason: expect.stringContaining('"Bad Name", which is not a valid header name') }]);
    await client.callTool('route', { region: 'Zürich', n: 7, body: 'not mirrored' });
    const call = raw.received.find((r) => r.message.method === 'tools/call')!;
    expect(call.headers['mcp-param-region']).toBe(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    expect(call.headers['mcp-param-n']).toBe('7');
    expect(Object.keys(call.headers).filter((h) => h.startsWith('mcp-param-')).sort()).toEqual(['mcp-param-n', 'mcp-param-region']);
  });
});
