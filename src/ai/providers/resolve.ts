// Which AI provider a command would use, and from where each setting came. No network, no clients:
// flags, then environment, then `[ai]` in ai.toml or the workflow (never a key there), then
// $OXO_FLOW_HOME/ai_config.json. The key itself is held behind a function so a JSON dump of the
// result can never contain it.
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { decodeText, readFileSafely } from '../../fs/safe-read.js';
import { checkAgainstShape, pathName } from '../config-check.js';
import { AI_CONFIG_JSON_SHAPE } from '../config-shapes.generated.js';
import { indexJsonKeyPositions } from '../json-key-positions.js';
import { ALL_KINDS, canonicalKind, kindList, MODEL_KINDS, PROVIDERS, providerInfo, type ProviderInfo } from './registry.js';

/** A kind of the registry (registry.ts), or one of its pseudo kinds (scripted, disabled). */
export type ProviderKind = string;
export const AI_CONFIG_SCHEMA_VERSION = 1;

/** Two URLs name the same server (scheme, host and port). */
export function sameOrigin(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * Which key goes with a provider set-up, and from where. A key is sent only where it was configured
 * for: the kind's conventional variable (OPENAI_API_KEY …) only to the kind's own endpoint, the key
 * of ai_config.json (`api_key`, or the variable `key_env` names) only to the endpoint that file
 * configures, OXO_FLOW_AI_API_KEY (oxo-flow's own, set beside OXO_FLOW_AI_PROVIDER) to whatever
 * endpoint is in use. Anything else gets no key.
 */
export function pickKey(input: {
  info: ProviderInfo;
  baseUrl: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** ai_config.json's settings for this kind, and the endpoint they configure. */
  config?: { keyEnv?: string; apiKey?: string; baseUrl?: string };
  /** OXO_FLOW_AI_API_KEY counts (the primary provider only; a fallback names its own). */
  generic: boolean;
}): { key: string; source: string } | undefined {
  const { info, baseUrl, env, config } = input;
  const value = (name: string | undefined) => (name !== undefined && env[name] !== undefined && env[name]!.trim() !== '' ? env[name]!.trim() : undefined);
  if (input.generic && value('OXO_FLOW_AI_API_KEY')) return { key: value('OXO_FLOW_AI_API_KEY')!, source: 'OXO_FLOW_AI_API_KEY' };
  const configured = config !== undefined && sameOrigin(baseUrl, config.baseUrl ?? info.baseUrl);
  if (configured && value(config.keyEnv)) return { key: value(config.keyEnv)!, source: config.keyEnv! };
  if (info.keyEnv !== undefined && sameOrigin(baseUrl, info.baseUrl) && value(info.keyEnv)) return { key: value(info.keyEnv)!, source: info.keyEnv };
  if (configured && config.apiKey !== undefined && config.apiKey.trim() !== '') return { key: config.apiKey.trim(), source: 'ai_config.json' };
  return undefined;
}

/** Each model kind's endpoint, default model and key variable (registry.ts), by kind. */
export const DEFAULTS: Readonly<Record<string, { baseUrl?: string; model?: string; keyEnv?: string }>> = Object.fromEntries(
  PROVIDERS.map((p) => [p.kind, { ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.model ? { model: p.model } : {}), ...(p.keyEnv ? { keyEnv: p.keyEnv } : {}) }]),
);

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
  /** Why no key is sent although one is exported (a key of another endpoint), for ai status. */
  keyNote?: string;
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
  totalTimeoutMs?: number;
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
    const keyed = PROVIDERS.find((p) => p.keyEnv !== undefined && nonEmpty(env[p.keyEnv]));
    const hint = keyed
      ? `${keyed.keyEnv} is set: enable AI with OXO_FLOW_AI_PROVIDER=${keyed.kind}, or set "provider" in ${configFile}`
      : `export OXO_FLOW_AI_PROVIDER=<${MODEL_KINDS.join('|')}> and its API key (e.g. OPENAI_API_KEY), or run \`oxo-flow ai setup\``;
    return { ...base, kind: 'disabled', kindSource: 'none', hint };
  }
  const [rawKind, kindSource] = kindPick;
  const kind = canonicalKind(rawKind);
  if (kind === undefined) {
    const hint = `use one of ${kindList(ALL_KINDS)}`;
    diagnostics.push(diagnostic('PV001', `unknown AI provider "${rawKind}" (from ${kindSource}); AI stays disabled`, { hint }));
    return { ...base, kind: 'disabled', kindSource, hint };
  }
  if (kind === 'disabled') return { ...base, kind, kindSource, hint: `AI is turned off explicitly (${kindSource}); remove that setting to enable it` };

  const out: ResolvedProvider = { ...base, kind, kindSource };
  const configKind = config.value?.provider !== undefined ? canonicalKind(config.value.provider) : undefined;
  const fromConfig = configKind === kind;
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
  const info = providerInfo(kind)!;
  if (modelPick) {
    out.model = modelPick[0];
    out.modelSource = modelPick[1];
  } else if (info.model !== undefined) {
    out.model = info.model;
    out.modelSource = 'default';
  }
  const ollamaHost = kind === 'ollama' ? nonEmpty(env.OLLAMA_HOST) : undefined;
  const urlPick = pick<string>([
    [nonEmpty(env.OXO_FLOW_AI_BASE_URL), 'env'],
    [ollamaHost ? ollamaBaseUrl(ollamaHost) : undefined, 'env'],
    [nonEmpty(input.project?.baseUrl), 'ai.toml'],
    [fromConfig ? nonEmpty(config.value?.baseUrl) : undefined, 'ai_config.json'],
  ]);
  if (urlPick) {
    out.baseUrl = urlPick[0];
    out.baseUrlSource = urlPick[1];
  } else if (info.baseUrl !== undefined) {
    out.baseUrl = info.baseUrl;
    out.baseUrlSource = 'default';
  } else {
    diagnostics.push(diagnostic('PV007', `provider ${kind} has no base URL: there is no default server to send requests to`));
  }
  if (out.model === undefined) diagnostics.push(diagnostic('PV008', `provider ${kind} has no model`));

  const configKeyEnv = fromConfig ? nonEmpty(config.value?.keyEnv) : undefined;
  const picked = pickKey({
    info,
    baseUrl: out.baseUrl,
    env,
    generic: true,
    ...(fromConfig ? { config: { ...(configKeyEnv ? { keyEnv: configKeyEnv } : {}), ...(config.value?.apiKey ? { apiKey: config.value.apiKey } : {}), ...(config.value?.baseUrl ? { baseUrl: config.value.baseUrl } : {}) } } : {}),
  });
  if (picked) {
    const key = picked.key;
    out.keyPresent = true;
    out.keySource = picked.source;
    out.apiKey = () => key;
  } else {
    // A key exported for this kind's own endpoint is not sent to another one.
    if (info.keyEnv !== undefined && nonEmpty(env[info.keyEnv]) && !sameOrigin(out.baseUrl, info.baseUrl)) {
      out.keyNote = `${info.keyEnv} is not sent to this base URL (only to ${info.baseUrl}); name the key for it with \`ai setup --key-env NAME\``;
    }
    if (info.keyRequired && sameOrigin(out.baseUrl, info.baseUrl)) {
      diagnostics.push(diagnostic('PV004', `provider ${kind} has no API key`, { hint: `export ${configKeyEnv ?? info.keyEnv ?? 'OXO_FLOW_AI_API_KEY'}=..., or run \`oxo-flow ai setup\`` }));
    }
  }
  checkFallback(out, env, diagnostics);
  return out;
}

