// Streamable HTTP transport (MCP 2025-03-26 … 2025-11-25): one POST per message, replies as JSON
// or SSE, session id from a successful initialize only, DELETE on close. Knows HTTP, not MCP
// methods: ids and timeouts live in jsonrpc.ts, re-initialisation in client.ts.
import { delay, drain, errorCode, headerValue, HttpClient, mediaType, NET_CLOSED, NET_CONNECT_TIMEOUT, NET_PROXY_INVALID, NET_PROXY_REFUSED, proxyStatus, readCapped, type Response, sendFollowingRedirects } from '../../net/http.js';
import { readSse, SseTooLarge } from '../../net/sse.js';
import { McpFailure, displayUrl } from './failure.js';
import { isResponse, parseJsonRpcMessage, responseError, type JsonRpcMessage } from './messages.js';
import type { SendOptions, Transport } from './transport.js';
import { describeAuthChallenge, parseWwwAuthenticate } from './www-authenticate.js';

export interface StreamableHttpOptions {
  url: string;
  /** Extra headers (already expanded); values are never printed. */
  headers?: Record<string, string>;
  /** TCP/TLS connect timeout. */
  connectTimeoutMs?: number;
  /** Cap on the bytes read from one HTTP response. */
  maxResponseBytes?: number;
  /** OAuth (oauth.ts): the Authorization (and DPoP proof) of each request, and what to do after a 401. */
  auth?: TransportAuth;
}

