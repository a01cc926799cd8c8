// HTTP for the AI layer's two clients (MCP servers and model providers): an undici Agent with
// connect, first-byte and idle timeouts, same-origin redirects, capped body reads, and a delay that
// a signal cancels. Knows HTTP only: each caller turns failures into its own error codes.
import { setFlagsFromString } from 'node:v8';
import { Agent, request, type Dispatcher } from 'undici';

export type Response = Dispatcher.ResponseData;

export interface AgentTimeouts {
  /** TCP/TLS connect timeout. */
  connectTimeoutMs: number;
  /** Time from sending the request to the response headers (0: none). */
  firstByteTimeoutMs?: number;
  /** Longest silence between two body chunks (0: none), so a stalled stream fails instead of hanging. */
  idleTimeoutMs?: number;
}

let wasmTieringOff = false;

export function createAgent(t: AgentTimeouts): Agent {
  // undici parses HTTP with a WebAssembly build of llhttp. V8 would recompile its hot functions in
  // background threads, and a short-lived CLI then waits about a second at exit for those jobs
  // (measured: bench/ai-overhead.mjs). The baseline compiler is fast enough for our small answers.
  if (!wasmTieringOff) {
    setFlagsFromString('--liftoff-only');
    wasmTieringOff = true;
  }
  return new Agent({
    connect: { timeout: t.connectTimeoutMs },
    headersTimeout: t.firstByteTimeoutMs ?? 0,
    bodyTimeout: t.idleTimeoutMs ?? 0,
    keepAliveTimeout: 1_000,
  });
}

export interface SendInput {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  dispatcher: Dispatcher;
}

export const MAX_REDIRECTS = 3;

/**
 * Send, following up to MAX_REDIRECTS same-origin 307/308 redirects (which keep method and body).
 * A redirect to another origin is not followed (headers may carry credentials): the answer says where.
 */
export async function sendFollowingRedirects(url: URL, input: SendInput): Promise<{ res: Response } | { crossOrigin: URL }> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const res = await request(target, { method: input.method, headers: input.headers, body: input.body ?? null, signal: input.signal, dispatcher: input.dispatcher });
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

/** Throw away what is left of a body (bounded), so the connection can be reused. */
export async function drain(res: Response): Promise<void> {
  try {
    await res.body.dump({ limit: 64 * 1024 });
  } catch {
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

/** The low-level reason of a failed exchange (`ECONNREFUSED`, `UND_ERR_BODY_TIMEOUT`, …), or ''. */
export function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code ?? e?.cause?.code ?? '';
}
