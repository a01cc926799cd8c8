// Proxies, against a real forward proxy on 127.0.0.1 (test/helpers/forward-proxy.ts): the HTTP
// client (src/net/http.ts) sends plain HTTP as absolute-URI requests and HTTPS through CONNECT,
// sends the proxy's credentials to the proxy only, leaves NO_PROXY hosts and the local hosts
// direct, and never shows the proxy's password. Then the built CLI: a provider request (HTTPS,
// CONNECT, a real TLS handshake) and MCP requests (plain and HTTPS) go through the proxy.
//
// The targets are made-up `.invalid` host names that only the proxy's route table knows: a request
// that arrives proves the proxy carried it.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCode, HttpClient, NET_PROXY_INVALID, NET_PROXY_REFUSED, proxySettings, proxyStatus, readCapped } from '../../src/net/http.js';
import { startFakeLlm } from '../helpers/fake-llm.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { makeToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture } from '../helpers/mcp-sdk-server.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { startTlsRelay } from '../helpers/tls-relay.js';
import { TINY_WORKFLOW } from '../helpers/workflow-text.js';

const PROXY_PASSWORD = 'pr0xy-PASSWORD-9d1e';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function echoServer(): Promise<{ port: number; paths: string[] }> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url} host=${req.headers.host}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${req.url}`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, paths };
}

async function proxy(options: Parameters<typeof startForwardProxy>[0] = {}): Promise<ForwardProxy> {
  const p = await startForwardProxy(options);
  cleanups.push(() => p.close());
  return p;
}

function client(env: Record<string, string | undefined>): HttpClient {
  const c = new HttpClient({ connectTimeoutMs: 5_000 }, env);
  cleanups.push(() => c.close());
  return c;
}
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as Error);
const withCredentials = (p: ForwardProxy, user = 'alice', pass = PROXY_PASSWORD) => `http://${user}:${encodeURIComponent(pass)}@127.0.0.1:${p.port}`;

