// The client against the official SDK server on 127.0.0.1, in JSON and in SSE mode.
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/ai/mcp/client.js';
import { McpFailure } from '../../../src/ai/mcp/failure.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { startSdkFixture, type SdkFixture } from '../../helpers/mcp-sdk-server.js';

const clientInfo = { name: 'oxo-flow-test', version: '0.0.0' };
let fixture: SdkFixture | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

async function connect(f: SdkFixture, headers: Record<string, string> = {}, callTimeoutMs?: number): Promise<McpClient> {
  const c = new McpClient(new StreamableHttpTransport({ url: f.url, headers }), { clientInfo, ...(callTimeoutMs ? { callTimeoutMs } : {}) });
  await c.connect();
  return c;
}

for (const mode of ['json', 'sse'] as const) {
  describe(`SDK fixture server, ${mode} replies`, () => {
    it('negotiates 2025-11-25, sends the version header, lists and calls tools', async () => {
      fixture = await startSdkFixture({ mode });
      client = new McpClient(new StreamableHttpTransport({ url: fixture.url }), { clientInfo });
      const init = await client.connect();
      expect(init.protocolVersion).toBe('2025-11-25');
      expect(init.serverInfo.name).toBe('sdk-fixture');
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('delete_records');
      expect(tools.find((t) => t.name === 'lookup')?.annotations?.readOnlyHint).toBe(true);
      const result = await client.callTool('lookup', { gene: 'BRCA1' });
      expect(result.isError).toBeFalsy();
      expect(result.content[0]).toMatchObject({ type: 'text', text: 'gene BRCA1: chr17' });
      expect(fixture.versionHeaders.length).toBeGreaterThan(0);
      expect(new Set(fixture.versionHeaders)).toEqual(new Set(['2025-11-25']));
      expect(fixture.sessionOnInitialize).toEqual([]);
    });

    it('returns isError as data, not as a throw', async () => {
      fixture = await startSdkFixture({ mode });
      client = await connect(fixture);
      const result = await client.callTool('fail', {});
      expect(result.isError).toBe(true);
      expect(result.content[0]).toMatchObject({ text: 'database offline' });
    });

    it('follows pagination across pages', async () => {
      fixture = await startSdkFixture({ mode, pageSize: 3, extraTools: 10 });
      client = await connect(fixture);
      const tools = await client.listTools();
      expect(tools).toHaveLength(18);
      expect(new Set(tools.map((t) => t.name)).size).toBe(18);
    });

    it('re-initialises once after the server forgets the session (404) and retries the call', async () => {
      fixture = await startSdkFixture({ mode });
      client = await connect(fixture);
      expect(fixture.initializes).toBe(1);
      fixture.expireSessions();
      const result = await client.callTool('lookup', { gene: 'TP53' });
      expect(result.content[0]).toMatchObject({ text: 'gene TP53: chr17' });
      expect(fixture.initializes).toBe(2);
      expect(fixture.sessionOnInitialize).toEqual([]);
    });

    it('times out a slow call, sends notifications/cancelled, and the session still works', async () => {
      fixture = await startSdkFixture({ mode });
      client = await connect(fixture, {}, 300);
      const err = await client.callTool('slow', { ms: 10_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpFailure);
      expect((err as McpFailure).code).toBe('MCP003');
      await expect.poll(() => fixture!.cancelled.length, { timeout: 5_000 }).toBeGreaterThan(0);
      const ok = await client.callTool('lookup', { gene: 'EGFR' });
      expect(ok.content[0]).toMatchObject({ text: 'gene EGFR: chr17' });
    });

    // Only for SSE replies: in JSON mode a server can send requests only on the optional GET stream,
    // which this CLI does not open (docs/mcp.md), so there is nothing to test there.
    if (mode === 'sse') {
      it('answers a server ping in the middle of a call', async () => {
        fixture = await startSdkFixture({ mode });
        client = await connect(fixture);
        const result = await client.callTool('ping.me', {}, { timeoutMs: 5_000 });
        expect(result.content[0]).toMatchObject({ text: 'pong received' });
      });
    }

    it('sends the bearer token and explains a 401 with the parsed WWW-Authenticate', async () => {
      fixture = await startSdkFixture({ mode, token: 's3cret-token' });
      const bad = new McpClient(new StreamableHttpTransport({ url: fixture.url, headers: { Authorization: 'Bearer wrong-value' } }), { clientInfo });
      const err = (await bad.connect().catch((e: unknown) => e)) as McpFailure;
      await bad.close();
      expect(err.code).toBe('MCP005');
      expect(err.message).toContain('401');
      expect(err.message).toContain('error="invalid_token"');
      expect(err.message).toContain('scope="db.read"');
      expect(err.message).not.toContain('wrong-value');
      client = await connect(fixture, { Authorization: 'Bearer s3cret-token' });
      expect((await client.listTools()).length).toBeGreaterThan(0);
    });

    it('sends DELETE on close and leaves no open connection', async () => {
      fixture = await startSdkFixture({ mode });
      client = await connect(fixture);
      await client.listTools();
      await client.close();
      client = undefined;
      expect(fixture.deletes).toBe(1);
      await expect.poll(() => fixture!.openConnections(), { timeout: 3_000 }).toBe(0);
    });
  });
}