/**
 * A fallback that cannot work (an unknown kind, no key, no base URL) is dropped with a warning: the
 * primary provider still serves every request.
 */
function checkFallback(out: ResolvedProvider, env: Readonly<Record<string, string | undefined>>, diagnostics: Diagnostic[]): void {
  const fb = out.fallback;
  if (fb === undefined) return;
  const problem = fallbackProblem(fb, env);
  if (typeof problem === 'string') {
    diagnostics.push(diagnostic('PV006', `the fallback provider ${problem}; it is not used, the primary (${out.kind}) still is`));
    delete out.fallback;
  } else out.fallback = { ...fb, provider: problem.kind };
}

/** Why a fallback cannot work, or its kind as the registry names it. */
function fallbackProblem(fb: FallbackEntry, env: Readonly<Record<string, string | undefined>>): string | { kind: string } {
  const kind = canonicalKind(fb.provider);
  const info = kind !== undefined ? providerInfo(kind) : undefined;
  if (info === undefined) return `"${fb.provider}" is not one of ${kindList(MODEL_KINDS)}`;
  const baseUrl = fb.baseUrl ?? info.baseUrl;
  if (baseUrl === undefined) return `${info.kind} has no "base_url"`;
  const key = pickKey({ info, baseUrl, env, generic: false, config: { ...(fb.keyEnv ? { keyEnv: fb.keyEnv } : {}), baseUrl } });
  if (key === undefined && info.keyRequired && sameOrigin(baseUrl, info.baseUrl)) return `${info.kind} has no API key (${fb.keyEnv ?? info.keyEnv} is not set)`;
  return { kind: info.kind };
}

