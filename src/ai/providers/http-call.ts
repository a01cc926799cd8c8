// One HTTP exchange with a provider: POST a JSON body, then either a JSON answer or an SSE stream
// whose events go to the caller as they arrive. HTTP errors and network failures become
// ProviderErrors with a class; every message is redacted of the secrets before it exists.
import {
  errorCode,
  HttpClient,
  mediaType,
  NET_CLOSED,
  NET_CONNECT_TIMEOUT,
  NET_FIRST_BYTE_TIMEOUT,
  NET_IDLE_TIMEOUT,
  NET_PROXY_INVALID,
  NET_PROXY_REFUSED,
  proxyStatus,
  readCapped,
  retryAfterMs,
  sendFollowingRedirects,
} from '../../net/http.js';
import { readSse, SseTooLarge, type SseEvent } from '../../net/sse.js';
import { maskUrl, redactSecrets, urlSecrets } from '../secrets.js';
import { ProviderError, classifyHttpError } from './errors.js';
import type { HttpSettings } from './types.js';

const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;

export interface WireCall {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  /** Values that must never appear in a message (the API key, header values). */
  secrets: readonly string[];
}

/** Raised when the overall deadline (totalTimeoutMs) passes. */
class DeadlinePassed extends Error {}

/**
 * An HTTP client for one provider endpoint: its own connection pool with the configured timeouts,
 * through the proxy the environment names (HTTPS_PROXY …; see src/net/http.ts).
 */
export class ProviderHttp {
  private client: HttpClient | undefined;
  constructor(
    private readonly settings: HttpSettings,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  private http(): HttpClient {
    return (this.client ??= new HttpClient(
      {
        connectTimeoutMs: this.settings.connectTimeoutMs,
        firstByteTimeoutMs: this.settings.firstByteTimeoutMs,
        idleTimeoutMs: this.settings.idleTimeoutMs,
      },
      this.env,
    ));
  }

  /** POST and read the answer, within the overall deadline (settings.totalTimeoutMs). */
  async post(call: WireCall, onEvent?: (event: SseEvent) => void): Promise<{ json?: unknown }> {
    const total = this.settings.totalTimeoutMs;
    if (!(total > 0)) return this.exchange(call, onEvent);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeadlinePassed()), total);
    const signal = call.signal ? AbortSignal.any([call.signal, deadline.signal]) : deadline.signal;
    try {
      return await this.exchange({ ...call, signal }, onEvent, () => deadline.signal.aborted && !call.signal?.aborted);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * POST and read the answer. An SSE answer is handed to onEvent event by event and `{}` is returned;
   * a JSON answer is returned parsed. onEvent may throw a ProviderError to stop.
   */
  private async exchange(call: WireCall, onEvent?: (event: SseEvent) => void, deadlinePassed = () => false): Promise<{ json?: unknown }> {
    const shown = maskUrl(call.url);
    // A proxy's password is as secret as the key.
    const proxySecrets = [this.http().proxy.httpProxy, this.http().proxy.httpsProxy].flatMap((p) => (p ? urlSecrets(p) : []));
    const clean = (text: string) => redactSecrets(text, [...call.secrets, ...proxySecrets]);
    try {
      const sent = await sendFollowingRedirects(new URL(call.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...call.headers },
        body: JSON.stringify(call.body),
        ...(call.signal ? { signal: call.signal } : {}),
        client: this.http(),
      });
      if ('crossOrigin' in sent) throw new ProviderError('request', `${shown} redirected to another origin (${maskUrl(sent.crossOrigin.origin)}); not followed, so the key does not reach it`);
      const res = sent.res;
      if (res.statusCode >= 300) {
        const body = await readCapped(res, MAX_ERROR_BYTES).catch(() => ({ text: '', over: false }));
        const { type, message } = errorOf(body.text);
        const errorClass = classifyHttpError(res.statusCode, type, message);
        const what = message !== '' ? `: ${preview(clean(message))}` : '';
        throw new ProviderError(errorClass, `${shown} answered HTTP ${res.statusCode}${what}`, res.statusCode, retryAfterMs(res.headers['retry-after']));
      }
      const type = mediaType(res.headers['content-type']);
      if (type === 'text/event-stream' && onEvent) {
        await readSse(res.body, { maxBytes: MAX_RESPONSE_BYTES, onEvent });
        return {};
      }
      const body = await readCapped(res, MAX_RESPONSE_BYTES);
      if (body.over) throw new ProviderError('malformed', `${shown} sent more than ${MAX_RESPONSE_BYTES} bytes`);
      try {
        return { json: JSON.parse(body.text) };
      } catch {
        throw new ProviderError('malformed', `${shown} sent a body that is not JSON (content type "${type || 'none'}"): ${preview(clean(body.text))}`);
      }
    } catch (err) {
      throw this.failure(err, call.url, call.signal, clean, deadlinePassed());
    }
  }

