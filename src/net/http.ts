// HTTP for the AI layer's two clients (MCP servers and model providers), on Node's own http and
// https modules: connect, first-byte and idle timeouts, cancellation by an AbortSignal, same-origin
// redirects, capped body reads, and a delay that a signal cancels. Knows HTTP only: each caller
// turns failures into its own error codes.
//
// Why not undici (the spec's first choice): loading it, even trimmed to its Agent and request API,
// and compiling its WebAssembly parser on the first request cost more than the whole 80 ms that
// `--ai` may add to a command; node:http costs about a tenth of that (docs/benchmarks.md).
import type { IncomingHttpHeaders, IncomingMessage, ClientRequest, Agent as NodeAgent } from 'node:http';
// Both are stand-ins in the bundles that load the real module on first use (scripts/bundle.mjs):
// node:https (TLS, crypto) only for an https URL.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';

export interface Response {
  statusCode: number;
  /** Lower-case names; a repeated header is an array. */
  headers: IncomingHttpHeaders;
  /** The body as it arrives (Buffers). destroy() closes the connection. */
  body: IncomingMessage;
}

export interface AgentTimeouts {
  /** TCP (and TLS) connect timeout. */
  connectTimeoutMs: number;
  /** Time from the connection to the response headers (0: none). */
  firstByteTimeoutMs?: number;
  /** Longest silence between two body chunks (0: none), so a stalled stream fails instead of hanging. */
  idleTimeoutMs?: number;
}

/** `code` of the errors this module raises itself (others keep Node's: ECONNREFUSED, ENOTFOUND, …). */
export const NET_CONNECT_TIMEOUT = 'NET_CONNECT_TIMEOUT';
export const NET_FIRST_BYTE_TIMEOUT = 'NET_FIRST_BYTE_TIMEOUT';
export const NET_IDLE_TIMEOUT = 'NET_IDLE_TIMEOUT';
/** The other side closed or reset the connection before the response was complete. */
export const NET_CLOSED = 'NET_CLOSED';

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

/**
 * A connection pool per scheme (keep-alive: an MCP session sends many requests) with the given
 * timeouts. Idle pooled sockets do not keep the process alive.
 */
export class HttpClient {
  private plain: NodeAgent | undefined;
  private secure: NodeAgent | undefined;
  constructor(private readonly timeouts: AgentTimeouts) {}

  private agent(secure: boolean): NodeAgent {
    return secure ? (this.secure ??= new HttpsAgent({ keepAlive: true })) : (this.plain ??= new HttpAgent({ keepAlive: true }));
  }

  /** One request; resolves at the response headers. Never follows redirects (see sendFollowingRedirects). */
  request(url: URL, input: RequestInput): Promise<Response> {
    const { signal } = input;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return Promise.reject(new TypeError(`unsupported URL scheme "${url.protocol}" (http or https only)`));
    const { connectTimeoutMs, firstByteTimeoutMs = 0, idleTimeoutMs = 0 } = this.timeouts;
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      let res: IncomingMessage | undefined;
      let timer: NodeJS.Timeout | undefined;
      let req: ClientRequest | undefined;
      const stopTimer = () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
      };
      const fail = (err: Error) => {
        stopTimer();
        // After the headers, the body's reader sees the error; before them, the caller does.
        if (res !== undefined) res.destroy(err);
        req?.destroy(err);
        if (!settled) {
          settled = true;
          cleanUp();
          reject(err);
        }
      };
      const onAbort = () => fail(signal!.reason as Error);
      const cleanUp = () => {
        stopTimer();
        signal?.removeEventListener('abort', onAbort);
      };
      const headers: Record<string, string | number> = { ...input.headers };
      if (input.body !== undefined) headers['content-length'] = Buffer.byteLength(input.body);
      const send = secure ? httpsRequest : httpRequest;
      try {
        req = send(url, { method: input.method, headers, agent: this.agent(secure) });
      } catch (err) {
        // An invalid header value, for one: thrown before anything is sent.
        reject(err as Error);
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      const waitForHeaders = () => {
        stopTimer();
        if (firstByteTimeoutMs > 0 && res === undefined && !settled) {
          timer = setTimeout(() => fail(new NetError(NET_FIRST_BYTE_TIMEOUT, `no response within ${firstByteTimeoutMs} ms`)), firstByteTimeoutMs);
        }
      };
      req.on('socket', (socket: Socket) => {
        if (!socket.connecting) return waitForHeaders(); // a pooled connection
        timer = setTimeout(() => fail(new NetError(NET_CONNECT_TIMEOUT, `no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs);
        socket.once(secure ? 'secureConnect' : 'connect', waitForHeaders);
      });
      req.on('response', (r: IncomingMessage) => {
        stopTimer();
        res = r;
        const socket = r.socket;
        const onIdle = () => fail(new NetError(NET_IDLE_TIMEOUT, `nothing arrived for ${idleTimeoutMs} ms`));
        if (idleTimeoutMs > 0 && socket) {
          socket.setTimeout(idleTimeoutMs);
          socket.on('timeout', onIdle);
        }
        r.once('close', () => {
          cleanUp();
          if (idleTimeoutMs > 0 && socket) {
            socket.off('timeout', onIdle);
            socket.setTimeout(0);
          }
        });
        settled = true;
        resolve({ statusCode: r.statusCode ?? 0, headers: r.headers, body: r });
      });
      req.on('error', (err) => fail(err));
      req.end(input.body);
    });
  }

  /** Close every pooled connection (and any request still running). */
  async close(): Promise<void> {
    this.plain?.destroy();
    this.secure?.destroy();
    this.plain = this.secure = undefined;
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

/** Throw away what is left of a body: read to its end when short (the connection is reused), else close it. */
export async function drain(res: Response): Promise<void> {
  let total = 0;
  try {
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > DRAIN_LIMIT) break;
    }
  } catch {
    // nothing to keep
  } finally {
    res.body.destroy();
  }
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

/**
 * The low-level reason of a failed exchange: one of the NET_* codes above, or Node's (`ECONNREFUSED`,
 * `ENOTFOUND`, …), or ''. A connection reset or closed mid-exchange (`socket hang up`, `aborted`)
 * is NET_CLOSED.
 */
export function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  const code = e?.code ?? e?.cause?.code ?? '';
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' ? NET_CLOSED : code;
}
