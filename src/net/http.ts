// HTTP for the AI layer's two clients (MCP servers and model providers), on undici: one connection
// pool per client (keep-alive), the proxy from the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY and
// their lower-case forms, through undici's EnvHttpProxyAgent), connect, first-byte and idle timeouts,
// cancellation by an AbortSignal, same-origin redirects, capped body reads, and a delay that a signal
// cancels. Knows HTTP only: each caller turns failures into its own error codes.
//
// undici is loaded on the first request, never when this module is: the deterministic commands
// (validate, lint, dry-run without --ai) must not pay for it (in the bundles undici is a stand-in
// for its own bundle, loaded on first use: scripts/bundle.mjs; test/architecture checks what loads).
import type { IncomingHttpHeaders } from 'node:http';
// A stand-in in the bundles that loads the real module on first use (scripts/bundle.mjs).
import { setFlagsFromString } from 'node:v8';
import type { Readable } from 'node:stream';
// In the bundles a stand-in whose getters load undici's own bundle on first use (scripts/bundle.mjs).
import * as undici from 'undici';
import type { Dispatcher } from 'undici';

export interface Response {
  statusCode: number;
  /** Lower-case names; a repeated header is an array. */
  headers: IncomingHttpHeaders;
  /** The body as it arrives (Buffers). destroy() closes the connection. */
  body: Readable;
}

export interface AgentTimeouts {
  /** TCP (and TLS) connect timeout. */
  connectTimeoutMs: number;
  /** Time from sending the request to the response headers (0: none). */
  firstByteTimeoutMs?: number;
  /** Longest silence between two body chunks (0: none), so a stalled stream fails instead of hanging. */
  idleTimeoutMs?: number;
}

/** `code` of the failures this module names itself (others keep Node's: ECONNREFUSED, ENOTFOUND, …). */
export const NET_CONNECT_TIMEOUT = 'NET_CONNECT_TIMEOUT';
export const NET_FIRST_BYTE_TIMEOUT = 'NET_FIRST_BYTE_TIMEOUT';
export const NET_IDLE_TIMEOUT = 'NET_IDLE_TIMEOUT';
/** The other side closed or reset the connection before the response was complete. */
export const NET_CLOSED = 'NET_CLOSED';
/** The proxy refused the request (407 authentication required, 403, 502 …): see proxyStatus(). */
export const NET_PROXY_REFUSED = 'NET_PROXY_REFUSED';
/** HTTPS_PROXY / HTTP_PROXY is not a URL this client can use. */
export const NET_PROXY_INVALID = 'NET_PROXY_INVALID';

class NetError extends Error {
  override readonly name = 'NetError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RequestInput {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Hosts never sent through a proxy, whatever NO_PROXY says: a local model server or MCP server. */
const ALWAYS_DIRECT = ['localhost', '127.0.0.1', '[::1]'];

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  /** NO_PROXY as given, plus the local hosts (comma-separated, as undici reads it). */
  noProxy: string;
}

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/** The proxy settings of an environment: lower-case names win, as in curl and undici. */
export function proxySettings(env: Env): ProxySettings {
  const httpProxy = nonEmpty(env.http_proxy) ?? nonEmpty(env.HTTP_PROXY);
  // An https URL uses HTTPS_PROXY, else HTTP_PROXY (curl does the same).
  const httpsProxy = nonEmpty(env.https_proxy) ?? nonEmpty(env.HTTPS_PROXY) ?? httpProxy;
  const given = nonEmpty(env.no_proxy) ?? nonEmpty(env.NO_PROXY);
  // `*` (no proxy at all) counts only alone, in undici as in curl.
  const noProxy = given === '*' ? '*' : [given, ...ALWAYS_DIRECT].filter(Boolean).join(',');
  return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), noProxy };
}

