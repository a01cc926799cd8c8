// src/net/http.ts against real servers on 127.0.0.1: first-byte and idle timeouts, cancellation
// before and during the body, a connection closed mid-body, capped reads, same-origin redirects,
// connection reuse, and a refused port. Servers that stall never answer, so no assertion depends on timing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drain, errorCode, NET_CLOSED, NET_FIRST_BYTE_TIMEOUT, NET_IDLE_TIMEOUT, readCapped, sendFollowingRedirects, HttpClient } from '../../src/net/http.js';

const servers: Server[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
function client(t: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  const c = new HttpClient({ connectTimeoutMs: 5_000, ...t });
  clients.push(c);
  return c;
}
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as Error);

describe('HttpClient', () => {
  it('sends method, headers and body; reads status, headers and body', async () => {
    const { url } = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-key']) });
        res.end(JSON.stringify({ method: req.method, body, length: req.headers['content-length'] }));
      });
    });
    const res = await client().request(new URL(`${url}/v1/x?q=1`), { method: 'POST', headers: { 'x-key': 'k1' }, body: '{"é":1}' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-echo']).toBe('k1');
    expect(JSON.parse((await readCapped(res, 1024)).text)).toEqual({ method: 'POST', body: '{"é":1}', length: '8' });
  });

  it('reuses the connection for the next request once a body has been read', async () => {
    const ports = new Set<number>();
    const { url } = await serve((req, res) => {
      ports.add(req.socket.remotePort!);
      res.end('ok');
    });
    const c = client();
    for (let i = 0; i < 3; i++) await readCapped(await c.request(new URL(url), { method: 'GET', headers: {} }), 100);
    expect(ports.size).toBe(1);
  });

  it('no response headers within the first-byte timeout → NET_FIRST_BYTE_TIMEOUT', async () => {
    const { url } = await serve(() => undefined);
    const err = await failure(client({ firstByteTimeoutMs: 50 }).request(new URL(url), { method: 'GET', headers: {} }));
    expect(errorCode(err)).toBe(NET_FIRST_BYTE_TIMEOUT);
  });

  it('a body that stalls → NET_IDLE_TIMEOUT for its reader', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part');
    });
    const res = await client({ idleTimeoutMs: 50 }).request(new URL(url), { method: 'GET', headers: {} });
    const err = await failure(readCapped(res, 1024));
    expect(errorCode(err)).toBe(NET_IDLE_TIMEOUT);
  });

  it('a connection closed in the middle of the body → NET_CLOSED', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('half', () => res.socket?.destroy());
    });
    const res = await client().request(new URL(url), { method: 'GET', headers: {} });
    expect(errorCode(await failure(readCapped(res, 1024)))).toBe(NET_CLOSED);
  });

  it('an abort cancels a request waiting for headers, and a body being read, with the signal’s reason', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/body') {
        res.writeHead(200);
        res.write('part');
      }
    });
    const c = client();
    const waiting = new AbortController();
    const p = c.request(new URL(`${url}/headers`), { method: 'GET', headers: {}, signal: waiting.signal });
    setTimeout(() => waiting.abort(new Error('stop 1')), 20);
    expect((await failure(p))?.message).toBe('stop 1');

    const reading = new AbortController();
    const res = await c.request(new URL(`${url}/body`), { method: 'GET', headers: {}, signal: reading.signal });
    const read = readCapped(res, 1024);
    reading.abort(new Error('stop 2'));
    expect((await failure(read))?.message).toBe('stop 2');
  });

  it('readCapped stops at the cap and says so', async () => {
    const { url } = await serve((_req, res) => res.end('x'.repeat(10_000)));
    const read = await readCapped(await client().request(new URL(url), { method: 'GET', headers: {} }), 100);
    expect(read.over).toBe(true);
    expect(read.text.length).toBeLessThanOrEqual(100);
  });

  it('a refused port keeps Node’s code (ECONNREFUSED)', async () => {
    const { url, server } = await serve(() => undefined);
    await new Promise((r) => server.close(r));
    expect(errorCode(await failure(client().request(new URL(url), { method: 'GET', headers: {} })))).toBe('ECONNREFUSED');
  });

  it('an unsupported scheme is refused before anything is sent', async () => {
    expect(await failure(client().request(new URL('ftp://127.0.0.1/'), { method: 'GET', headers: {} }))).toBeInstanceOf(TypeError);
  });
});

describe('sendFollowingRedirects', () => {
  it('follows same-origin 307/308 keeping method and body, refuses another origin, and stops after MAX_REDIRECTS', async () => {
    const other = await serve((_req, res) => res.end('other'));
    const seen: string[] = [];
    const { url } = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${body}`);
        if (req.url === '/a') res.writeHead(307, { location: '/b' }).end();
        else if (req.url === '/b') res.writeHead(308, { location: `${url}/c` }).end();
        else if (req.url === '/away') res.writeHead(307, { location: `${other.url}/x` }).end();
        else if (req.url!.startsWith('/loop')) res.writeHead(307, { location: `/loop${seen.length}` }).end();
        else res.end('done');
      });
    });
    const c = client();
    const sent = await sendFollowingRedirects(new URL(`${url}/a`), { method: 'POST', headers: {}, body: 'B', client: c });
    expect('res' in sent && (await readCapped(sent.res, 100)).text).toBe('done');
    expect(seen).toEqual(['POST /a B', 'POST /b B', 'POST /c B']);

    const away = await sendFollowingRedirects(new URL(`${url}/away`), { method: 'POST', headers: {}, body: 'B', client: c });
    expect('crossOrigin' in away && away.crossOrigin.href).toBe(`${other.url}/x`);

    const loop = await sendFollowingRedirects(new URL(`${url}/loop`), { method: 'GET', headers: {}, client: c });
    expect('res' in loop && loop.res.statusCode).toBe(307);
    if ('res' in loop) await drain(loop.res);
  });
});
