// Streamable HTTP transport (MCP 2025-03-26 … 2025-11-25): one POST per message, replies as JSON
// or SSE, session id from a successful initialize only, DELETE on close. Knows HTTP, not MCP
// methods: ids and timeouts live in jsonrpc.ts, re-initialisation in client.ts.
import { Agent, request, type Dispatcher } from 'undici';
import { createParser } from 'eventsource-parser';
import { McpFailure, displayUrl } from './failure.js';
import { isResponse, parseJsonRpcMessage, responseError, type JsonRpcMessage } from './messages.js';
import type { SendOptions, Transport } from './transport.js';
import { describeAuthChallenge } from './www-authenticate.js';

export interface StreamableHttpOptions {
  url: string;
  /** Extra headers (already expanded); values are never printed. */
  headers?: Record<string, string>;
  /** TCP/TLS connect timeout. */
  connectTimeoutMs?: number;
  /** Cap on the bytes read from one HTTP response. */
  maxResponseBytes?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** Resuming a broken SSE reply: at most this many GETs, waiting the server's retry (capped). */
const MAX_RESUMES = 2;
const DEFAULT_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10_000;

interface SseState {
  /** Request ids still unanswered. */
  waiting: Set<string | number>;
  lastEventId?: string;
  retryMs?: number;
}

/** Headers the transport owns; a skill cannot override them. */
const RESERVED_HEADERS = new Set(['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'host', 'content-length']);

export class StreamableHttpTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  private session: string | undefined;
  private protocolVersion: string | undefined;
  private readonly url: URL;
  private readonly shownUrl: string;
  private readonly extraHeaders: Record<string, string>;
  private readonly dispatcher: Agent;
  private readonly maxBytes: number;

  constructor(options: StreamableHttpOptions) {
    this.url = new URL(options.url);
    this.shownUrl = displayUrl(this.url);
    this.extraHeaders = {};
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (!RESERVED_HEADERS.has(k.toLowerCase())) this.extraHeaders[k] = v;
    }
    this.maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    // Our own deadlines (jsonrpc.ts) bound each request; undici's header/body timers would cut
    // long tool calls and SSE streams at arbitrary points, so they are off.
    this.dispatcher = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS },
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: 1_000,
    });
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  resetSession(): void {
    this.session = undefined;
  }

  private headers(accept: string): Record<string, string> {
    const h: Record<string, string> = { ...this.extraHeaders, accept };
    if (this.session !== undefined) h['mcp-session-id'] = this.session;
    if (this.protocolVersion !== undefined) h['mcp-protocol-version'] = this.protocolVersion;
    return h;
  }

  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    const isInitialize = 'method' in message && message.method === 'initialize';
    const sentSession = this.session !== undefined;
    const body = JSON.stringify(message);
    const headers: Record<string, string> = { ...this.headers('application/json, text/event-stream'), 'content-type': 'application/json' };
    if (isInitialize) delete headers['mcp-session-id'];
    const res = await this.post(body, headers, options.signal);
    const status = res.statusCode;
    const contentType = mediaType(res.headers['content-type']);

    if (status >= 300 && status < 400) {
      await drain(res);
      throw new McpFailure('MCP011', `${this.shownUrl} redirected (HTTP ${status}); only same-origin 307/308 redirects are followed`);
    }
    if (status === 401 || status === 403) {
      await drain(res);
      const challenge = describeAuthChallenge(headerValue(res.headers['www-authenticate']));
      throw new McpFailure('MCP005', `${this.shownUrl} answered HTTP ${status}${status === 401 ? ' (authentication required)' : ' (forbidden)'}${challenge ? `: ${challenge}` : ''}`);
    }
    if (status >= 400) {
      const text = await readText(res, 64 * 1024).catch(() => '');
      const rpc = safeJson(text);
      const rpcMessage = rpc !== undefined ? parseJsonRpcMessage(rpc) : undefined;
      const rpcError = rpcMessage && isResponse(rpcMessage) ? responseError(rpcMessage) : undefined;
      const errorText = rpcError?.message;
      if (sentSession && !isInitialize && (status === 404 || (status === 400 && /session/i.test(errorText ?? text)))) {
        throw new McpFailure('MCP010', `${this.shownUrl}: the session is no longer known to the server (HTTP ${status})`);
      }
      // A JSON-RPC error about our own request is the server's answer, not a transport failure.
      if (rpcError !== undefined && rpcMessage && isResponse(rpcMessage) && rpcMessage.id !== null && options.awaitIds?.includes(rpcMessage.id)) {
        this.onmessage?.(rpcMessage);
        return;
      }
      throw new McpFailure('MCP004', `${this.shownUrl} answered HTTP ${status}${describeBody(errorText, text)}`);
    }
    // A notification or a response we sent needs only acceptance: 202 is the rule, but 200/204 with
    // or without a body are seen in the wild and mean the same.
    if (status === 202 || status === 204 || (options.awaitIds ?? []).length === 0) {
      await drain(res);
      return;
    }
    const capture = isInitialize ? headerValue(res.headers['mcp-session-id']) : undefined;
    const deliver = (m: JsonRpcMessage) => {
      // The session id counts only when the initialize itself succeeded (never from an error).
      if (capture !== undefined && isResponse(m) && 'result' in m && isVisibleAscii(capture)) this.session = capture;
      this.onmessage?.(m);
    };
    if (contentType === 'text/event-stream') {
      await this.readSseWithResume(res, deliver, options);
      return;
    }
    if (contentType === 'application/json') {
      const text = await readText(res, this.maxBytes, this.shownUrl);
      if (text.trim() === '') return;
      for (const m of decodePayload(text, this.shownUrl)) deliver(m);
      return;
    }
    const text = await readText(res, 64 * 1024).catch(() => '');
    if (text.trim() === '' && (options.awaitIds ?? []).length === 0) return;
    throw new McpFailure('MCP006', `${this.shownUrl} answered with content type "${contentType || 'none'}", expected application/json or text/event-stream`);
  }

  private async post(body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Dispatcher.ResponseData> {
    let target = this.url;
    for (let hop = 0; ; hop++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(target, { method: 'POST', body, headers, signal, dispatcher: this.dispatcher });
      } catch (err) {
        throw networkFailure(err, this.shownUrl, signal);
      }
      const location = headerValue(res.headers.location);
      if ((res.statusCode === 307 || res.statusCode === 308) && location !== undefined && hop < MAX_REDIRECTS) {
        const next = new URL(location, target);
        if (next.origin !== this.url.origin) {
          await drain(res);
          throw new McpFailure('MCP011', `${this.shownUrl} redirected to another origin (${displayUrl(next.origin)}); not followed, so no header reaches it`);
        }
        await drain(res);
        target = next;
        continue;
      }
      return res;
    }
  }

  /**
   * Read an SSE reply. If it ends before our response but the server gave its events ids
   * (2025-11-25 polling, SEP-1699), wait the server's `retry` and resume with GET + Last-Event-ID,
   * a bounded number of times; otherwise return and let the protocol layer fail the request.
   */
  private async readSseWithResume(res: Dispatcher.ResponseData, deliver: (m: JsonRpcMessage) => void, options: SendOptions): Promise<void> {
    const stream: SseState = { waiting: new Set(options.awaitIds ?? []) };
    await this.readSse(res, deliver, options, stream);
    for (let attempt = 1; stream.waiting.size > 0 && stream.lastEventId !== undefined && attempt <= MAX_RESUMES; attempt++) {
      await delay(Math.min(stream.retryMs ?? DEFAULT_RETRY_MS, MAX_RETRY_MS), options.signal);
      const headers = { ...this.headers('text/event-stream'), 'last-event-id': stream.lastEventId };
      let get: Dispatcher.ResponseData;
      try {
        get = await request(this.url, { method: 'GET', headers, signal: options.signal, dispatcher: this.dispatcher });
      } catch (err) {
        throw networkFailure(err, this.shownUrl, options.signal);
      }
      if (get.statusCode !== 200 || mediaType(get.headers['content-type']) !== 'text/event-stream') {
        await drain(get);
        return;
      }
      const before = stream.lastEventId;
      await this.readSse(get, deliver, options, stream);
      if (stream.lastEventId === before && stream.waiting.size > 0) return;
    }
  }

  private async readSse(res: Dispatcher.ResponseData, deliver: (m: JsonRpcMessage) => void, options: SendOptions, stream: SseState): Promise<void> {
    const waiting = stream.waiting;
    let failure: McpFailure | undefined;
    const parser = createParser({
      maxBufferSize: this.maxBytes,
      onRetry: (ms) => {
        stream.retryMs = ms;
      },
      onEvent: (event) => {
        if (event.id !== undefined) stream.lastEventId = event.id;
        // Priming events carry an id and no data; named events other than "message" are not MCP.
        if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
        try {
          for (const m of decodePayload(event.data, this.shownUrl)) {
            if (isResponse(m) && m.id !== null) waiting.delete(m.id);
            deliver(m);
          }
        } catch (err) {
          failure ??= err as McpFailure;
        }
      },
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') failure ??= new McpFailure('MCP012', `${this.shownUrl} sent an SSE event larger than ${this.maxBytes} bytes`);
      },
    });
    const decoder = new TextDecoder();
    let total = 0;
    try {
      for await (const chunk of res.body) {
        total += (chunk as Buffer).length;
        if (total > this.maxBytes) failure ??= new McpFailure('MCP012', `${this.shownUrl} sent more than ${this.maxBytes} bytes in one response`);
        if (failure === undefined) parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        // Stop as soon as everything we wait for has arrived: a server may keep the stream open.
        if (failure !== undefined || (options.awaitIds !== undefined && waiting.size === 0)) break;
      }
      if (failure === undefined) parser.feed(decoder.decode());
    } catch (err) {
      throw networkFailure(err, this.shownUrl, options.signal);
    } finally {
      res.body.destroy();
    }
    if (failure !== undefined) throw failure;
  }

  async close(): Promise<void> {
    if (this.session !== undefined) {
      const signal = AbortSignal.timeout(2_000);
      try {
        const res = await request(this.url, { method: 'DELETE', headers: this.headers('application/json, text/event-stream'), signal, dispatcher: this.dispatcher });
        await drain(res);
      } catch {
        // Best effort: 405, a dead server or a timeout all leave nothing for us to do.
      }
      this.session = undefined;
    }
    await this.dispatcher.destroy().catch(() => undefined);
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
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

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function mediaType(v: string | string[] | undefined): string {
  return (headerValue(v) ?? '').split(';')[0]!.trim().toLowerCase();
}

function isVisibleAscii(s: string): boolean {
  return /^[\x21-\x7e]+$/.test(s);
}

async function drain(res: Dispatcher.ResponseData): Promise<void> {
  try {
    await res.body.dump({ limit: 64 * 1024 });
  } catch {
    res.body.destroy();
  }
}

async function readText(res: Dispatcher.ResponseData, limit: number, shownUrl?: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > limit) {
        if (shownUrl === undefined) break;
        throw new McpFailure('MCP012', `${shownUrl} sent more than ${limit} bytes in one response`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof McpFailure) throw err;
    throw networkFailure(err, shownUrl ?? 'the server');
  } finally {
    res.body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One JSON-RPC message, or (2025-03-26 batches) an array of them. */
function decodePayload(text: string, shownUrl: string): JsonRpcMessage[] {
  const value = safeJson(text);
  if (value === undefined) throw new McpFailure('MCP007', `${shownUrl} sent a body that is not JSON: ${preview(text)}`);
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    const m = parseJsonRpcMessage(item);
    if (m === undefined) throw new McpFailure('MCP007', `${shownUrl} sent JSON that is not a JSON-RPC 2.0 message: ${preview(JSON.stringify(item))}`);
    return m;
  });
}

function preview(text: string): string {
  // Code points, not bytes, so a multi-byte character is never cut in half.
  const clean = Array.from(text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim());
  return clean.length > 120 ? `${clean.slice(0, 120).join('')}…` : clean.join('') || '(empty)';
}

function describeBody(errorText: string | undefined, text: string): string {
  if (errorText !== undefined) return `: ${preview(errorText)}`;
  return text.trim() === '' ? '' : `: ${preview(text)}`;
}

function networkFailure(err: unknown, shownUrl: string, signal?: AbortSignal): Error {
  if (signal?.aborted && signal.reason instanceof Error) return signal.reason;
  if (err instanceof McpFailure) return err;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new McpFailure('MCP002', `cannot connect to ${shownUrl}: connection timed out`);
  if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNRESET)$/.test(code) && !('statusCode' in (e as object))) {
    return new McpFailure('MCP002', `cannot connect to ${shownUrl}: ${code}`);
  }
  if (code === 'UND_ERR_SOCKET' || /terminated|other side closed/i.test(e.message ?? '')) {
    return new McpFailure('MCP008', `${shownUrl} closed the connection before the response was complete`);
  }
  return new McpFailure('MCP002', `cannot reach ${shownUrl}: ${e.message ?? String(err)}`);
}