function ollamaBaseUrl(host: string): string {
  const withScheme = /^https?:\/\//i.test(host) ? host : `http://${host}`;
  return `${withScheme.replace(/\/+$/, '')}/v1`;
}

/**
 * Read ai_config.json; a schema_version this CLI does not know is refused as a whole, before the
 * shape check. Findings carry file:line:col.
 */
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
  // Keys and types come from the shape compiled from the zod schema (src/ai/config-schemas.ts); a
  // wrong or unknown field is a warning and is skipped, the rest of the file still counts.
  const positions = indexJsonKeyPositions(decoded.text);
  const check = checkAgainstShape(AI_CONFIG_JSON_SHAPE, obj, () => ({
    codes: { type: 'CFG001', unknown: 'CFG002', missing: 'CFG001' },
    locate: (keyPath) => ({ file, ...(positions.locate(keyPath) ?? { line: 1, column: 1 }) }),
    table: 'an object',
    container: (p) => (p.length === 0 ? 'ai_config.json' : `\`${pathName(p)}\``),
  }));
  diagnostics.push(...check.diagnostics);
  const use = (...keyPath: (string | number)[]) => check.usable(keyPath);
  const str = (key: string) => (typeof obj[key] === 'string' && use(key) ? (obj[key] as string) : undefined);
  const value: AiConfigFile = { models: [], http: {} };
  const provider = str('provider');
  if (provider !== undefined) value.provider = provider;
  const model = str('model');
  if (model !== undefined) value.model = model;
  const baseUrl = str('base_url');
  if (baseUrl !== undefined) value.baseUrl = baseUrl;
  const apiKey = str('api_key');
  if (apiKey !== undefined) value.apiKey = apiKey;
  const keyEnv = str('key_env');
  if (keyEnv !== undefined) value.keyEnv = keyEnv;
  const num = (table: string, key?: string): number | undefined => {
    const v = key === undefined ? obj[table] : (obj[table] as Record<string, unknown> | undefined)?.[key];
    return typeof v === 'number' && use(...(key === undefined ? [table] : [table, key])) ? v : undefined;
  };
  const http: [keyof HttpOverrides, number | undefined][] = [
    ['connectTimeoutMs', num('timeouts', 'connect_ms')],
    ['firstByteTimeoutMs', num('timeouts', 'first_byte_ms')],
    ['idleTimeoutMs', num('timeouts', 'idle_ms')],
    ['totalTimeoutMs', num('timeouts', 'total_ms')],
    ['maxRetries', typeof obj.retries === 'number' ? num('retries') : num('retries', 'max')],
    ['retryBaseMs', num('retries', 'base_ms')],
  ];
  for (const [k, v] of http) if (v !== undefined) value.http[k] = k === 'maxRetries' ? Math.min(Math.floor(v), 10) : v;
  if (Array.isArray(obj.models)) {
    obj.models.forEach((m: Record<string, unknown>, n) => {
      if (!use('models', n)) return;
      const entry: ModelEntry = { id: m.id as string, aliases: (m.aliases as string[] | undefined) ?? [] };
      if (m.provider !== undefined) entry.provider = m.provider as string;
      if (m.context_window !== undefined) entry.contextWindow = m.context_window as number;
      value.models.push(entry);
    });
  }
  const fb = obj.fallback as Record<string, string | undefined> | undefined;
  if (fb?.provider !== undefined && use('fallback', 'provider')) {
    const optional = (k: string) => (fb[k] !== undefined && use('fallback', k) ? fb[k] : undefined);
    const [fbModel, fbBaseUrl, fbKeyEnv] = [optional('model'), optional('base_url'), optional('key_env')];
    value.fallback = {
      provider: fb.provider,
      ...(fbModel !== undefined ? { model: fbModel } : {}),
      ...(fbBaseUrl !== undefined ? { baseUrl: fbBaseUrl } : {}),
      ...(fbKeyEnv !== undefined ? { keyEnv: fbKeyEnv } : {}),
    };
  }
  return { found: true, value };
}
