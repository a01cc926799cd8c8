// The client against the official SDK server on 127.0.0.1 for what happens outside a call: the GET
// stream (tools/list_changed, server requests), cancellation when the client closes, older protocol
// revisions, and results whose structuredContent repeats their text.
import { afterEach, describe, expect, it } from 'vitest';
import { refreshTools, openServer, type OpenServer } from '../../../src/ai/mcp/bridge.js';
import { McpClient } from '../../../src/ai/mcp/client.js';
import { McpFailure } from '../../../src/ai/mcp/failure.js';
import { resultText } from '../../../src/ai/mcp/result.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { initializeResult, json, SESSION, startRawServer, type RawServer } from '../../helpers/mcp-raw-server.js';
import { startSdkFixture, type SdkFixture } from '../../helpers/mcp-sdk-server.js';

const clientInfo = { name: 'oxo-flow-test', version: '0.0.0' };
let fixture: SdkFixture | undefined;
let raw: RawServer | undefined;
let server: OpenServer | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await server?.client.close();
  await client?.close();
  await fixture?.close();
  await raw?.close();
  server = undefined;
  client = undefined;
  fixture = undefined;
  raw = undefined;
});

const waitFor = async (cond: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const spec = (url: string) => ({ name: 'sdk', url, headers: {}, trustAnnotations: true, source: { kind: 'flag' as const } });

describe('the GET stream (official SDK server, stateful)', () => {
  it('opens it after initialize, and tools/list_changed on it makes the next gate decision see the new annotations', async () => {
    fixture = await startSdkFixture({ mode: 'sse' });
    server = await openServer(spec(fixture.url), { env: {}, clientInfo });
    await waitFor(() => fixture!.gets > 0);
    expect(server.tools.find((t) => t.rawName === 'unannotated')?.annotations.destructiveHint).toBeUndefined();
    await fixture.changeAnnotations('unannotated', { readOnlyHint: false, destructiveHint: true });
    await waitFor(() => server!.client.toolsChanged);
    await refreshTools(server);
    expect(server.tools.find((t) => t.rawName === 'unannotated')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('answers a server request on it at once with -32601 (this client offers no sampling)', async () => {
    fixture = await startSdkFixture({ mode: 'sse' });
    server = await openServer(spec(fixture.url), { env: {}, clientInfo });
    await waitFor(() => fixture!.gets > 0);
    const answer = await fixture.askClient();
    expect(answer.ok).toBe(false);
    expect(answer.code).toBe(-32601);
  });

  it('closing the client cancels a call in flight (the server sees notifications/cancelled) and DELETEs the session', async () => {
    fixture = await startSdkFixture({ mode: 'sse' });
    server = await openServer(spec(fixture.url), { env: {}, clientInfo });
    const call = server.client.callTool('slow', { ms: 20_000 }).catch((err: unknown) => err);
    await waitFor(() => fixture!.calls.some((c) => c.name === 'slow'));
    await server.client.close('cancelled with Ctrl-C');
    const outcome = await call;
    expect(outcome).toBeInstanceOf(McpFailure);
    await waitFor(() => fixture!.cancelled.length > 0);
    expect(fixture.deletes).toBe(1);
    server = undefined;
  });
});

describe('what a tool skill lets through, and who is calling', () => {
  it('allow_tools and deny_tools decide which tools are offered (deny wins), also after list_changed', async () => {
    fixture = await startSdkFixture({ mode: 'json' });
    server = await openServer({ ...spec(fixture.url), allowTools: ['look*', 'slow', 'unannotated'], denyTools: ['slow'] }, { env: {}, clientInfo });
    expect(server.tools.map((t) => t.rawName).sort()).toEqual(['lookup', 'unannotated']);
    await fixture.changeAnnotations('unannotated', { destructiveHint: true });
    await waitFor(() => server!.client.toolsChanged);
    await refreshTools(server);
    expect(server.tools.map((t) => t.rawName).sort()).toEqual(['lookup', 'unannotated']);
  });

  it('sends a User-Agent naming oxo-flow and its version', async () => {
    raw = await startRawServer(() => undefined);
    server = await openServer(spec(raw.url), { env: {}, clientInfo });
    expect(raw.received[0]!.headers['user-agent']).toBe('oxo-flow-test/0.0.0');
  });
});

describe('older servers', () => {
  it('a 2024-11-05 server works, and each later request carries the negotiated version', async () => {
    raw = await startRawServer((x) => (x.message.method === 'initialize' ? json(x.res, 200, initializeResult(x.message.id, '2024-11-05'), { 'mcp-session-id': SESSION }) : undefined));
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    const init = await client.connect();
    expect(init.protocolVersion).toBe('2024-11-05');
    await client.listTools().catch(() => undefined);
    const after = raw.received.filter((r) => r.message.method !== 'initialize');
    expect(after.length).toBeGreaterThan(0);
    for (const r of after) expect(r.headers['mcp-protocol-version']).toBe('2024-11-05');
  });

  it('MCP009 names the side that is behind', async () => {
    raw = await startRawServer((x) => (x.message.method === 'initialize' ? json(x.res, 200, initializeResult(x.message.id, '2030-01-01'), { 'mcp-session-id': SESSION }) : undefined));
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    const err = (await client.connect().catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP009');
    expect(err.hint).toMatch(/newer than this oxo-flow: upgrade oxo-flow/);
    await raw.close();
    raw = await startRawServer((x) => (x.message.method === 'initialize' ? json(x.res, 200, initializeResult(x.message.id, '2024-01-01'), { 'mcp-session-id': SESSION }) : undefined));
    client = new McpClient(new StreamableHttpTransport({ url: raw.url }), { clientInfo });
    const old = (await client.connect().catch((e: unknown) => e)) as McpFailure;
    expect(old.hint).toMatch(/older than 2024-11-05: upgrade the server/);
  });
});

describe('results that say the same thing twice', () => {
  it('structuredContent that repeats a text block\'s text (server-filesystem) reaches the model once', () => {
    const file = `${'line of a file\n'.repeat(700)}end`;
    const text = resultText({ content: [{ type: 'text', text: file }], structuredContent: { content: file } });
    expect(text).toBe(file);
    // Different data is kept.
    const both = resultText({ content: [{ type: 'text', text: 'summary: 3 genes' }], structuredContent: { genes: ['BRCA1', 'TP53', 'EGFR'] } });
    expect(both).toContain('"BRCA1"');
  });
});
