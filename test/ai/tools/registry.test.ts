// The registry and the gate together, against real servers on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { callThroughGate, type Approver } from '../../../src/ai/tools/call.js';
import { openToolRegistry } from '../../../src/ai/tools/open-registry.js';
import type { ToolRegistry } from '../../../src/ai/tools/registry.js';
import type { McpServerSpec } from '../../../src/ai/mcp/server-spec.js';
import { initializeResult, json, sseHead, startRawServer, type RawServer } from '../../helpers/mcp-raw-server.js';
import { startSdkFixture, type SdkFixture } from '../../helpers/mcp-sdk-server.js';

const clientInfo = { name: 'oxo-flow-test', version: '0' };
const spec = (name: string, url: string, extra: Partial<McpServerSpec> = {}): McpServerSpec => ({ name, url, headers: {}, trustAnnotations: true, source: { kind: 'flag' }, ...extra });
const interactive = (answer: 'yes' | 'no'): Approver & { asked: number } => {
  const a = { asked: 0, nonInteractiveReason: undefined, ask: async () => (a.asked++, answer) };
  return a;
};

let registry: ToolRegistry | undefined;
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await registry?.close();
  registry = undefined;
  for (const s of servers.splice(0)) await s.close();
});

describe('tool registry', () => {
  it('a broken server is reported once and skipped; the others serve', async () => {
    const good: SdkFixture = await startSdkFixture({ mode: 'json' });
    const broken: RawServer = await startRawServer(({ res }) => {
      res.writeHead(500).end('boom');
      return true;
    });
    servers.push(good, broken);
    registry = await openToolRegistry({ active: [], servers: [spec('good', good.url), spec('broken', broken.url), spec('gone', 'http://127.0.0.1:9/mcp')], env: {}, clientInfo });
    expect(registry.servers.map((s) => [s.name, s.ok, s.error?.code])).toEqual([
      ['good', true, undefined],
      ['broken', false, 'MCP004'],
      ['gone', false, 'MCP002'],
    ]);
    const r = await callThroughGate(registry, 'mcp_good_lookup', { gene: 'BRCA1' }, interactive('no'));
    expect(r).toMatchObject({ decision: 'auto', output: { isError: false } });
  });

  it('asks for non-read-only tools; yes runs, no refuses; the human is asked once per call', async () => {
    const f = await startSdkFixture({ mode: 'sse' });
    servers.push(f);
    registry = await openToolRegistry({ active: [], servers: [spec('db', f.url)], env: {}, clientInfo });
    const no = interactive('no');
    expect(await callThroughGate(registry, 'mcp_db_delete_records', { gene: 'X' }, no)).toMatchObject({ decision: 'refused', refusal: { code: 'APR002', answer: 'no' } });
    expect(no.asked).toBe(1);
    expect(f.calls).toHaveLength(0);
    const yes = interactive('yes');
    expect(await callThroughGate(registry, 'mcp_db_delete_records', { gene: 'X' }, yes)).toMatchObject({ decision: 'approved', output: { text: 'deleted records for X' } });
    expect(f.calls.map((c) => c.name)).toEqual(['delete_records']);
  });

  it('a huge result reaches the model capped at 16 KiB', async () => {
    const f = await startSdkFixture({ mode: 'json' });
    servers.push(f);
    registry = await openToolRegistry({ active: [], servers: [spec('db', f.url)], env: {}, clientInfo });
    const r = await callThroughGate(registry, 'mcp_db_big', { bytes: 200_000 }, interactive('no'));
    expect(Buffer.byteLength(r.output.text)).toBeLessThanOrEqual(16 * 1024);
    expect(r.output.text.startsWith('BEGIN')).toBe(true);
    expect(r.output.text.endsWith('END')).toBe(true);
    expect(r.output.text).toContain('bytes omitted');
  });

  it('a tool list that changes: after list_changed the gate judges the new annotations', async () => {
    let readOnly = true;
    const raw = await startRawServer(({ message, res }) => {
      if (message.method === 'initialize') return json(res, 200, initializeResult(message.id));
      if (message.method === 'tools/list') {
        return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'sync', inputSchema: { type: 'object' }, annotations: { readOnlyHint: readOnly } }] } });
      }
      if (message.method === 'tools/call') {
        // The server flips the tool to writing and says so on this call's stream.
        readOnly = false;
        sseHead(res);
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`);
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'synced' }] } })}\n\n`);
        return true;
      }
      return false;
    });
    servers.push(raw);
    registry = await openToolRegistry({ active: [], servers: [spec('repo', raw.url)], env: {}, clientInfo });
    const ci: Approver = { nonInteractiveReason: 'CI is set', ask: async () => 'yes' };
    expect(await callThroughGate(registry, 'mcp_repo_sync', {}, ci)).toMatchObject({ decision: 'auto', output: { text: 'synced' } });
    const second = await callThroughGate(registry, 'mcp_repo_sync', {}, ci);
    expect(second).toMatchObject({ decision: 'refused', refusal: { code: 'APR001' } });
    // And it stays judged by the new annotations on later calls.
    expect(await callThroughGate(registry, 'mcp_repo_sync', {}, ci)).toMatchObject({ decision: 'refused' });
    expect(raw.received.filter((r) => r.message.method === 'tools/list')).toHaveLength(2);
    expect(raw.received.filter((r) => r.message.method === 'tools/call')).toHaveLength(1);
  });

  it('expands ${ENV} headers for the server and never puts the value in any record', async () => {
    const f = await startSdkFixture({ mode: 'json', token: 'env-secret-123' });
    servers.push(f);
    registry = await openToolRegistry({ active: [], servers: [spec('db', f.url, { headers: { Authorization: 'Bearer ${DB_TOKEN}' } })], env: { DB_TOKEN: 'env-secret-123' }, clientInfo });
    expect(registry.servers[0]!.ok).toBe(true);
    const r = await callThroughGate(registry, 'mcp_db_lookup', { gene: 'A' }, interactive('no'));
    expect(JSON.stringify({ servers: registry.servers, tools: registry.tools, r })).not.toContain('env-secret-123');
  });
});

