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
  readCapped,
  retryAfterMs,
  sendFollowingRedirects,
} from '../../net/http.js';
import { readSse, SseTooLarge, type SseEvent } from '../../net/sse.js';
import { maskUrl, redactSecrets } from '../secrets.js';
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

/** An HTTP client for one provider endpoint: its own connection pool with the configured timeouts. */
export class ProviderHttp {
  private client: HttpClient | undefined;
  constructor(private readonly settings: HttpSettings) {}

  private http(): HttpClient {
    return (this.client ??= new HttpClient({
      connectTimeoutMs: this.settings.connectTimeoutMs,
      firstByteTimeoutMs: this.settings.firstByteTimeoutMs,
      idleTimeoutMs: this.settings.idleTimeoutMs,
    }));
  }

  /**
   * POST and read the answer. An SSE answer is handed to onEvent event by event and `{}` is returned;
   * a JSON answer is returned parsed. onEvent may throw a ProviderError to stop.
   */
  async post(call: WireCall, onEvent?: (event: SseEvent) => void): Promise<{ json?: unknown }> {
    const shown = maskUrl(call.url);
    const clean = (text: string) => redactSecrets(text, call.secrets);
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
      throw this.failure(err, shown, call.signal, clean);
    }
  }

  private failure(err: unknown, shown: string, signal: AbortSignal | undefined, clean: (t: string) => string): ProviderError {
    // Errors raised while reading a stream carry the server's words: masked here, once for all.
    if (err instanceof ProviderError) return new ProviderError(err.errorClass, clean(err.message), err.status, err.retryAfterMs);
    if (signal?.aborted) return new ProviderError('cancelled', 'the request was cancelled');
    if (err instanceof SseTooLarge) return new ProviderError('malformed', `${shown} sent ${err.message}`);
    const code = errorCode(err);
    const s = (ms: number) => `${Math.round(ms / 100) / 10} s`;
    if (code === NET_CONNECT_TIMEOUT) return new ProviderError('timeout', `cannot connect to ${shown}: no connection within ${s(this.settings.connectTimeoutMs)}`);
    if (code === NET_FIRST_BYTE_TIMEOUT) return new ProviderError('timeout', `${shown} did not start answering within ${s(this.settings.firstByteTimeoutMs)}`);
    if (code === NET_IDLE_TIMEOUT) return new ProviderError('timeout', `${shown} stalled: nothing arrived for ${s(this.settings.idleTimeoutMs)} in the middle of the answer`);
    if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/.test(code)) return new ProviderError('network', `cannot connect to ${shown}: ${code}`);
    const message = (err as Error)?.message ?? String(err);
    if (code === NET_CLOSED) {
      return new ProviderError('network', `${shown} closed the connection before the answer was complete`);
    }
    if (err instanceof SyntaxError || err instanceof TypeError) return new ProviderError('malformed', `${shown}: ${clean(message)}`);
    return new ProviderError('network', `cannot reach ${shown}: ${clean(message)}`);
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

export function preview(text: string, max = 300): string {
  const flat = Array.from(text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max).join('')}…` : flat.join('') || '(empty)';
}
