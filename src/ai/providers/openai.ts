// The OpenAI Chat Completions wire format (OpenAI, DeepSeek, Ollama, any compatible server):
// POST {base}/chat/completions, JSON or SSE (`data: {chunk}` … `data: [DONE]`), tool calls as
// `tool_calls` whose arguments arrive as JSON text, in fragments when streamed.
//
// What servers do differently, and how it is read: reasoning arrives as `reasoning_content`
// (DeepSeek) or `reasoning` (Ollama) or as `<think>…</think>` inside the text (local servers), and is
// kept apart from the answer; DeepSeek wants each assistant turn's `reasoning_content` back (registry
// quirk); Ollama sends a tool call whole in one chunk, sometimes every call with index 0; some servers
// repeat the tool's name in every delta instead of sending it once.
import type { SseEvent } from '../../net/sse.js';
import { maskUrl } from '../secrets.js';
import { ProviderError } from './errors.js';
import { endpointUrl, ProviderHttp, preview } from './http-call.js';
import type { ProviderQuirks } from './registry.js';
import { splitThinking, ThinkSplitter } from './think-tags.js';
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, HttpSettings, StopReason, ToolCall } from './types.js';

export interface OpenAiOptions {
  kind: string;
  model: string;
  baseUrl: string;
  apiKey?: string;
  http: HttpSettings;
  quirks?: ProviderQuirks;
  /** Where the proxy settings are read (default: this process's environment). */
  env?: Readonly<Record<string, string | undefined>>;
}

export class OpenAiChat implements ChatProvider {
  readonly kind: string;
  readonly model: string;
  readonly endpoint: string;
  private readonly http: ProviderHttp;
  private readonly url: string;
  constructor(private readonly options: OpenAiOptions) {
    this.kind = options.kind;
    this.model = options.model;
    this.url = endpointUrl(options.baseUrl, 'chat/completions');
    this.endpoint = maskUrl(this.url);
    this.http = new ProviderHttp(options.http, options.env);
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const body: Record<string, unknown> = { model: this.model, messages: toWireMessages(request.system, request.messages, this.options.quirks ?? {}) };
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
    }
    if (request.stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
    const headers: Record<string, string> = { accept: request.stream ? 'text/event-stream' : 'application/json' };
    const key = this.options.apiKey;
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    const stream = new StreamState();
    const answer = await this.http.post(
      { url: this.url, headers, body, ...(request.signal ? { signal: request.signal } : {}), secrets: key ? [key] : [] },
      (event) => stream.onEvent(event, request, this.endpoint),
    );
    const response = answer.json !== undefined ? fromJson(answer.json, this.endpoint) : stream.finish(this.endpoint, request);
    if (answer.json !== undefined && response.reasoning) request.onReasoning?.(response.reasoning);
    if (answer.json !== undefined && response.text !== '') request.onText?.(response.text);
    return { ...response, model: response.model || this.model, provider: this.kind };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

function toWireMessages(system: string, messages: ChatMessage[], quirks: ProviderQuirks): unknown[] {
  const out: unknown[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant') {
      const msg: Record<string, unknown> = { role: 'assistant', content: m.content === '' && m.toolCalls?.length ? null : m.content };
      // DeepSeek's thinking mode refuses a history whose assistant turns lack their reasoning.
      if (quirks.reasoningContent && m.reasoning !== undefined) msg.reasoning_content = m.reasoning;
      if (m.toolCalls?.length) {
        msg.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
      }
      out.push(msg);
    } else out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
  }
  return out;
}

const stopOf = (finish: unknown): StopReason =>
  finish === 'stop' ? 'end' : finish === 'tool_calls' || finish === 'function_call' ? 'tool_calls' : finish === 'length' ? 'max_tokens' : 'other';

export function parseArguments(text: string): Pick<ToolCall, 'arguments' | 'argumentsError'> {
  if (text.trim() === '') return { arguments: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
    return { arguments: {}, argumentsError: 'the arguments are not a JSON object' };
  } catch {
    return { arguments: {}, argumentsError: `the arguments are not valid JSON: ${preview(text, 120)}` };
  }
}

function malformed(endpoint: string, what: string): ProviderError {
  return new ProviderError('malformed', `${endpoint} answered in an unexpected shape: ${what}`);
}

function usageOf(u: unknown): { inputTokens: number; outputTokens: number } {
  const o = (u ?? {}) as { prompt_tokens?: unknown; completion_tokens?: unknown };
  return { inputTokens: typeof o.prompt_tokens === 'number' ? o.prompt_tokens : 0, outputTokens: typeof o.completion_tokens === 'number' ? o.completion_tokens : 0 };
}

function fromJson(json: unknown, endpoint: string): Omit<ChatResponse, 'provider'> {
  const o = json as { choices?: unknown; usage?: unknown; model?: unknown };
  if (typeof o !== 'object' || o === null || !Array.isArray(o.choices) || o.choices.length === 0) throw malformed(endpoint, 'no "choices"');
  const choice = o.choices[0] as { message?: { content?: unknown; tool_calls?: unknown; reasoning_content?: unknown; reasoning?: unknown }; finish_reason?: unknown };
  const message = choice.message;
  if (typeof message !== 'object' || message === null) throw malformed(endpoint, 'no "message" in the first choice');
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls: ToolCall[] = calls.map((c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, i: number) => {
    if (typeof c?.function?.name !== 'string') throw malformed(endpoint, 'a tool call without a function name');
    return { id: typeof c.id === 'string' ? c.id : `call_${i}`, name: c.function.name, ...parseArguments(typeof c.function.arguments === 'string' ? c.function.arguments : '') };
  });
  const split = splitThinking(typeof message.content === 'string' ? message.content : '');
  const field = typeof message.reasoning_content === 'string' ? message.reasoning_content : typeof message.reasoning === 'string' ? message.reasoning : '';
  const reasoning = field + split.thinking;
  return {
    text: split.answer,
    ...(reasoning !== '' || typeof message.reasoning_content === 'string' ? { reasoning } : {}),
    toolCalls,
    stopReason: toolCalls.length > 0 ? 'tool_calls' : stopOf(choice.finish_reason),
    usage: usageOf(o.usage),
    model: typeof o.model === 'string' ? o.model : '',
  };
}

/** Streamed chunks, accumulated: text, reasoning, tool calls by index (id and name first, then argument fragments). */
class StreamState {
  text = '';
  reasoning = '';
  sawReasoningField = false;
  calls: { id: string; name: string; args: string }[] = [];
  /** Which slot each wire index currently fills (a server that reuses index 0 for a new call gets a new slot). */
  slots = new Map<number, number>();
  finishReason: unknown;
  usage = { inputTokens: 0, outputTokens: 0 };
  model = '';
  done = false;
  events = 0;
  think = new ThinkSplitter();