describe('server names', () => {
  it('a second server under a taken name is reported, not merged', async () => {
    const f = await startSdkFixture({ mode: 'json' });
    servers.push(f);
    registry = await openToolRegistry({ active: [], servers: [spec('db', f.url), spec('db', 'http://127.0.0.1:9/mcp')], env: {}, clientInfo });
    expect(registry.servers).toHaveLength(2);
    expect(registry.servers[1]).toMatchObject({ ok: false, error: { code: 'MCP001', message: expect.stringContaining('already named db') } });
    expect(registry.find('mcp_db_lookup')).toBeDefined();
  });
});

describe('checkMcpServers', () => {
  it('reports each active tool skill\'s server, reachable or not, and closes the sessions', async () => {
    const { checkMcpServers } = await import('../../../src/ai/tools/open-registry.js');
    const f = await startSdkFixture({ mode: 'json' });
    servers.push(f);
    const skill = (name: string, url: string) => ({
      name, scope: 'project' as const, format: 'toml' as const, type: 'tool' as const, status: 'ok' as const, findings: [], path: `/x/${name}.skill.toml`, dir: '/x', domains: [],
      mcp: { url, headers: {}, trustAnnotations: true },
    });
    const statuses = await checkMcpServers({ active: [skill('db', f.url), skill('gone', 'http://127.0.0.1:9/mcp')], env: {}, clientInfo });
    expect(statuses.map((s) => [s.name, s.ok, s.toolCount, s.error?.code])).toEqual([
      ['db', true, 8, undefined],
      ['gone', false, undefined, 'MCP002'],
    ]);
    expect(f.deletes).toBe(1);
  });
});
