// A small forward proxy on 127.0.0.1, as a corporate egress proxy behaves: absolute-URI requests
// (`GET http://host/path HTTP/1.1`) for plain HTTP and CONNECT tunnels for HTTPS, optional Basic
// proxy authentication (407 otherwise), and a route table that sends a made-up host name
// (`llm.invalid:443`) to a local server, so a client can be proven to have used the proxy: it could
// not have resolved that name itself. Everything it saw is recorded.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxySeen {
  /** `CONNECT` or the request's method. */
  method: string;
  /** `host:port` of a CONNECT, the absolute URI of any other request. */
  target: string;
  /** The Proxy-Authorization header as received (a test checks it, then makes sure it never shows). */
  proxyAuthorization?: string;
  /** What the proxy did: forwarded, refused with 407, or failed to reach the target. */
  outcome: 'forwarded' | 'auth-required' | 'unreachable';
}

export interface ForwardProxy {
  /** `http://127.0.0.1:port` (add credentials yourself: `http://user:pass@127.0.0.1:port`). */
  url: string;
  port: number;
  seen: ProxySeen[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** `host:port` as the client names it → where the proxy really connects (a local port). */
  routes?: Record<string, { host: string; port: number }>;
  /** Require `Proxy-Authorization: Basic base64(user:pass)`. */
  auth?: { user: string; pass: string };
}

export async function startForwardProxy(options: ProxyOptions = {}): Promise<ForwardProxy> {
  const seen: ProxySeen[] = [];
  const sockets = new Set<Socket>();
  const expected = options.auth ? `Basic ${Buffer.from(`${options.auth.user}:${options.auth.pass}`).toString('base64')}` : undefined;
  const route = (host: string, port: number) => options.routes?.[`${host}:${port}`] ?? { host, port };
  const record = (req: IncomingMessage, target: string): ProxySeen => {
    const entry: ProxySeen = { method: req.method ?? '', target, outcome: 'forwarded' };
    const auth = req.headers['proxy-authorization'];
    if (auth !== undefined) entry.proxyAuthorization = auth;
    seen.push(entry);
    return entry;
  };

  const server: Server = createServer((req, res) => {
    const target = req.url ?? '';
    const entry = record(req, target);
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
      entry.outcome = 'auth-required';
      req.resume();
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' }).end('proxy authentication required');
      return;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end('an absolute URI is required');
      return;
    }
    const to = route(url.hostname, Number(url.port) || 80);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: to.host, port: to.port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => {
      entry.outcome = 'unreachable';
      if (!res.headersSent) res.writeHead(502).end('bad gateway');
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const target = req.url ?? '';
    const entry = record(req, target);
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
      entry.outcome = 'auth-required';
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const colon = target.lastIndexOf(':');
    const to = route(target.slice(0, colon), Number(target.slice(colon + 1)));
    const upstream = connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {
      entry.outcome = 'unreachable';
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