  onEvent(event: SseEvent, request: Pick<ChatRequest, 'onText' | 'onReasoning'>, endpoint: string): void {
    if (event.data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: { choices?: unknown; usage?: unknown; model?: unknown; error?: { message?: unknown } };
    try {
      chunk = JSON.parse(event.data);
    } catch {
      throw malformed(endpoint, `a stream event that is not JSON: ${preview(event.data, 120)}`);
    }
    this.events++;
    if (chunk.error !== undefined) {
      const message = typeof chunk.error?.message === 'string' ? chunk.error.message : 'error';
      throw new ProviderError('server', `${endpoint} reported an error in the stream: ${preview(message)}`);
    }
    if (typeof chunk.model === 'string') this.model = chunk.model;
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    if (!Array.isArray(chunk.choices)) return;
    type Delta = { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown };
    for (const choice of chunk.choices as { delta?: Delta; finish_reason?: unknown }[]) {
      const delta = choice.delta ?? {};
      for (const field of [delta.reasoning_content, delta.reasoning]) {
        if (typeof field !== 'string') continue;
        this.sawReasoningField = true;
        this.addReasoning(field, request);
      }
      if (typeof delta.content === 'string' && delta.content !== '') {
        const { answer, thinking } = this.think.push(delta.content);
        this.addReasoning(thinking, request);
        this.addText(answer, request);
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const part of delta.tool_calls as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) this.addToolPart(part);
      }
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) this.finishReason = choice.finish_reason;
    }
  }

  private addText(text: string, request: Pick<ChatRequest, 'onText'>): void {
    if (text === '') return;
    this.text += text;
    request.onText?.(text);
  }

  private addReasoning(text: string, request: Pick<ChatRequest, 'onReasoning'>): void {
    if (text === '') return;
    this.reasoning += text;
    request.onReasoning?.(text);
  }

  private addToolPart(part: { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }): void {
    const wireIndex = typeof part.index === 'number' ? part.index : -1 - this.calls.length;
    let slot = this.slots.get(wireIndex);
    const current = slot === undefined ? undefined : this.calls[slot];
    // A new id on an index already in use is a new call (Ollama numbers every whole call 0).
    if (current === undefined || (typeof part.id === 'string' && part.id !== '' && current.id !== '' && part.id !== current.id)) {
      slot = this.calls.length;
      this.calls.push({ id: '', name: '', args: '' });
      this.slots.set(wireIndex, slot);
    }
    const call = this.calls[slot!]!;
    if (typeof part.id === 'string' && part.id !== '') call.id = part.id;
    const name = part.function?.name;
    // The name comes once, or (some servers) whole again in every delta: never glue it to itself.
    if (typeof name === 'string' && name !== '' && name !== call.name) call.name += name;
    if (typeof part.function?.arguments === 'string') call.args += part.function.arguments;
  }

  finish(endpoint: string, request: Pick<ChatRequest, 'onText' | 'onReasoning'>): Omit<ChatResponse, 'provider'> {
    if (this.events === 0 && !this.done) throw malformed(endpoint, 'the stream ended without any event');
    // Without [DONE] or a finish reason the stream was cut short: never take half an answer as whole.
    if (!this.done && this.finishReason === undefined) throw new ProviderError('network', `${endpoint} ended the stream before the answer was complete`);
    const rest = this.think.flush();
    this.addReasoning(rest.thinking, request);
    this.addText(rest.answer, request);
    const toolCalls = this.calls.map((c, i) => {
      if (c.name === '') throw malformed(endpoint, 'a streamed tool call without a function name');
      return { id: c.id || `call_${i}`, name: c.name, ...parseArguments(c.args) };
    });
    return {
      text: this.text,
      ...(this.reasoning !== '' || this.sawReasoningField ? { reasoning: this.reasoning } : {}),
      toolCalls,
      stopReason: toolCalls.length > 0 ? 'tool_calls' : stopOf(this.finishReason),
      usage: this.usage,
      model: this.model,
    };
  }
}
