// Reliability around any provider: retries with exponential backoff and jitter on 429, 5xx and
// network errors (honouring Retry-After), and one fallback provider once the primary has failed
// past its retries. A streamed answer that has already shown text is never retried (it would show twice).
import { delay } from '../../net/http.js';
import { ProviderError } from './errors.js';
import type { ChatProvider, ChatRequest, ChatResponse, HttpSettings } from './types.js';

export interface RetryEvents {
  /** Told before each wait, e.g. to print "retrying in 2 s". */
  onRetry?(info: { attempt: number; waitMs: number; error: ProviderError }): void;
  onFallback?(info: { from: string; to: string; error: ProviderError }): void;
}

export class RetryingChat implements ChatProvider {
  constructor(
    private readonly inner: ChatProvider,
    private readonly settings: Pick<HttpSettings, 'maxRetries' | 'retryBaseMs' | 'maxRetryWaitMs'>,
    private readonly events: RetryEvents = {},
    private readonly random: () => number = Math.random,
  ) {}
  get kind() {
    return this.inner.kind;
  }
  get model() {
    return this.inner.model;
  }
  get endpoint() {
    return this.inner.endpoint;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    for (let attempt = 0; ; attempt++) {
      let shown = false;
      const onText = request.onText && ((d: string) => ((shown = true), request.onText!(d)));
      try {
        return await this.inner.chat({ ...request, ...(onText ? { onText } : {}) });
      } catch (err) {
        const error = asProviderError(err, request.signal);
        if (!error.retriable || shown || attempt >= this.settings.maxRetries) throw error;
        const backoff = this.settings.retryBaseMs * 2 ** attempt;
        const jittered = backoff / 2 + this.random() * (backoff / 2);
        const waitMs = error.retryAfterMs !== undefined ? error.retryAfterMs : jittered;
        // A server that asks for a long pause gets its answer now, not a silent minute.
        if (waitMs > this.settings.maxRetryWaitMs) throw error;
        this.events.onRetry?.({ attempt: attempt + 1, waitMs, error });
        try {
          await delay(waitMs, request.signal);
        } catch {
          throw new ProviderError('cancelled', 'the request was cancelled');
        }
      }
    }
  }

  close(): Promise<void> {
    return (this.inner as { close?: () => Promise<void> }).close?.() ?? Promise.resolve();
  }
}

/** The primary, then (after a network error, 429 or 5xx past its retries) the fallback. */
export class FallbackChat implements ChatProvider {
  constructor(
    private readonly primary: ChatProvider,
    private readonly fallback: ChatProvider,
    private readonly events: RetryEvents = {},
  ) {}
  get kind() {
    return this.primary.kind;
  }
  get model() {
    return this.primary.model;
  }
  get endpoint() {
    return this.primary.endpoint;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    // What the primary had shown when it failed: the fallback's answer starts on a line of its own.
    let lineOpen = false;
    const onText = request.onText && ((d: string) => ((lineOpen = !d.endsWith('\n')), request.onText!(d)));
    try {
      return await this.primary.chat({ ...request, ...(onText ? { onText } : {}) });
    } catch (err) {
      const error = asProviderError(err, request.signal);
      if (!['network', 'timeout', 'rate_limit', 'server'].includes(error.errorClass)) throw error;
      if (lineOpen) request.onText?.('\n');
      this.events.onFallback?.({ from: `${this.primary.kind}/${this.primary.model}`, to: `${this.fallback.kind}/${this.fallback.model}`, error });
      return this.fallback.chat(request);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary, this.fallback].map((p) => (p as { close?: () => Promise<void> }).close?.()));
  }
}

export function asProviderError(err: unknown, signal?: AbortSignal): ProviderError {
  if (err instanceof ProviderError) return err;
  if (signal?.aborted) return new ProviderError('cancelled', 'the request was cancelled');
  return new ProviderError('network', (err as Error)?.message ?? String(err));
}
