// Interoperability with @modelcontextprotocol/server-everything (streamableHttp, SSE replies with
// priming events, 400 for unknown sessions), started by the test on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/ai/mcp/client.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { openToolRegistry } from '../../../src/ai/tools/open-registry.js';
import { callThroughGate } from '../../../src/ai/tools/call.js';
import { startEverything, type EverythingServer } from '../../helpers/mcp-everything.js';

let everything: EverythingServer;
const clientInfo = { name: 'oxo-flow-test', version: '0' };

beforeAll(async () => {
  everything = await startEverything();
});
afterAll(async () => {
  await everything?.close();
});

describe('server-everything', () => {
  it('initializes, lists every tool across pages, calls echo and get-sum', async () => {
    const client = new McpClient(new StreamableHttpTransport({ url: everything.url }), { clientInfo });
    try {
      const init = await client.connect();
      expect(init.protocolVersion).toBe('2025-11-25');
      const tools = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']));
      expect(tools.find((t) => t.name === 'echo')?.annotations?.readOnlyHint).toBe(true);
      const echo = await client.callTool('echo', { message: 'hello from oxo-flow' });
      expect(JSON.stringify(echo.content)).toContain('hello from oxo-flow');
      const sum = await client.callTool('get-sum', { a: 2, b: 40 });
      expect(JSON.stringify(sum.content)).toContain('42');
    } finally {
      await client.close();
    }
  });

  it('receives progress from a long-running operation', async () => {
    const client = new McpClient(new StreamableHttpTransport({ url: everything.url }), { clientInfo });
    try {
      await client.connect();
      const steps: number[] = [];
      await client.callTool('trigger-long-running-operation', { duration: 0.6, steps: 3 }, { timeoutMs: 10_000, onprogress: (p) => steps.push(p.progress) });
      expect(steps.length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
  });

  it('recovers when the server no longer knows the session (it answers 400, not 404)', async () => {
    const transport = new StreamableHttpTransport({ url: everything.url });
    const client = new McpClient(transport, { clientInfo });
    try {
      await client.connect();
      const first = transport.sessionId;
      // End the session behind the client's back with a DELETE of our own.
      const res = await fetch(everything.url, { method: 'DELETE', headers: { 'mcp-session-id': first!, 'mcp-protocol-version': '2025-11-25' } });
      await res.arrayBuffer();
      const tools = await client.listTools();
      expect(tools.length).toBeGreaterThan(5);
      expect(transport.sessionId).not.toBe(first);
    } finally {
      await client.close();
    }
  });

  it('through the registry and gate: read-only tools run, others are refused without a human', async () => {
    const registry = await openToolRegistry({
      active: [],
      servers: [{ name: 'everything', url: everything.url, headers: {}, trustAnnotations: true, source: { kind: 'flag' } }],
      env: {},
      clientInfo,
    });
    try {
      expect(registry.servers[0]).toMatchObject({ ok: true });
      const approver = { nonInteractiveReason: 'CI is set', ask: async () => 'yes' as const };
      const echo = await callThroughGate(registry, 'mcp_everything_echo', { message: 'hi' }, approver);
      expect(echo).toMatchObject({ decision: 'auto', output: { isError: false } });
      const toggle = await callThroughGate(registry, 'mcp_everything_toggle-simulated-logging', {}, approver);
      expect(toggle).toMatchObject({ decision: 'refused', output: { isError: true, code: 'APR001' } });
    } finally {
      await registry.close();
    }
  });
});