/** Does NO_PROXY (plus the local hosts) exempt this URL? The rule undici applies: a name, its subdomains, an optional port, or `*`. */
function bypassed(url: URL, noProxy: string): boolean {
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : 80);
  for (const raw of noProxy.split(/[,\s]/)) {
    if (raw === '') continue;
    if (raw === '*') return true;
    const m = /^(.+):(\d+)$/.exec(raw);
    const name = (m ? m[1]! : raw).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy a request to `url` goes through (as configured, with credentials), or undefined for a direct connection. */
export function proxyFor(url: URL, settings: ProxySettings): string | undefined {
  const proxy = url.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  return proxy === undefined || bypassed(url, settings.noProxy) ? undefined : proxy;
}

let tieringOff = false;

/** undici, the first time a client is made. */
function loadUndici(): typeof undici {
  // undici parses HTTP with a WebAssembly build of llhttp, compiled on the first connection. V8 would
  // recompile its hot functions in background threads, and a short-lived CLI then waits at exit for
  // those jobs. The baseline compiler is fast enough for our small answers.
  if (!tieringOff) {
    setFlagsFromString('--liftoff-only');
    tieringOff = true;
  }
  return undici;
}

/**
 * A connection pool (keep-alive: an MCP session sends many requests) with the given timeouts and the
 * environment's proxy. Idle pooled sockets do not keep the process alive.
 */
export class HttpClient {
  private dispatcher: Dispatcher | undefined;
  readonly proxy: ProxySettings;
  constructor(
    private readonly timeouts: AgentTimeouts,
    /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: this process's environment). */
    env: Env = process.env,
  ) {
    this.proxy = proxySettings(env);
  }

  private agent(): Dispatcher {
    if (this.dispatcher !== undefined) return this.dispatcher;
    for (const [name, value] of [['HTTP_PROXY', this.proxy.httpProxy], ['HTTPS_PROXY', this.proxy.httpsProxy]] as const) {
      if (value !== undefined && !/^https?:\/\/[^/?#]+/i.test(value)) {
        throw new NetError(NET_PROXY_INVALID, `${name} is not an http:// or https:// proxy URL (the value is not shown: it may hold a password)`);
      }
    }
    const u = loadUndici();
    const { connectTimeoutMs, firstByteTimeoutMs = 0, idleTimeoutMs = 0 } = this.timeouts;
    const timeouts = { headersTimeout: firstByteTimeoutMs, bodyTimeout: idleTimeoutMs };
    this.dispatcher = new u.EnvHttpProxyAgent({
      ...(this.proxy.httpProxy ? { httpProxy: this.proxy.httpProxy } : {}),
      ...(this.proxy.httpsProxy ? { httpsProxy: this.proxy.httpsProxy } : {}),
      noProxy: this.proxy.noProxy,
      // Plain http:// targets go to an HTTP proxy as absolute-URI requests (as curl sends them);
      // https:// targets always through a CONNECT tunnel.
      proxyTunnel: false,
      connect: { timeout: connectTimeoutMs },
      ...timeouts,
      keepAliveTimeout: 4_000,
      // Every pool (direct, or the one to the proxy) gets the same timeouts.
      factory: (origin: string | URL, options: object) => new u.Pool(origin, { ...options, ...timeouts }),
    } as ConstructorParameters<typeof undici.EnvHttpProxyAgent>[0]);
    return this.dispatcher;
  }

  /** One request; resolves at the response headers. Never follows redirects (see sendFollowingRedirects). */
  async request(url: URL, input: RequestInput): Promise<Response> {
    const { signal } = input;
    if (signal?.aborted) throw signal.reason as Error;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`unsupported URL scheme "${url.protocol}" (http or https only)`);
    const dispatcher = this.agent();
    try {
      // The dispatcher's own request method: the bundle carries only what this needs (scripts/bundle.mjs).
      const res = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: input.method,
        headers: input.headers,
        body: input.body ?? null,
        ...(signal ? { signal } : {}),
      });
      return { statusCode: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.body as unknown as Readable };
    } catch (err) {
      if (signal?.aborted) throw signal.reason as Error;
      throw err;
    }
  }

  /** The proxy a request to this URL goes through, as configured (mask it before showing it); undefined when direct. */
  proxyFor(url: URL): string | undefined {
    return proxyFor(url, this.proxy);
  }

  /** Close every pooled connection (and any request still running). */
  async close(): Promise<void> {
    const open = this.dispatcher;
    this.dispatcher = undefined;
    await open?.destroy();
  }
}