  private failure(err: unknown, url: string, signal: AbortSignal | undefined, clean: (t: string) => string, deadlinePassed: boolean): ProviderError {
    const shown = maskUrl(url);
    const s = (ms: number) => `${Math.round(ms / 100) / 10} s`;
    if (deadlinePassed) {
      return new ProviderError('timeout', `${shown} did not finish its answer within ${s(this.settings.totalTimeoutMs)} (the overall deadline, "timeouts.total_ms")`);
    }
    // Errors raised while reading a stream carry the server's words: masked here, once for all.
    if (err instanceof ProviderError) return new ProviderError(err.errorClass, clean(err.message), err.status, err.retryAfterMs);
    if (signal?.aborted) return new ProviderError('cancelled', 'the request was cancelled');
    if (err instanceof SseTooLarge) return new ProviderError('malformed', `${shown} sent ${err.message}`);
    const code = errorCode(err);
    // Through a proxy, a refused or unknown host may be the proxy's: say which one was tried.
    const proxy = this.client?.proxyFor(new URL(url));
    const via = proxy === undefined ? undefined : maskUrl(proxy);
    const through = via === undefined ? '' : ` (through the proxy ${via})`;
    if (code === NET_PROXY_INVALID) return new ProviderError('config', `cannot reach ${shown}: ${(err as Error).message}`);
    if (code === NET_PROXY_REFUSED) {
      const status = proxyStatus(err);
      return new ProviderError('network', `the proxy ${via ?? ''} refused the connection to ${shown} (HTTP ${status}${status === 407 ? ': proxy authentication required, check the user and password in HTTPS_PROXY' : ''})`);
    }
    if (code === NET_CONNECT_TIMEOUT) return new ProviderError('timeout', `cannot connect to ${shown}${through}: no connection within ${s(this.settings.connectTimeoutMs)}`);
    if (code === NET_FIRST_BYTE_TIMEOUT) return new ProviderError('timeout', `${shown} did not start answering within ${s(this.settings.firstByteTimeoutMs)}`);
    if (code === NET_IDLE_TIMEOUT) return new ProviderError('timeout', `${shown} stalled: nothing arrived for ${s(this.settings.idleTimeoutMs)} in the middle of the answer`);
    if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/.test(code)) return new ProviderError('network', `cannot connect to ${shown}${through}: ${code}`);
    const message = (err as Error)?.message ?? String(err);
    if (code === NET_CLOSED) {
      return new ProviderError('network', `${shown} closed the connection before the answer was complete`);
    }
    if (err instanceof SyntaxError || err instanceof TypeError) return new ProviderError('malformed', `${shown}: ${clean(message)}`);
    return new ProviderError('network', `cannot reach ${shown}${through}: ${clean(message)}`);
  }

  async close(): Promise<void> {
    await this.client?.close();
    this.client = undefined;
  }
}

/** The error type and message of an error body: OpenAI, Anthropic and Ollama shapes. */
function errorOf(text: string): { type: string; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { type: '', message: text.trim() };
  }
  const e = (value as { error?: unknown })?.error;
  if (typeof e === 'string') return { type: '', message: e };
  if (typeof e === 'object' && e !== null) {
    const o = e as { type?: unknown; code?: unknown; message?: unknown };
    const type = [o.type, o.code].filter((x) => typeof x === 'string').join(' ');
    return { type, message: typeof o.message === 'string' ? o.message : '' };
  }
  return { type: '', message: text.trim() };
}

/**
 * `{base}/{path}`, keeping the base URL's query string where it belongs, at the end
 * (`http://h/v1?api-version=1` → `http://h/v1/chat/completions?api-version=1`).
 */
export function endpointUrl(baseUrl: string, path: string): string {
  const q = baseUrl.search(/[?#]/);
  const [base, tail] = q < 0 ? [baseUrl, ''] : [baseUrl.slice(0, q), baseUrl.slice(q)];
  return `${base.replace(/\/+$/, '')}/${path}${tail}`;
}

export function preview(text: string, max = 300): string {
  const flat = Array.from(text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max).join('')}…` : flat.join('') || '(empty)';
}
