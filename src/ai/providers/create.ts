// From a resolved provider (resolve.ts) to a client: the wire family for the kind, model aliases
// from ai_config.json, retries, and the fallback provider. Errors here are ProviderErrors of class
// "config" (no key, no script), so callers report every failure the same way.
import { ProviderError } from './errors.js';
import { AnthropicChat } from './anthropic.js';
import { OpenAiChat } from './openai.js';
import { DEFAULTS, type FallbackEntry, type ModelEntry, type ProviderKind, type ResolvedProvider } from './resolve.js';
import { FallbackChat, RetryingChat, type RetryEvents } from './retry.js';
import { ScriptedChat } from './scripted.js';
import { DEFAULT_HTTP, type ChatProvider, type HttpSettings } from './types.js';

export interface CreateOptions {
  env: Readonly<Record<string, string | undefined>>;
  events?: RetryEvents;
  /** Replaces settings (tests of retries use tiny waits). */
  http?: Partial<HttpSettings>;
}

/** `fast` → the model whose aliases name it (for this provider kind), else the name as given. */
export function resolveModelAlias(model: string, kind: string, models: readonly ModelEntry[]): string {
  const hit = models.find((m) => (m.provider === undefined || m.provider === kind) && m.aliases.includes(model));
  return hit?.id ?? model;
}

export function createChatProvider(resolved: ResolvedProvider, options: CreateOptions): ChatProvider {
  if (resolved.kind === 'disabled') throw new ProviderError('config', 'no AI provider is configured');
  const http: HttpSettings = { ...DEFAULT_HTTP, ...resolved.http, ...options.http };
  const model = resolveModelAlias(resolved.model ?? '', resolved.kind, resolved.models);
  const key = resolved.apiKey();
  const primary = client(resolved.kind, model, resolved.baseUrl, key, resolved.scriptPath, http);
  const retrying = new RetryingChat(primary, http, options.events);
  if (resolved.fallback === undefined) return retrying;
  const fallback = fallbackClient(resolved.fallback, resolved.models, options.env, http);
  return new FallbackChat(retrying, new RetryingChat(fallback, http, options.events), options.events);
}

function client(kind: ProviderKind, model: string, baseUrl: string | undefined, key: string | undefined, script: string | undefined, http: HttpSettings): ChatProvider {
  switch (kind) {
    case 'scripted':
      if (script === undefined) throw new ProviderError('config', 'provider "scripted" needs OXO_FLOW_AI_SCRIPT (a JSON file of answers)');
      return new ScriptedChat(model, script);
    case 'anthropic':
      if (key === undefined) throw new ProviderError('config', 'provider anthropic has no API key (ANTHROPIC_API_KEY)');
      return new AnthropicChat({ model, baseUrl: baseUrl ?? DEFAULTS.anthropic.baseUrl, apiKey: key, http });
    case 'openai':
    case 'deepseek':
    case 'ollama':
      // A local Ollama (or another self-hosted server) needs no key.
      if (key === undefined && kind !== 'ollama') throw new ProviderError('config', `provider ${kind} has no API key (${DEFAULTS[kind].keyEnv})`);
      return new OpenAiChat({ kind, model, baseUrl: baseUrl ?? DEFAULTS[kind].baseUrl, ...(key !== undefined ? { apiKey: key } : {}), http });
    case 'disabled':
      throw new ProviderError('config', 'no AI provider is configured');
  }
}

function fallbackClient(fb: FallbackEntry, models: readonly ModelEntry[], env: Readonly<Record<string, string | undefined>>, http: HttpSettings): ChatProvider {
  const kind = fb.provider.toLowerCase() === 'claude' ? 'anthropic' : fb.provider.toLowerCase();
  if (!(kind in DEFAULTS)) throw new ProviderError('config', `the fallback provider "${fb.provider}" is not one of ${Object.keys(DEFAULTS).join(', ')}`);
  const k = kind as keyof typeof DEFAULTS;
  const keyEnv = fb.keyEnv ?? DEFAULTS[k].keyEnv;
  const key = keyEnv !== undefined && env[keyEnv]?.trim() ? env[keyEnv]!.trim() : undefined;
  const model = resolveModelAlias(fb.model ?? DEFAULTS[k].model, k, models);
  return client(k, model, fb.baseUrl ?? DEFAULTS[k].baseUrl, key, undefined, http);
}

/** Every secret value a provider set-up may hold, for redaction of anything that is printed or stored. */
export function providerSecrets(resolved: ResolvedProvider, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const key = resolved.apiKey();
  if (key) out.push(key);
  for (const name of ['OXO_FLOW_AI_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEEPSEEK_API_KEY', resolved.fallback?.keyEnv]) {
    const v = name ? env[name]?.trim() : undefined;
    if (v) out.push(v);
  }
  return out;
}