export interface SendInput extends RequestInput {
  client: HttpClient;
}

const MAX_REDIRECTS = 3;

/**
 * Send, following up to MAX_REDIRECTS same-origin 307/308 redirects (which keep method and body).
 * A redirect to another origin is not followed (headers may carry credentials): the answer says where.
 */
export async function sendFollowingRedirects(url: URL, input: SendInput): Promise<{ res: Response } | { crossOrigin: URL }> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const res = await input.client.request(target, input);
    const location = headerValue(res.headers.location);
    if ((res.statusCode === 307 || res.statusCode === 308) && location !== undefined && hop < MAX_REDIRECTS) {
      const next = new URL(location, target);
      await drain(res);
      if (next.origin !== url.origin) return { crossOrigin: next };
      target = next;
      continue;
    }
    return { res };
  }
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** `text/event-stream; charset=utf-8` → `text/event-stream`. */
export function mediaType(v: string | string[] | undefined): string {
  return (headerValue(v) ?? '').split(';')[0]!.trim().toLowerCase();
}

const DRAIN_LIMIT = 64 * 1024;

/**
 * undici hands a connection back to its pool a turn of the event loop after the body's end; a request
 * sent at once would open a second connection. Waiting that turn after a complete read keeps one.
 */
const connectionFreed = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Throw away what is left of a body: read to its end when short (the connection is reused), else close it. */
export async function drain(res: Response): Promise<void> {
  let total = 0;
  let whole = false;
  try {
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > DRAIN_LIMIT) break;
    }
    whole = total <= DRAIN_LIMIT;
  } catch {
    // nothing to keep
  } finally {
    res.body.destroy();
  }
  if (whole) await connectionFreed();
}

/** A body read up to `limit` bytes; `over` says the body was longer (the rest is discarded). */
export async function readCapped(res: Response, limit: number): Promise<{ text: string; over: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let over = false;
  try {
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > limit) {
        over = true;
        break;
      }
      chunks.push(chunk as Buffer);
    }
  } finally {
    res.body.destroy();
  }
  if (!over) await connectionFreed();
  return { text: Buffer.concat(chunks).toString('utf8'), over };
}

/** Wait `ms`, or reject with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Seconds or an HTTP date, as in `Retry-After`; undefined when absent or unreadable. */
export function retryAfterMs(v: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = headerValue(v)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const PROXY_STATUS = /^Proxy (?:response \((\d+)\)|Authentication Required \((407)\))/;

/** The HTTP status with which a proxy refused a request (407, 403 …), when that is what failed. */
export function proxyStatus(err: unknown): number | undefined {
  const m = PROXY_STATUS.exec((err as Error)?.message ?? '');
  return m ? Number(m[1] ?? m[2]) : undefined;
}

/**
 * The low-level reason of a failed exchange: one of the NET_* codes above, or Node's (`ECONNREFUSED`,
 * `ENOTFOUND`, …), or ''. undici's own codes are translated; a connection reset or closed
 * mid-exchange is NET_CLOSED.
 */
export function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  if (proxyStatus(err) !== undefined) return NET_PROXY_REFUSED;
  // undici wraps the socket's error (ECONNREFUSED …) as the cause of its own.
  const own = e?.code ?? '';
  const code = own === '' || own === 'UND_ERR_SOCKET' || own === 'UND_ERR_CONNECT' ? (e?.cause?.code ?? own) : own;
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return NET_CONNECT_TIMEOUT;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return NET_FIRST_BYTE_TIMEOUT;
    case 'UND_ERR_BODY_TIMEOUT':
      return NET_IDLE_TIMEOUT;
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return NET_CLOSED;
    default:
      return code;
  }
}
