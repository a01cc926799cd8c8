// The Anthropic Messages wire format: POST {base}/messages with x-api-key and anthropic-version,
// content blocks (text, tool_use), tool results as user-turn tool_result blocks, and a typed SSE
// stream (message_start, content_block_start/delta/stop, message_delta, message_stop, error).
import type { SseEvent } from '../../net/sse.js';
import { maskUrl } from '../secrets.js';
import { ProviderError, classifyHttpError } from './errors.js';
import { endpointUrl, ProviderHttp, preview } from './http-call.js';
import { parseArguments } from './openai.js';
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, HttpSettings, StopReason, ToolCall } from './types.js';

const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_MAX_TOKENS = 4096;

export interface AnthropicOptions {
  model: string;
  baseUrl: string;
  apiKey?: string;
  http: HttpSettings;
  /** Where the proxy settings are read (default: this process's environment). */
  env?: Readonly<Record<string, string | undefined>>;
}

export class AnthropicChat implements ChatProvider {
  readonly kind = 'anthropic';
  readonly model: string;
  readonly endpoint: string;
  private readonly url: string;
  private readonly http: ProviderHttp;
  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
    this.url = endpointUrl(options.baseUrl, 'messages');
    this.endpoint = maskUrl(this.url);
    this.http = new ProviderHttp(options.http, options.env);
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      system: request.system,
      messages: toWireMessages(request.messages),
    };
    if (request.tools.length > 0) body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    if (request.stream) body.stream = true;
    const key = this.options.apiKey;
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, accept: request.stream ? 'text/event-stream' : 'application/json' };
    if (key !== undefined) headers['x-api-key'] = key;
    const stream = new StreamState(this.endpoint);
    const answer = await this.http.post(
      { url: this.url, headers, body, ...(request.signal ? { signal: request.signal } : {}), secrets: key ? [key] : [] },
      (event) => stream.onEvent(event, request.onText),
    );
    const response = answer.json !== undefined ? fromJson(answer.json, this.endpoint) : stream.finish();
    if (answer.json !== undefined && response.text !== '') request.onText?.(response.text);
    return { ...response, model: response.model || this.model, provider: this.kind };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/**
 * Our messages as Anthropic turns. Consecutive tool results share one user turn, as the API wants.
 * The API refuses any turn with empty content ("all messages must have non-empty content"): an
 * assistant turn with neither text nor tool calls is left out, empty text blocks are never sent,
 * and turns of the same role that then meet are joined into one.
 */
function toWireMessages(messages: ChatMessage[]): unknown[] {
  type Turn = { role: 'user' | 'assistant'; blocks: unknown[] };
  const turns: Turn[] = [];
  const add = (role: Turn['role'], blocks: unknown[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  const text = (t: string) => (t.trim() === '' ? [] : [{ type: 'text', text: t }]);
  for (const m of messages) {
    if (m.role === 'user') add('user', text(m.content));
    else if (m.role === 'assistant') add('assistant', [...text(m.content), ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments }))]);
    else add('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content === '' ? '(no output)' : m.content, ...(m.isError ? { is_error: true } : {}) }]);
  }
  // A lone text block is sent as a plain string, as the API's own examples do.
  return turns.map((t) => ({ role: t.role, content: t.blocks.length === 1 && (t.blocks[0] as { type: string }).type === 'text' ? (t.blocks[0] as { text: string }).text : t.blocks }));
}

const stopOf = (reason: unknown): StopReason =>
  reason === 'end_turn' || reason === 'stop_sequence' ? 'end' : reason === 'tool_use' ? 'tool_calls' : reason === 'max_tokens' ? 'max_tokens' : 'other';

function malformed(endpoint: string, what: string): ProviderError {
  return new ProviderError('malformed', `${endpoint} answered in an unexpected shape: ${what}`);
}

function usageOf(u: unknown, base = { inputTokens: 0, outputTokens: 0 }): { inputTokens: number; outputTokens: number } {
  const o = (u ?? {}) as { input_tokens?: unknown; output_tokens?: unknown };
  return {
    inputTokens: typeof o.input_tokens === 'number' ? o.input_tokens : base.inputTokens,
    outputTokens: typeof o.output_tokens === 'number' ? o.output_tokens : base.outputTokens,
  };
}

