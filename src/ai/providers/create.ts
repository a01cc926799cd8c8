// From a resolved provider (resolve.ts) to a client: the wire family the registry names for the kind
// (registry.ts), model aliases from ai_config.json, retries, and the fallback provider. Errors here
// are ProviderErrors of class "config" (no key, no script), so callers report every failure the same way.
import { ProviderError } from './errors.js';
import { AnthropicChat } from './anthropic.js';
import { OpenAiChat } from './openai.js';
import { RedactingChat } from './redacting.js';
import { PROVIDERS, providerInfo } from './registry.js';
import { pickKey, type FallbackEntry, type ModelEntry, type ResolvedProvider, sameOrigin } from './resolve.js';
import { FallbackChat, RetryingChat, type RetryEvents } from './retry.js';
import { ScriptedChat } from './scripted.js';
import { DEFAULT_HTTP, type ChatProvider, type HttpSettings } from './types.js';

export interface CreateOptions {
  env: Readonly<Record<string, string | undefined>>;
  events?: RetryEvents;
  /** Replaces settings (tests of retries use tiny waits). */
  http?: Partial<HttpSettings>;
  /** Values that must reach neither the model nor the screen (see redacting.ts); read at each request. */
  secrets?: () => readonly string[];
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
  const primary = client(resolved.kind, model, resolved.baseUrl, key, resolved.scriptPath, http, options.env);
  const retrying = new RetryingChat(primary, http, options.events);
  const guarded = (p: ChatProvider) => (options.secrets ? new RedactingChat(p, options.secrets) : p);
  if (resolved.fallback === undefined) return guarded(retrying);
  let fallback: ChatProvider;
  try {
    fallback = fallbackClient(resolved.fallback, resolved.models, options.env, http);
  } catch {
    // resolve.ts has already warned (PV006) about a fallback that cannot work: the primary serves alone.
    return guarded(retrying);
  }
  return guarded(new FallbackChat(retrying, new RetryingChat(fallback, http, options.events), options.events));
}

function client(
  kind: string,
  model: string,
  baseUrl: string | undefined,
  key: string | undefined,
  script: string | undefined,
  http: HttpSettings,
  env: Readonly<Record<string, string | undefined>>,
): ChatProvider {
  if (kind === 'scripted') {
    if (script === undefined) throw new ProviderError('config', 'provider "scripted" needs OXO_FLOW_AI_SCRIPT (a JSON file of answers)');
    return new ScriptedChat(model, script);
  }
  const info = providerInfo(kind);
  if (info === undefined) throw new ProviderError('config', 'no AI provider is configured');
  const url = baseUrl ?? info.baseUrl;
  if (url === undefined) throw new ProviderError('config', `provider ${kind} needs a base URL (ai setup --base-url, or OXO_FLOW_AI_BASE_URL)`);
  // A key is required only by the kind's own endpoint; any other server (vLLM, LM Studio, a
  // gateway) gets the key named for it, or none.
  if (key === undefined && info.keyRequired && sameOrigin(url, info.baseUrl)) {
    throw new ProviderError('config', `provider ${kind} has no API key (${info.keyEnv ?? 'OXO_FLOW_AI_API_KEY'})`);
  }
  const withKey = key !== undefined ? { apiKey: key } : {};
  if (info.wire === 'anthropic') return new AnthropicChat({ model, baseUrl: url, ...withKey, http, env });
  return new OpenAiChat({ kind, model, baseUrl: url, ...withKey, http, quirks: info.quirks, env });
}

function fallbackClient(fb: FallbackEntry, models: readonly ModelEntry[], env: Readonly<Record<string, string | undefined>>, http: HttpSettings): ChatProvider {
  const info = providerInfo(fb.provider);
  if (info === undefined) throw new ProviderError('config', `the fallback provider "${fb.provider}" is unknown`);
  const baseUrl = fb.baseUrl ?? info.baseUrl;
  const key = pickKey({ info, baseUrl, env, generic: false, config: { ...(fb.keyEnv ? { keyEnv: fb.keyEnv } : {}), ...(baseUrl ? { baseUrl } : {}) } })?.key;
  const model = resolveModelAlias(fb.model ?? info.model ?? '', info.kind, models);
  return client(info.kind, model, baseUrl, key, undefined, http, env);
}

/** Every secret value a provider set-up may hold, for redaction of anything that is printed or stored. */
export function providerSecrets(resolved: ResolvedProvider, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const key = resolved.apiKey();
  if (key) out.push(key);
  const names = ['OXO_FLOW_AI_API_KEY', ...PROVIDER_KEY_ENVS, resolved.fallback?.keyEnv];
  for (const name of names) {
    const v = name ? env[name]?.trim() : undefined;
    if (v) out.push(v);
  }
  return out;
}

const PROVIDER_KEY_ENVS = PROVIDERS.flatMap((p) => (p.keyEnv ? [p.keyEnv] : []));