describe('proxy settings from the environment', () => {
  it('lower-case names win; an https URL falls back to HTTP_PROXY; the local hosts are always exempt', () => {
    expect(proxySettings({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2' })).toEqual({ httpProxy: 'http://lower:2', httpsProxy: 'http://lower:2', noProxy: 'localhost,127.0.0.1,[::1]' });
    expect(proxySettings({ HTTPS_PROXY: 'http://s:3', NO_PROXY: '.corp.example' })).toEqual({ httpsProxy: 'http://s:3', noProxy: '.corp.example,localhost,127.0.0.1,[::1]' });
    expect(proxySettings({ HTTPS_PROXY: '  ', no_proxy: 'a', NO_PROXY: 'b' })).toEqual({ noProxy: 'a,localhost,127.0.0.1,[::1]' });
  });
});

describe('HttpClient through a forward proxy', () => {
  it('HTTP_PROXY: a plain http URL goes to the proxy as an absolute-URI request, with the Basic credentials from the proxy URL', async () => {
    const target = await echoServer();
    const p = await proxy({ routes: { 'llm.invalid:8080': { host: '127.0.0.1', port: target.port } }, auth: { user: 'alice', pass: PROXY_PASSWORD } });
    const c = client({ HTTP_PROXY: withCredentials(p) });
    const res = await c.request(new URL('http://llm.invalid:8080/v1/x?q=1'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.statusCode).toBe(200);
    expect((await readCapped(res, 1024)).text).toBe('hello from /v1/x?q=1');
    expect(p.seen).toEqual([{ method: 'POST', target: 'http://llm.invalid:8080/v1/x?q=1', proxyAuthorization: `Basic ${Buffer.from(`alice:${PROXY_PASSWORD}`).toString('base64')}`, outcome: 'forwarded' }]);
    // The credentials are for the proxy: the server never sees them.
    expect(target.paths).toEqual(['POST /v1/x?q=1 host=llm.invalid:8080']);
  });

  it('a second request reuses the connection to the proxy', async () => {
    const target = await echoServer();
    const p = await proxy({ routes: { 'llm.invalid:80': { host: '127.0.0.1', port: target.port } } });
    const c = client({ http_proxy: p.url });
    for (const n of [1, 2]) await readCapped(await c.request(new URL(`http://llm.invalid/${n}`), { method: 'GET', headers: {} }), 100);
    expect(p.seen.map((s) => s.target)).toEqual(['http://llm.invalid/1', 'http://llm.invalid/2']);
  });

  it('a proxy that refuses the credentials: NET_PROXY_REFUSED with status 407, and the password in no message', async () => {
    const p = await proxy({ auth: { user: 'alice', pass: 'the-right-one' } });
    for (const [name, url] of [['HTTP_PROXY', 'http://llm.invalid/x'], ['HTTPS_PROXY', 'https://llm.invalid/x']] as const) {
      const err = await failure(client({ [name]: withCredentials(p) }).request(new URL(url), { method: 'GET', headers: {} }));
      expect(errorCode(err), url).toBe(NET_PROXY_REFUSED);
      expect(proxyStatus(err)).toBe(407);
      expect(`${err?.message} ${String((err as { cause?: unknown })?.cause)}`).not.toContain(PROXY_PASSWORD);
    }
    expect(p.seen.map((s) => [s.method, s.outcome])).toEqual([
      ['GET', 'auth-required'],
      ['CONNECT', 'auth-required'],
    ]);
  });

  it('NO_PROXY names a host (or its domain): that host is reached directly and the proxy sees nothing', async () => {
    const p = await proxy();
    for (const noProxy of ['llm.invalid', '.invalid', 'other.example, llm.invalid:80', '*']) {
      const err = await failure(client({ HTTP_PROXY: p.url, NO_PROXY: noProxy }).request(new URL('http://llm.invalid/x'), { method: 'GET', headers: {} }));
      // Directly, the made-up name does not resolve.
      expect(errorCode(err), noProxy).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
    }
    expect(p.seen).toEqual([]);
  });

  it('localhost and 127.0.0.1 are reached directly even with HTTP_PROXY set and no NO_PROXY (a local model server)', async () => {
    const target = await echoServer();
    const p = await proxy();
    const c = client({ HTTP_PROXY: p.url, HTTPS_PROXY: p.url });
    for (const host of ['127.0.0.1', 'localhost']) {
      const res = await c.request(new URL(`http://${host}:${target.port}/local`), { method: 'GET', headers: {} });
      expect(res.statusCode).toBe(200);
      await readCapped(res, 100);
    }
    expect(p.seen).toEqual([]);
  });

  it('a proxy variable that is not an http(s) URL fails with NET_PROXY_INVALID, without echoing the value', async () => {
    const err = await failure(client({ HTTPS_PROXY: `socks9://bob:${PROXY_PASSWORD}@proxy` }).request(new URL('https://llm.invalid/x'), { method: 'GET', headers: {} }));
    expect(errorCode(err)).toBe(NET_PROXY_INVALID);
    expect(err?.message).toContain('HTTPS_PROXY');
    expect(err?.message).not.toContain(PROXY_PASSWORD);
  });
});

// ---- the built CLI ----

const KEY = 'sk-proxy-test-KEY-3c9f1a';

function reviewProject(): { dir: string; home: string } {
  const dir = tempDir('oxo-proxy-');
  writeFileSync(path.join(dir, 'main.oxoflow'), TINY_WORKFLOW);
  const home = path.join(dir, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, retries: { max: 0 } }));
  return { dir, home };
}

function sessionsText(dir: string): string {
  const where = path.join(dir, '.oxo-flow', 'ai_sessions');
  let names: string[] = [];
  try {
    names = readdirSync(where);
  } catch {
    return '';
  }
  return names.map((n) => readFileSync(path.join(where, n), 'utf8')).join('\n');
}

describe('the CLI through a proxy', () => {
  it('lint --ai: the provider request (https) goes through HTTPS_PROXY as a CONNECT tunnel; the proxy password shows nowhere', async () => {
    const fake = await startFakeLlm([], { kind: 'answer', text: '[INFO] workflow: fine → nothing to change' });
    cleanups.push(() => fake.close());
    const tls = await startTlsRelay('llm.invalid', Number(new URL(fake.baseUrl).port));
    cleanups.push(() => tls.close());
    const p = await proxy({ routes: { 'llm.invalid:443': { host: '127.0.0.1', port: tls.port } }, auth: { user: 'alice', pass: PROXY_PASSWORD } });
    const { dir, home } = reviewProject();
    const env = {
      OXO_FLOW_HOME: home,
      OXO_FLOW_AI_PROVIDER: 'openai',
      OXO_FLOW_AI_BASE_URL: 'https://llm.invalid/v1',
      OXO_FLOW_AI_API_KEY: KEY,
      HTTPS_PROXY: withCredentials(p),
      NODE_EXTRA_CA_CERTS: tls.caFile,
    };
    const human = await runCliAsync(['lint', '--ai'], { cwd: dir, env });
    expect(human.stderr).toContain('fine');
    expect(human.stderr).not.toMatch(/AI0\d\d/);
    const json = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env });
    expect(JSON.parse(json.stdout).ai).toMatchObject({ status: 'ok' });
    expect(p.seen.map((s) => [s.method, s.target, s.outcome])).toEqual([
      ['CONNECT', 'llm.invalid:443', 'forwarded'],
      ['CONNECT', 'llm.invalid:443', 'forwarded'],
    ]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]!.headers['proxy-authorization']).toBeUndefined();
    const everything = human.stdout + human.stderr + json.stdout + json.stderr + sessionsText(dir);
    expect(everything).not.toContain(PROXY_PASSWORD);
    expect(everything).not.toContain(KEY);
  });

  it('lint --ai: a proxy that refuses the credentials is reported (AI007) with the proxy masked, the password nowhere', async () => {
    const p = await proxy({ auth: { user: 'alice', pass: 'something-else' } });
    const { dir, home } = reviewProject();
    const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: 'https://llm.invalid/v1', OPENAI_API_KEY: KEY, https_proxy: withCredentials(p) };
    const human = await runCliAsync(['lint', '--ai'], { cwd: dir, env });
    expect(human.code).toBe(0);
    expect(human.stderr).toContain('AI007');
    expect(human.stderr).toContain(`the proxy http://***@127.0.0.1:${p.port}`);
    expect(human.stderr).toContain('407');
    const json = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env });
    expect(JSON.parse(json.stdout).ai).toMatchObject({ status: 'error', error: { code: 'AI007' } });
    const everything = human.stdout + human.stderr + json.stdout + json.stderr + sessionsText(dir);
    expect(everything).not.toContain(PROXY_PASSWORD);
    expect(everything).not.toContain('something-else');
    expect(everything).not.toContain(KEY);
  });

  it('lint --ai with the provider named in NO_PROXY: reached directly (here: the name does not resolve), the proxy sees nothing', async () => {
    const p = await proxy();
    const { dir, home } = reviewProject();
    const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: 'https://llm.invalid/v1', OPENAI_API_KEY: KEY, HTTPS_PROXY: p.url, NO_PROXY: 'llm.invalid' };
    const r = await runCliAsync(['lint', '--ai'], { cwd: dir, env });
    expect(r.stderr).toContain('AI007');
    expect(r.stderr).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(r.stderr).not.toContain('through the proxy');
    expect(p.seen).toEqual([]);
  });

  it('ai tools --mcp: MCP requests go through HTTP_PROXY (absolute URI) and HTTPS_PROXY (CONNECT); the password shows nowhere', async () => {
    const fixture = await startSdkFixture({ mode: 'sse', lifetimeMs: 120_000 });
    cleanups.push(() => fixture.close());
    const mcpPort = Number(new URL(fixture.url).port);
    const tls = await startTlsRelay('mcp.invalid', mcpPort);
    cleanups.push(() => tls.close());
    const p = await proxy({ routes: { 'mcp.invalid:80': { host: '127.0.0.1', port: mcpPort }, 'mcp.invalid:443': { host: '127.0.0.1', port: tls.port } }, auth: { user: 'bob', pass: PROXY_PASSWORD } });
    const project = makeToolSkillProject({ name: 'unused', url: fixture.url });
    cleanups.push(() => project.cleanup());
    const env = { OXO_FLOW_HOME: project.home, HTTP_PROXY: withCredentials(p, 'bob'), HTTPS_PROXY: withCredentials(p, 'bob'), NODE_EXTRA_CA_CERTS: tls.caFile };
    for (const url of ['http://mcp.invalid/mcp', 'https://mcp.invalid/mcp']) {
      const r = await runCliAsync(['--json', 'ai', 'tools', '--mcp', `viaproxy=${url}`], { cwd: project.dir, env });
      const doc = JSON.parse(r.stdout) as { tools: { name: string }[]; servers: { name?: string; ok: boolean }[] };
      expect(doc.tools.map((t) => t.name), url).toContain('mcp_viaproxy_lookup');
      expect(r.stdout + r.stderr).not.toContain(PROXY_PASSWORD);
    }
    const plain = p.seen.filter((s) => s.method !== 'CONNECT');
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((s) => s.target === 'http://mcp.invalid/mcp' && s.outcome === 'forwarded')).toBe(true);
    expect(p.seen.filter((s) => s.method === 'CONNECT').map((s) => s.target)).toContain('mcp.invalid:443');
  });
});