function fromJson(json: unknown, endpoint: string): Omit<ChatResponse, 'provider'> {
  const o = json as { content?: unknown; stop_reason?: unknown; usage?: unknown; model?: unknown };
  if (typeof o !== 'object' || o === null || !Array.isArray(o.content)) throw malformed(endpoint, 'no "content" array');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of o.content as { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown }[]) {
    if (block?.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block?.type === 'tool_use') {
      if (typeof block.name !== 'string' || typeof block.id !== 'string') throw malformed(endpoint, 'a tool_use block without id or name');
      const input = block.input;
      const ok = typeof input === 'object' && input !== null && !Array.isArray(input);
      toolCalls.push({ id: block.id, name: block.name, arguments: ok ? (input as Record<string, unknown>) : {}, ...(ok ? {} : { argumentsError: 'the input is not a JSON object' }) });
    }
  }
  return { text, toolCalls, stopReason: stopOf(o.stop_reason), usage: usageOf(o.usage), model: typeof o.model === 'string' ? o.model : '' };
}

class StreamState {
  text = '';
  blocks: ({ kind: 'text' } | { kind: 'tool'; id: string; name: string; json: string })[] = [];
  stopReason: unknown;
  usage = { inputTokens: 0, outputTokens: 0 };
  model = '';
  stopped = false;
  constructor(private readonly endpoint: string) {}

  onEvent(event: SseEvent, onText: ((d: string) => void) | undefined): void {
    if (event.event === 'ping') return;
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked field by field below
    let data: Record<string, any>;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw malformed(this.endpoint, `a stream event that is not JSON: ${preview(event.data, 120)}`);
    }
    const type = event.event ?? data.type;
    switch (type) {
      case 'message_start':
        if (typeof data.message?.model === 'string') this.model = data.message.model;
        this.usage = usageOf(data.message?.usage, this.usage);
        return;
      case 'content_block_start': {
        const b = data.content_block ?? {};
        const index = typeof data.index === 'number' ? data.index : this.blocks.length;
        if (b.type === 'tool_use') this.blocks[index] = { kind: 'tool', id: String(b.id ?? ''), name: String(b.name ?? ''), json: '' };
        else {
          this.blocks[index] = { kind: 'text' };
          if (typeof b.text === 'string' && b.text !== '') this.addText(b.text, onText);
        }
        return;
      }
      case 'content_block_delta': {
        const d = data.delta ?? {};
        if (d.type === 'text_delta' && typeof d.text === 'string') this.addText(d.text, onText);
        else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') {
          const block = this.blocks[data.index];
          if (block?.kind !== 'tool') throw malformed(this.endpoint, 'an input_json_delta for a block that is not a tool_use');
          block.json += d.partial_json;
        }
        return;
      }
      case 'message_delta':
        if (data.delta?.stop_reason !== undefined) this.stopReason = data.delta.stop_reason;
        this.usage = usageOf(data.usage, this.usage);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      case 'error': {
        const e = data.error ?? {};
        const message = typeof e.message === 'string' ? e.message : 'error';
        const errorType = typeof e.type === 'string' ? e.type : '';
        throw new ProviderError(classifyHttpError(errorType === 'overloaded_error' ? 529 : 200, errorType, message), `${this.endpoint} reported an error in the stream: ${preview(message)}`);
      }
      default:
        return;
    }
  }

  private addText(text: string, onText: ((d: string) => void) | undefined): void {
    this.text += text;
    onText?.(text);
  }

  finish(): Omit<ChatResponse, 'provider'> {
    if (!this.stopped) throw new ProviderError('network', `${this.endpoint} ended the stream before the answer was complete`);
    const toolCalls: ToolCall[] = [];
    for (const b of this.blocks) {
      if (b?.kind !== 'tool') continue;
      if (b.name === '' || b.id === '') throw malformed(this.endpoint, 'a streamed tool_use block without id or name');
      toolCalls.push({ id: b.id, name: b.name, ...parseArguments(b.json) });
    }
    return { text: this.text, toolCalls, stopReason: stopOf(this.stopReason), usage: this.usage, model: this.model };
  }
}
