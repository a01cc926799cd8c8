// `ai status --check`: one small request to the configured provider (no retries, no fallback),
// and in plain words what is wrong when it does not answer.
import { createChatProvider } from './create.js';
import { ProviderError, type ProviderErrorClass } from './errors.js';
import type { ResolvedProvider } from './resolve.js';
import type { HttpSettings } from './types.js';

export type ProviderCheck =
  | { ok: true; model: string; ms: number; usage: { input_tokens: number; output_tokens: number } }
  | { ok: false; error: ProviderError; diagnosis: string; ms: number };

const DIAGNOSIS: Record<ProviderErrorClass, string> = {
  auth: 'the API key was refused (bad or expired key, or a key for another provider)',
  rate_limit: 'the provider answered but is rate limiting this key right now',
  context_overflow: 'the provider answered but rejected even a tiny request as too long',
  output_limit: 'the provider answered but stopped at its output limit',
  network: 'the endpoint cannot be reached (wrong base URL, server not running, or no network)',
  timeout: 'the endpoint did not answer in time (wrong base URL, a firewall, or an overloaded server)',
  server: 'the provider had a server error; try again later',
  malformed: 'the endpoint answered, but not in this provider kind’s wire format (wrong base URL or provider kind)',
  request: 'the request was rejected: most often an unknown model name, or a base URL that points to the wrong API',
  cancelled: 'cancelled',
  config: 'the provider is not set up completely',
  balance: 'the key works, but the account has no credit left (insufficient balance or quota)',
};

export async function checkProvider(resolved: ResolvedProvider, env: Readonly<Record<string, string | undefined>>, http: Partial<HttpSettings> = {}): Promise<ProviderCheck> {
  const started = Date.now();
  const { fallback: _ignored, ...primaryOnly } = resolved;
  try {
    const provider = createChatProvider(primaryOnly, { env, http: { maxRetries: 0, firstByteTimeoutMs: 30_000, ...http } });
    try {
      const r = await provider.chat({ system: 'This is a connectivity check. Reply with the single word OK.', messages: [{ role: 'user', content: 'ping' }], tools: [], stream: false, maxTokens: 16 });
      return { ok: true, model: r.model, ms: Date.now() - started, usage: { input_tokens: r.usage.inputTokens, output_tokens: r.usage.outputTokens } };
    } finally {
      await (provider as { close?: () => Promise<void> }).close?.();
    }
  } catch (err) {
    const error = err instanceof ProviderError ? err : new ProviderError('network', (err as Error).message);
    // A check that reached its answer's limit still proved the provider answers.
    if (error.errorClass === 'output_limit') return { ok: true, model: resolved.model ?? '', ms: Date.now() - started, usage: { input_tokens: 0, output_tokens: 0 } };
    return { ok: false, error, diagnosis: DIAGNOSIS[error.errorClass], ms: Date.now() - started };
  }
}
