// Which AI provider a command would use, and from where each setting came. No network, no clients:
// flags, then environment, then `[ai]` in ai.toml or the workflow (never a key there), then
// $OXO_FLOW_HOME/ai_config.json. The key itself is held behind a function so a JSON dump of the
// result can never contain it.
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { decodeText, readFileSafely } from '../../fs/safe-read.js';

export const PROVIDER_KINDS = ['openai', 'anthropic', 'deepseek', 'ollama', 'scripted', 'disabled'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
export const AI_CONFIG_SCHEMA_VERSION = 1;

/** Each kind's endpoint, default model (current models; override with --model, OXO_FLOW_AI_MODEL or ai setup) and key variable. */
export const DEFAULTS: Record<Exclude<ProviderKind, 'disabled' | 'scripted'>, { baseUrl: string; model: string; keyEnv?: string }> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-5.4-mini', keyEnv: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-5-5', keyEnv: 'ANTHROPIC_API_KEY' },
  deepseek: { baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', keyEnv: 'DEEPSEEK_API_KEY' },
  ollama: { baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' },
};

export type SettingSource = 'flag' | 'env' | 'ai.toml' | 'workflow' | 'ai_config.json' | 'default';

export interface ModelEntry {
  id: string;
  provider?: string;
  aliases: string[];
  contextWindow?: number;
}

export interface ResolvedProvider {
  kind: ProviderKind;
  kindSource: SettingSource | 'none';
  model?: string;
  modelSource?: SettingSource;
  baseUrl?: string;
  baseUrlSource?: SettingSource;
  keyPresent: boolean;
  /** Where the key came from (an environment variable's name or 'ai_config.json'); never the key. */
  keySource?: string;
  /** The scripted provider's file (OXO_FLOW_AI_SCRIPT). */
  scriptPath?: string;
  fallback?: FallbackEntry;
  /** ai_config.json's "timeouts" and "retries" (each optional; the client has defaults). */
  http: HttpOverrides;
  models: ModelEntry[];
  configFile: string;
  configFound: boolean;
  diagnostics: Diagnostic[];
  /** How to enable AI when disabled, or how to finish the set-up. */
  hint?: string;
  /** The API key, for the provider client only. A function, so JSON.stringify never includes it. */
  apiKey: () => string | undefined;
}

export interface ProviderInput {
  flags?: { provider?: string; model?: string };
  env: Readonly<Record<string, string | undefined>>;
  /** `[ai]` of `<project>/.oxo-flow/ai.toml`. */
  project?: { provider?: string; model?: string; baseUrl?: string };
  /** The workflow's `[ai]` table. */
  workflow?: { provider?: string; model?: string };
  /** $OXO_FLOW_HOME (default ~/.oxo-flow). */
  homeDir: string;
}

export interface FallbackEntry {
  provider: string;
  model?: string;
  baseUrl?: string;
  /** The environment variable that holds the fallback's key (default: the kind's usual one). */
  keyEnv?: string;
}

export interface HttpOverrides {
  connectTimeoutMs?: number;
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
}

interface AiConfigFile {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** ai setup --key-env NAME: the key is read from this variable, never stored. */
  keyEnv?: string;
  models: ModelEntry[];
  fallback?: FallbackEntry;
  http: HttpOverrides;
}

export function resolveProvider(input: ProviderInput): ResolvedProvider {
  const diagnostics: Diagnostic[] = [];
  const env = input.env;
  const configFile = path.join(input.homeDir, 'ai_config.json');
  const config = readAiConfig(configFile, diagnostics);
  const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

  const pick = <T>(pairs: [T | undefined, SettingSource][]): [T, SettingSource] | undefined => {
    for (const [v, source] of pairs) if (v !== undefined) return [v, source];
    return undefined;
  };
  const kindPick = pick<string>([
    [nonEmpty(input.flags?.provider), 'flag'],
    [nonEmpty(env.OXO_FLOW_AI_PROVIDER), 'env'],
    [nonEmpty(input.project?.provider), 'ai.toml'],
    [nonEmpty(input.workflow?.provider), 'workflow'],
    [nonEmpty(config.value?.provider), 'ai_config.json'],
  ]);
  const base: Omit<ResolvedProvider, 'kind' | 'kindSource'> = {
    keyPresent: false,
    models: config.value?.models ?? [],
    http: config.value?.http ?? {},
    configFile,
    configFound: config.found,
    diagnostics,
    apiKey: () => undefined,
  };
  if (config.value?.fallback) base.fallback = config.value.fallback;
  if (!kindPick) {
    const keyed = (['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEEPSEEK_API_KEY'] as const).find((k) => nonEmpty(env[k]));
    const hint = keyed
      ? `${keyed} is set: enable AI with OXO_FLOW_AI_PROVIDER=${keyed.split('_')[0]!.toLowerCase()}, or set "provider" in ${configFile}`
      : `export OXO_FLOW_AI_PROVIDER=<openai|anthropic|deepseek|ollama> and its API key (e.g. OPENAI_API_KEY), or set "provider" in ${configFile}`;
    return { ...base, kind: 'disabled', kindSource: 'none', hint };
  }
  const [rawKind, kindSource] = kindPick;
  const lower = rawKind.toLowerCase();
  const kind = (lower === 'claude' ? 'anthropic' : lower) as ProviderKind;
  if (!(PROVIDER_KINDS as readonly string[]).includes(kind)) {
    diagnostics.push(diagnostic('PV001', `unknown AI provider "${rawKind}" (from ${kindSource}); AI stays disabled`));
    return { ...base, kind: 'disabled', kindSource, hint: 'use one of openai, anthropic, deepseek, ollama, scripted' };
  }
  if (kind === 'disabled') return { ...base, kind, kindSource, hint: `AI is turned off explicitly (${kindSource}); remove that setting to enable it` };

  const out: ResolvedProvider = { ...base, kind, kindSource };
  const fromConfig = nonEmpty(config.value?.provider)?.toLowerCase() === kind;
  const modelPick = pick<string>([
    [nonEmpty(input.flags?.model), 'flag'],
    [nonEmpty(env.OXO_FLOW_AI_MODEL), 'env'],
    [nonEmpty(input.project?.model), 'ai.toml'],
    [nonEmpty(input.workflow?.model), 'workflow'],
    [fromConfig ? nonEmpty(config.value?.model) : undefined, 'ai_config.json'],
  ]);
  if (kind === 'scripted') {
    const script = nonEmpty(env.OXO_FLOW_AI_SCRIPT);
    if (script) out.scriptPath = script;
    else diagnostics.push(diagnostic('PV005', 'provider "scripted" needs OXO_FLOW_AI_SCRIPT'));
    out.model = modelPick?.[0] ?? 'scripted';
    out.modelSource = modelPick?.[1] ?? 'default';
    return out;
  }
  const defaults = DEFAULTS[kind];
  out.model = modelPick?.[0] ?? defaults.model;
  out.modelSource = modelPick?.[1] ?? 'default';
  const ollamaHost = kind === 'ollama' ? nonEmpty(env.OLLAMA_HOST) : undefined;
  const urlPick = pick<string>([
    [nonEmpty(env.OXO_FLOW_AI_BASE_URL), 'env'],
    [ollamaHost ? ollamaBaseUrl(ollamaHost) : undefined, 'env'],
    [nonEmpty(input.project?.baseUrl), 'ai.toml'],
    [fromConfig ? nonEmpty(config.value?.baseUrl) : undefined, 'ai_config.json'],
  ]);
  out.baseUrl = urlPick?.[0] ?? defaults.baseUrl;
  out.baseUrlSource = urlPick?.[1] ?? 'default';

  const configKeyEnv = fromConfig ? nonEmpty(config.value?.keyEnv) : undefined;
  const keyPick = pick<string>([
    [nonEmpty(env.OXO_FLOW_AI_API_KEY), 'OXO_FLOW_AI_API_KEY' as SettingSource],
    [configKeyEnv ? nonEmpty(env[configKeyEnv]) : undefined, configKeyEnv as SettingSource],
    [defaults.keyEnv ? nonEmpty(env[defaults.keyEnv]) : undefined, defaults.keyEnv as SettingSource],
    [fromConfig ? nonEmpty(config.value?.apiKey) : undefined, 'ai_config.json'],
  ]);
  if (keyPick) {
    const key = keyPick[0];
    out.keyPresent = true;
    out.keySource = keyPick[1];
    out.apiKey = () => key;
  } else if (kind !== 'ollama') {
    diagnostics.push(diagnostic('PV004', `provider ${kind} has no API key`, { hint: `export ${configKeyEnv ?? defaults.keyEnv ?? 'OXO_FLOW_AI_API_KEY'}=..., or run \`oxo-flow ai setup\`` }));
  }
  return out;
}

function ollamaBaseUrl(host: string): string {
  const withScheme = /^https?:\/\//i.test(host) ? host : `http://${host}`;
  return `${withScheme.replace(/\/+$/, '')}/v1`;
}

/** Read ai_config.json; a schema_version this CLI does not know is refused as a whole. */
function readAiConfig(file: string, diagnostics: Diagnostic[]): { found: boolean; value?: AiConfigFile } {
  let dirReal: string;
  try {
    dirReal = realpathSync(path.dirname(file));
  } catch {
    return { found: false };
  }
  const read = readFileSafely(path.join(dirReal, path.basename(file)), dirReal, 1024 * 1024);
  if (!read.ok) {
    if (read.reason === 'missing') return { found: false };
    diagnostics.push(diagnostic('PV002', `cannot read ${file}: ${read.detail}`, { file }));
    return { found: true };
  }
  const decoded = decodeText(read.bytes);
  let raw: unknown;
  try {
    if (!decoded.ok) throw new Error(`invalid UTF-8 at byte ${decoded.offset}`);
    raw = JSON.parse(decoded.text);
  } catch (err) {
    diagnostics.push(diagnostic('PV002', `${file} is not valid JSON: ${(err as Error).message}`, { file }));
    return { found: true };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    diagnostics.push(diagnostic('PV002', `${file} must hold a JSON object`, { file }));
    return { found: true };
  }
  const obj = raw as Record<string, unknown>;
  if (obj.schema_version !== AI_CONFIG_SCHEMA_VERSION) {
    const seen = obj.schema_version === undefined ? 'no schema_version' : `schema_version ${JSON.stringify(obj.schema_version)}`;
    diagnostics.push(diagnostic('PV003', `${file} has ${seen}; this oxo-flow reads schema_version ${AI_CONFIG_SCHEMA_VERSION} only, so the file is ignored`, { file }));
    return { found: true };
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const value: AiConfigFile = { models: [], http: {} };
  const provider = str(obj.provider);
  if (provider !== undefined) value.provider = provider;
  const model = str(obj.model);
  if (model !== undefined) value.model = model;
  const baseUrl = str(obj.base_url);
  if (baseUrl !== undefined) value.baseUrl = baseUrl;
  const apiKey = str(obj.api_key);
  if (apiKey !== undefined) value.apiKey = apiKey;
  const keyEnv = str(obj.key_env);
  if (keyEnv !== undefined) value.keyEnv = keyEnv;
  const num = (o: unknown, k: string) => {
    const v = (o as Record<string, unknown> | undefined)?.[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
  };
  const t = obj.timeouts;
  const r = obj.retries;
  const http: [keyof HttpOverrides, number | undefined][] = [
    ['connectTimeoutMs', num(t, 'connect_ms')],
    ['firstByteTimeoutMs', num(t, 'first_byte_ms')],
    ['idleTimeoutMs', num(t, 'idle_ms')],
    ['maxRetries', typeof r === 'number' ? num({ r }, 'r') : num(r, 'max')],
    ['retryBaseMs', num(r, 'base_ms')],
  ];
  for (const [k, v] of http) if (v !== undefined) value.http[k] = k === 'maxRetries' ? Math.min(Math.floor(v), 10) : v;
  if (Array.isArray(obj.models)) {
    for (const m of obj.models) {
      if (typeof m !== 'object' || m === null || typeof (m as { id?: unknown }).id !== 'string') continue;
      const e = m as Record<string, unknown>;
      const entry: ModelEntry = { id: e.id as string, aliases: Array.isArray(e.aliases) ? e.aliases.filter((a): a is string => typeof a === 'string') : [] };
      if (typeof e.provider === 'string') entry.provider = e.provider;
      if (typeof e.context_window === 'number') entry.contextWindow = e.context_window;
      value.models.push(entry);
    }
  }
  const fb = obj.fallback;
  if (typeof fb === 'object' && fb !== null && typeof (fb as { provider?: unknown }).provider === 'string') {
    const f = fb as Record<string, unknown>;
    value.fallback = {
      provider: f.provider as string,
      ...(typeof f.model === 'string' ? { model: f.model } : {}),
      ...(typeof f.base_url === 'string' ? { baseUrl: f.base_url } : {}),
      ...(typeof f.key_env === 'string' ? { keyEnv: f.key_env } : {}),
    };
  }
  return { found: true, value };
}
