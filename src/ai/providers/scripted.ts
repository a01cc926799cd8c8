// The `scripted` provider: replays a JSON file (OXO_FLOW_AI_SCRIPT) one answer per request, for
// tests and demos. No network. File shape:
//   {"responses": [{"text": "...", "tool_calls": [{"name": "validate_workflow", "arguments": {...}}],
//                   "usage": {"input_tokens": 1, "output_tokens": 2}, "error": "rate_limit"}]}
// An entry with "error" fails that request with that error class.
import { readFileSync } from 'node:fs';
import { ERROR_CLASS_INFO, ProviderError, type ProviderErrorClass } from './errors.js';
import type { ChatProvider, ChatRequest, ChatResponse, ToolCall } from './types.js';

interface ScriptEntry {
  text?: string;
  tool_calls?: { id?: string; name: string; arguments?: Record<string, unknown> }[];
  usage?: { input_tokens?: number; output_tokens?: number };
  stop_reason?: 'end' | 'max_tokens';
  error?: string;
}

export class ScriptedChat implements ChatProvider {
  readonly kind = 'scripted';
  private next = 0;
  private readonly entries: ScriptEntry[];
  constructor(
    readonly model: string,
    private readonly file: string,
  ) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ProviderError('config', `cannot read the script ${file}: ${(err as Error).message}`);
    }
    const list = Array.isArray(raw) ? raw : (raw as { responses?: unknown })?.responses;
    if (!Array.isArray(list)) throw new ProviderError('config', `${file} must hold {"responses": [...]}`);
    this.entries = list as ScriptEntry[];
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    if (request.signal?.aborted) throw new ProviderError('cancelled', 'the request was cancelled');
    const entry = this.entries[this.next++];
    if (entry === undefined) throw new ProviderError('malformed', `the script ${this.file} has no answer number ${this.next} (it holds ${this.entries.length})`);
    if (entry.error !== undefined) {
      const errorClass = (entry.error in ERROR_CLASS_INFO ? entry.error : 'server') as ProviderErrorClass;
      throw new ProviderError(errorClass, `scripted failure (${entry.error})`);
    }
    const text = entry.text ?? '';
    if (text !== '') {
      // Streamed in word-sized pieces, as a real provider would.
      if (request.stream) for (const piece of text.match(/\S+\s*|\s+/g) ?? []) request.onText?.(piece);
      else request.onText?.(text);
    }
    const toolCalls: ToolCall[] = (entry.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `scripted_${this.next}_${i}`, name: c.name, arguments: c.arguments ?? {} }));
    return {
      text,
      toolCalls,
      stopReason: toolCalls.length > 0 ? 'tool_calls' : (entry.stop_reason ?? 'end'),
      usage: { inputTokens: entry.usage?.input_tokens ?? 0, outputTokens: entry.usage?.output_tokens ?? 0 },
      model: this.model,
      provider: this.kind,
    };
  }
}
