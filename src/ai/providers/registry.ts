// The one list of provider kinds. Everything else is derived from it: which kinds resolve.ts accepts
// and their defaults, which wire family create.ts builds, the choices of `ai setup` (questions, flag
// help, shell completions), the PV001 hint, and the provider table of docs/ai.md (npm run gen:docs).
// Adding a kind means adding an entry here (and, for a new wire family, its client).
//
// Pure data, no imports: the core bundle reads it for the command line's help.

export type WireFamily = 'openai' | 'anthropic';

export interface ProviderQuirks {
  /**
   * Thinking mode returns `reasoning_content` beside the answer, and the server refuses the next
   * request (400 "Missing `reasoning_content` field") unless each assistant turn sends it back.
   */
  reasoningContent?: boolean;
  /** A 402 from this server means the account has run out of credit (not a bad model name). */
  balance402?: boolean;
}

export interface ProviderInfo {
  kind: string;
  /** As `ai setup` offers it. */
  title: string;
  wire: WireFamily;
  /** Default endpoint; none for a server the user names (openai-compatible). */
  baseUrl?: string;
  /** Default model; none where the user must name it. */
  model?: string;
  /**
   * The conventional key variable. It is read only while the base URL is this kind's own default
   * endpoint: a key is sent only to the provider it was issued by.
   */
  keyEnv?: string;
  /** A request without a key is refused before it is sent (AI013) when true. */
  keyRequired: boolean;
  quirks: ProviderQuirks;
  /** One line for docs/ai.md. */
  note: string;
}

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    kind: 'openai',
    title: 'OpenAI',
    wire: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-5.4-mini',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: true,
    quirks: {},
    note: 'Chat Completions; streamed usage through `stream_options.include_usage`.',
  },
  {
    kind: 'anthropic',
    title: 'Anthropic (Claude)',
    wire: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    model: 'claude-sonnet-5-5',
    keyEnv: 'ANTHROPIC_API_KEY',
    keyRequired: true,
    quirks: {},
    note: 'Messages API (`x-api-key`, `anthropic-version`); no turn is ever sent with empty content.',
  },
  {
    kind: 'deepseek',
    title: 'DeepSeek',
    wire: 'openai',
    baseUrl: 'https://api.deepseek.com/v1',
    model: 'deepseek-chat',
    keyEnv: 'DEEPSEEK_API_KEY',
    keyRequired: true,
    quirks: { reasoningContent: true, balance402: true },
    note: 'Thinking mode: each turn’s `reasoning_content` is sent back; HTTP 402 means the balance is used up.',
  },
  {
    kind: 'ollama',
    title: 'Ollama (local, no key)',
    wire: 'openai',
    baseUrl: 'http://localhost:11434/v1',
    model: 'llama3.2',
    keyRequired: false,
    quirks: {},
    note: 'Local, no key; `OLLAMA_HOST` sets the endpoint; whole-chunk tool calls and the `reasoning` field are understood.',
  },
  {
    kind: 'openai-compatible',
    title: 'Another OpenAI-compatible server (by base URL)',
    wire: 'openai',
    keyRequired: false,
    quirks: {},
    note: 'vLLM, LM Studio, llama.cpp, a gateway…: needs a base URL; gets only the key named for it (`key_env` or stored), or none.',
  },
];

/** Kinds that are not providers of models: a file of canned answers (tests, demos), and AI turned off. */
export const PSEUDO_KINDS = ['scripted', 'disabled'] as const;

/** Other names accepted for a kind. */
export const KIND_ALIASES: Readonly<Record<string, string>> = { claude: 'anthropic' };

export const MODEL_KINDS: readonly string[] = PROVIDERS.map((p) => p.kind);
export const ALL_KINDS: readonly string[] = [...MODEL_KINDS, ...PSEUDO_KINDS];

export function providerInfo(kind: string): ProviderInfo | undefined {
  return PROVIDERS.find((p) => p.kind === kind);
}

/** A kind as written by a user (any case, an alias) → the registry's name, or undefined. */
export function canonicalKind(raw: string): string | undefined {
  const lower = raw.trim().toLowerCase();
  const kind = KIND_ALIASES[lower] ?? lower;
  return ALL_KINDS.includes(kind) ? kind : undefined;
}

/** `a, b, c or d`, for help texts and hints. */
export function kindList(kinds: readonly string[] = MODEL_KINDS, last = 'or'): string {
  return kinds.length <= 1 ? kinds.join('') : `${kinds.slice(0, -1).join(', ')} ${last} ${kinds[kinds.length - 1]}`;
}