export interface TransportAuth {
  /**
   * The headers that authenticate one request (`authorization`, and `dpop` with a proof for this
   * method and address when the token is DPoP-bound); none without a token.
   */
  headers(method: string, url: URL): Promise<Record<string, string>>;
  /**
   * After a 401: true when a new token (or the DPoP nonce the server sent with `use_dpop_nonce`)
   * was had without a person, so one retry can succeed.
   */
  unauthorized(wwwAuthenticate: string | undefined, dpopNonce?: string): Promise<boolean>;
  /**
   * After a 403 insufficient_scope: true when a token with the larger scope was had without a
   * person (client credentials); otherwise the scope is remembered for the next `ai login`.
   */
  insufficientScope?(wwwAuthenticate: string | undefined): Promise<boolean>;
  /** What to tell a person when it cannot (names `ai login`). */
  readonly hint: string;
  /** The same after a 403 for a larger scope. */
  scopeHint?(wwwAuthenticate: string | undefined): string | undefined;
  close?(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Resuming a broken SSE reply: at most this many GETs, waiting the server's retry (capped). */
const MAX_RESUMES = 2;
const DEFAULT_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10_000;
/** Tokens and DPoP proofs remembered for masking (proofs are one per request). */
const MAX_REMEMBERED_CREDENTIALS = 32;

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
  private readonly client: HttpClient;
  private readonly maxBytes: number;
  /** The proxy the requests go through, shown without credentials; undefined when direct. */
  private readonly via: string | undefined;
  private readonly auth: TransportAuth | undefined;

  constructor(options: StreamableHttpOptions) {
    this.url = new URL(options.url);
    this.shownUrl = displayUrl(this.url);
    this.extraHeaders = {};
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (!RESERVED_HEADERS.has(k.toLowerCase())) this.extraHeaders[k] = v;
    }
    this.maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.auth = options.auth;
    // Our own deadlines (jsonrpc.ts) bound each request; first-byte and idle timers would cut
    // long tool calls and SSE streams at arbitrary points, so they are off.
    this.client = new HttpClient({ connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
    const proxy = this.client.proxyFor(this.url);
    this.via = proxy === undefined ? undefined : displayUrl(proxy);
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  /** The GET stream, while it is open (aborted by close). */
  private listening: AbortController | undefined;

  listen(): void {
    if (this.listening !== undefined) return;
    const controller = new AbortController();
    this.listening = controller;
    void this.readGetStream(controller.signal).catch(() => undefined);
  }

  /**
   * Read the GET stream until the server ends it or we close. Its messages go to the protocol layer
   * like any other (server requests are answered there, at once). A server that offers no stream
   * (405, or anything but an event stream) leaves nothing to do; a stream that breaks is resumed
   * with Last-Event-ID a bounded number of times when its events carry ids.
   */
  private async readGetStream(signal: AbortSignal): Promise<void> {
    const state: SseState = { waiting: new Set() };
    for (let attempt = 0; attempt <= MAX_RESUMES && !signal.aborted; attempt++) {
      const headers: Record<string, string> = { ...this.headers('text/event-stream'), ...(await this.authHeaders('GET')) };
      if (state.lastEventId !== undefined) headers['last-event-id'] = state.lastEventId;
      let res: Response;
      try {
        res = await this.client.request(this.url, { method: 'GET', headers, signal });
      } catch {
        return;
      }
      if (res.statusCode !== 200 || mediaType(res.headers['content-type']) !== 'text/event-stream') {
        await drain(res).catch(() => undefined);
        return;
      }
      const before = state.lastEventId;
      try {
        await readSse(res.body, {
          maxBytes: this.maxBytes,
          onRetry: (ms) => {
            state.retryMs = ms;
          },
          onEvent: (event) => {
            if (event.id !== undefined) state.lastEventId = event.id;
            if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
            try {
              for (const m of decodePayload(this.scrub(event.data), this.shownUrl)) this.onmessage?.(m);
            } catch {
              // A malformed message on the optional stream is dropped; requests have their own replies.
            }
          },
          stop: () => signal.aborted,
        });
      } catch {
        // The stream broke: resume below if the server gave its events ids.
      }
      if (signal.aborted || state.lastEventId === undefined || state.lastEventId === before) return;
      await delay(Math.min(state.retryMs ?? DEFAULT_RETRY_MS, MAX_RETRY_MS), signal).catch(() => undefined);
    }
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  resetSession(): void {
    this.session = undefined;
  }

  /** OAuth headers for one request (a DPoP proof is for one method and address, so never reused). */
  private async authHeaders(method: string): Promise<Record<string, string>> {
    if (this.auth === undefined) return {};
    const h = await this.auth.headers(method, this.url).catch((): Record<string, string> => ({}));
    // The token and proof are ours to keep secret: a server that echoes them gets them masked.
    for (const v of Object.values(h)) for (const part of [v, v.replace(/^\S+\s+/, '')]) if (part.length >= 8) this.credentials.add(part);
    while (this.credentials.size > MAX_REMEMBERED_CREDENTIALS) this.credentials.delete(this.credentials.values().next().value!);
    return h;
  }

  /** Credentials (OAuth tokens, DPoP proofs) this transport sent, masked in whatever the server sends back. */
  private readonly credentials = new Set<string>();

  private scrub(text: string): string {
    let out = text;
    for (const c of this.credentials) if (out.includes(c)) out = out.split(c).join('***');
    return out;
  }

  private headers(accept: string): Record<string, string> {
    const h: Record<string, string> = { ...this.extraHeaders, accept };
    if (this.session !== undefined) h['mcp-session-id'] = this.session;
    if (this.protocolVersion !== undefined) h['mcp-protocol-version'] = this.protocolVersion;
    return h;
  }

  async send(message: JsonRpcMessage, options: SendOptions = {}, retried = false, nonceRetried = false): Promise<void> {
    const isInitialize = 'method' in message && message.method === 'initialize';
    const sentSession = this.session !== undefined;
    const body = JSON.stringify(message);
    const headers: Record<string, string> = { ...this.headers('application/json, text/event-stream'), ...(await this.authHeaders('POST')), 'content-type': 'application/json' };
    if (isInitialize) delete headers['mcp-session-id'];
    Object.assign(headers, routingHeaders(message));
    for (const [k, v] of Object.entries(options.headers ?? {})) if (!RESERVED_HEADERS.has(k.toLowerCase()) && k.toLowerCase() !== 'authorization' && k.toLowerCase() !== 'dpop') headers[k] = v;
    const res = await this.post(body, headers, options.signal);
    const status = res.statusCode;
    const contentType = mediaType(res.headers['content-type']);

    if (status >= 300 && status < 400) {
      await drain(res);
      throw new McpFailure('MCP011', `${this.shownUrl} redirected (HTTP ${status}); only same-origin 307/308 redirects are followed`);
    }
    if (status === 401 || status === 403) {
      await drain(res);
      const header = headerValue(res.headers['www-authenticate']);
      // OAuth: a refreshed (or client-credentials) token is worth exactly one more try.
      // A DPoP nonce demanded (RFC 9449 §9) is worth one more try of its own, even right after a new token.
      const nonce = status === 401 && parseWwwAuthenticate(header)?.params.error === 'use_dpop_nonce';
      if (status === 401 && this.auth !== undefined && (!retried || (nonce && !nonceRetried))) {
        let renewed: boolean;
        try {
          renewed = await this.auth.unauthorized(header, headerValue(res.headers['dpop-nonce']));
        } catch (err) {
          // A machine grant that was refused (or is misconfigured) says why: more use than the 401.
          if (err instanceof McpFailure && (err.code === 'MCP016' || err.code === 'MCP014')) throw err;
          renewed = false;
        }
        if (renewed) return this.send(message, options, true, nonceRetried || nonce);
      }
      // Step-up: the token is good but too narrow; one try with the larger scope, never a loop.
      const stepUp = status === 403 && this.auth?.insufficientScope !== undefined && parseWwwAuthenticate(header)?.params.error === 'insufficient_scope';
      if (stepUp && !retried && (await this.auth!.insufficientScope!(header).catch(() => false))) return this.send(message, options, true);
      const challenge = describeAuthChallenge(header === undefined ? undefined : this.scrub(header));
      throw new McpFailure(
        'MCP005',
        `${this.shownUrl} answered HTTP ${status}${status === 401 ? ' (authentication required)' : stepUp ? ' (the token lacks a scope this request needs)' : ' (forbidden)'}${challenge ? `: ${challenge}` : ''}`,
        status === 401 && this.auth !== undefined ? this.auth.hint : stepUp ? this.auth!.scopeHint?.(header) : undefined,
      );
    }
    if (status >= 400) {
      const text = this.scrub(await readText(res, 64 * 1024).catch(() => ''));
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
      const text = this.scrub(await readText(res, this.maxBytes, this.shownUrl));
      if (text.trim() === '') return;
      for (const m of decodePayload(text, this.shownUrl)) deliver(m);
      return;
    }
    const text = await readText(res, 64 * 1024).catch(() => '');
    if (text.trim() === '' && (options.awaitIds ?? []).length === 0) return;
    throw new McpFailure('MCP006', `${this.shownUrl} answered with content type "${contentType || 'none'}", expected application/json or text/event-stream`);
  }

  private async post(body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    let sent: Awaited<ReturnType<typeof sendFollowingRedirects>>;
    try {
      sent = await sendFollowingRedirects(this.url, { method: 'POST', body, headers, ...(signal ? { signal } : {}), client: this.client });
    } catch (err) {
      throw networkFailure(err, this.shownUrl, signal, this.via);
    }
    if ('crossOrigin' in sent) {
      throw new McpFailure('MCP011', `${this.shownUrl} redirected to another origin (${displayUrl(sent.crossOrigin.origin)}); not followed, so no header reaches it`);
    }
    return sent.res;
  }

  /**
   * Read an SSE reply. If it ends before our response but the server gave its events ids
   * (2025-11-25 polling, SEP-1699), wait the server's `retry` and resume with GET + Last-Event-ID,
   * a bounded number of times; otherwise return and let the protocol layer fail the request.
   */
  private async readSseWithResume(res: Response, deliver: (m: JsonRpcMessage) => void, options: SendOptions): Promise<void> {
    const stream: SseState = { waiting: new Set(options.awaitIds ?? []) };
    await this.readSse(res, deliver, options, stream);
    for (let attempt = 1; stream.waiting.size > 0 && stream.lastEventId !== undefined && attempt <= MAX_RESUMES; attempt++) {
      await delay(Math.min(stream.retryMs ?? DEFAULT_RETRY_MS, MAX_RETRY_MS), options.signal);
      const headers = { ...this.headers('text/event-stream'), ...(await this.authHeaders('GET')), 'last-event-id': stream.lastEventId };
      let get: Response;
      try {
        get = await this.client.request(this.url, { method: 'GET', headers, ...(options.signal ? { signal: options.signal } : {}) });
      } catch (err) {
        throw networkFailure(err, this.shownUrl, options.signal, this.via);
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

  private async readSse(res: Response, deliver: (m: JsonRpcMessage) => void, options: SendOptions, stream: SseState): Promise<void> {
    const waiting = stream.waiting;
    let failure: McpFailure | undefined;
    try {
      await readSse(res.body, {
        maxBytes: this.maxBytes,
        onRetry: (ms) => {
          stream.retryMs = ms;
        },
        onEvent: (event) => {
          if (event.id !== undefined) stream.lastEventId = event.id;
          // Priming events carry an id and no data; named events other than "message" are not MCP.
          if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
          try {
            for (const m of decodePayload(this.scrub(event.data), this.shownUrl)) {
              if (isResponse(m) && m.id !== null) waiting.delete(m.id);
              deliver(m);
            }
          } catch (err) {
            failure ??= err as McpFailure;
          }
        },
        // Stop as soon as everything we wait for has arrived: a server may keep the stream open.
        stop: () => failure !== undefined || (options.awaitIds !== undefined && waiting.size === 0),
      });
    } catch (err) {
      if (err instanceof SseTooLarge) throw new McpFailure('MCP012', `${this.shownUrl} sent ${err.message}`);
      throw networkFailure(err, this.shownUrl, options.signal, this.via);
    }
    if (failure !== undefined) throw failure;
  }

  async close(): Promise<void> {
    this.listening?.abort();
    if (this.session !== undefined) {
      const signal = AbortSignal.timeout(2_000);
      try {
        const res = await this.client.request(this.url, { method: 'DELETE', headers: { ...this.headers('application/json, text/event-stream'), ...(await this.authHeaders('DELETE')) }, signal });
        await drain(res);
      } catch {
        // Best effort: 405, a dead server or a timeout all leave nothing for us to do.
      }
      this.session = undefined;
    }
    await this.client.close();
    await this.auth?.close?.();
  }
}




/**
 * Mcp-Method on every request and notification, and Mcp-Name for the calls that name something
 * (2026-07-28, SEP-2243; older servers ignore them): proxies and gateways route on these without
 * reading the body. A value that is not plain visible ASCII goes base64-encoded.
 */
export function routingHeaders(message: JsonRpcMessage): Record<string, string> {
  if (!('method' in message) || typeof message.method !== 'string') return {};
  const out: Record<string, string> = { 'mcp-method': headerSafe(message.method) };
  const params = (message as { params?: Record<string, unknown> }).params;
  const name = message.method === 'resources/read' ? params?.uri : message.method === 'tools/call' || message.method === 'prompts/get' ? params?.name : undefined;
  if (typeof name === 'string') out['mcp-name'] = headerSafe(name);
  return out;
}

function headerSafe(value: string): string {
  return /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

async function readText(res: Response, limit: number, shownUrl?: string): Promise<string> {
  let read: { text: string; over: boolean };
  try {
    read = await readCapped(res, limit);
  } catch (err) {
    throw networkFailure(err, shownUrl ?? 'the server');
  }
  if (read.over && shownUrl !== undefined) throw new McpFailure('MCP012', `${shownUrl} sent more than ${limit} bytes in one response`);
  return read.text;
}

function isVisibleAscii(s: string): boolean {
  return /^[\x21-\x7e]+$/.test(s);
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

function networkFailure(err: unknown, shownUrl: string, signal?: AbortSignal, via?: string): Error {
  if (signal?.aborted && signal.reason instanceof Error) return signal.reason;
  if (err instanceof McpFailure) return err;
  const e = err as { message?: string };
  const code = errorCode(err);
  // Through a proxy, a refused or unknown host may be the proxy's: say which one was tried.
  const through = via === undefined ? '' : ` (through the proxy ${via})`;
  if (code === NET_PROXY_INVALID) return new McpFailure('MCP002', `cannot reach ${shownUrl}: ${e.message}`);
  if (code === NET_PROXY_REFUSED) {
    const status = proxyStatus(err);
    return new McpFailure('MCP002', `the proxy ${via ?? ''} refused the connection to ${shownUrl} (HTTP ${status}${status === 407 ? ': proxy authentication required' : ''})`);
  }
  if (code === NET_CONNECT_TIMEOUT) return new McpFailure('MCP002', `cannot connect to ${shownUrl}${through}: connection timed out`);
  if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/.test(code)) {
    return new McpFailure('MCP002', `cannot connect to ${shownUrl}${through}: ${code}`);
  }
  if (code === NET_CLOSED) {
    return new McpFailure('MCP008', `${shownUrl} closed the connection before the response was complete`);
  }
  return new McpFailure('MCP002', `cannot reach ${shownUrl}: ${e.message ?? String(err)}`);
}
