// The protocol layer over an in-memory transport: ids, matching, schema validation, errors by kind.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { McpFailure } from '../../../src/ai/mcp/failure.js';
import { JsonRpcSession } from '../../../src/ai/mcp/jsonrpc.js';
import { MemoryTransport } from '../../helpers/mcp-memory-transport.js';

const Result = z.looseObject({ value: z.number() });

describe('JsonRpcSession', () => {
  it('gives each request its own id and matches responses by id, even out of order', async () => {
    const held: ((m: unknown) => void)[] = [];
    const transport = new MemoryTransport(async (m, reply) => {
      if (!('id' in m) || !('method' in m)) return;
      const id = m.id as string | number;
      // Answer later, in reverse order, on the same exchange.
      await new Promise<void>((resolve) => held.push(() => (reply({ jsonrpc: '2.0', id, result: { value: Number(id) * 10 } }), resolve())));
    });
    const rpc = new JsonRpcSession(transport);
    const a = rpc.request('x', {}, Result, { timeoutMs: 1_000 });
    const b = rpc.request('y', {}, Result, { timeoutMs: 1_000 });
    await new Promise((r) => setTimeout(r, 10));
    held[1]!(undefined);
    held[0]!(undefined);
    expect(await a).toEqual({ value: 10 });
    expect(await b).toEqual({ value: 20 });
    expect(rpc.pendingCount).toBe(0);
  });

  it('a JSON-RPC error from the server is MCP020 with the server\'s code', async () => {
    const rpc = new JsonRpcSession(new MemoryTransport((m, reply) => reply({ jsonrpc: '2.0', id: (m as { id: number }).id, error: { code: -32602, message: 'bad params' } })));
    const err = (await rpc.request('x', {}, Result, { timeoutMs: 1_000 }).catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP020');
    expect(err.rpcCode).toBe(-32602);
    expect(err.message).toContain('bad params');
  });

  it('a result that fails the caller\'s schema is MCP007', async () => {
    const rpc = new JsonRpcSession(new MemoryTransport((m, reply) => reply({ jsonrpc: '2.0', id: (m as { id: number }).id, result: { value: 'nope' } })));
    const err = (await rpc.request('x', {}, Result, { timeoutMs: 1_000 }).catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP007');
    expect(err.message).toContain('value');
  });

  it('an exchange that ends without the response is MCP008 at once; a late answer is ignored', async () => {
    const rpc = new JsonRpcSession(new MemoryTransport(() => undefined));
    const err = (await rpc.request('x', {}, Result, { timeoutMs: 10_000 }).catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP008');
  });

  it('a timeout sends notifications/cancelled with the request id (not for initialize)', async () => {
    const transport = new MemoryTransport(async (m, _reply, options) => {
      if ('method' in m && String(m.method).startsWith('notifications/')) return;
      await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve()));
    });
    const rpc = new JsonRpcSession(transport);
    const err = (await rpc.request('tools/call', {}, Result, { timeoutMs: 50 }).catch((e: unknown) => e)) as McpFailure;
    expect(err.code).toBe('MCP003');
    await new Promise((r) => setTimeout(r, 10));
    expect(transport.sent.find((m) => 'method' in m && m.method === 'notifications/cancelled')).toMatchObject({ params: { requestId: 1 } });
    const init = (await rpc.request('initialize', {}, Result, { timeoutMs: 50, cancellable: false }).catch((e: unknown) => e)) as McpFailure;
    expect(init.code).toBe('MCP003');
    await new Promise((r) => setTimeout(r, 10));
    expect(transport.sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled')).toHaveLength(1);
  });
});
