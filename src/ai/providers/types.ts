// One provider interface for every model the AI layer talks to. The agent loop speaks these
// shapes; each wire family (openai.ts, anthropic.ts) translates them to and from its own JSON.

/** A tool as offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `{}` when the model sent none. */
  arguments: Record<string, unknown>;
  /** Set when the model's argument text was not a JSON object (the loop tells the model so). */
  argumentsError?: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      toolCalls?: ToolCall[];
      /** The model's reasoning for this turn, kept for servers that want it sent back (DeepSeek). */
      reasoning?: string;
    }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean };

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Stream (SSE) and hand each text fragment to onText as it arrives. */
  stream: boolean;
  onText?: (delta: string) => void;
  /**
   * Reasoning as it streams (`reasoning_content`, Ollama's `reasoning`, `<think>…</think>` text):
   * never part of the answer; a display may show that the model is thinking.
   */
  onReasoning?: (delta: string) => void;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'other';

export interface ChatResponse {
  /** The answer, without any reasoning. */
  text: string;
  /** The model's reasoning, when the server sent any (see ChatRequest.onReasoning). */
  reasoning?: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: Usage;
  /** The model that answered (as the server names it). */
  model: string;
  /** The provider kind that answered (differs from the primary's after a fallback). */
  provider: string;
}

export interface ChatProvider {
  readonly kind: string;
  readonly model: string;
  /** Shown without credentials; undefined for the scripted provider. */
  readonly endpoint?: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

/** HTTP behaviour of a provider client; ai_config.json may change each (tests use short values). */
export interface HttpSettings {
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  /** Longest silence inside a streamed answer. */
  idleTimeoutMs: number;
  /**
   * Longest time for one whole request, answer included (0: none). Keep-alive comments reset the
   * idle timer, so without it a server could keep a stream open for ever.
   */
  totalTimeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx and network errors. */
  maxRetries: number;
  retryBaseMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported at once. */
  maxRetryWaitMs: number;
}

export const DEFAULT_HTTP: HttpSettings = {
  connectTimeoutMs: 10_000,
  firstByteTimeoutMs: 120_000,
  idleTimeoutMs: 60_000,
  totalTimeoutMs: 600_000,
  maxRetries: 3,
  retryBaseMs: 500,
  maxRetryWaitMs: 60_000,
};
