// A local fake model server on 127.0.0.1 speaking both wire formats the AI layer uses:
// OpenAI Chat Completions (POST …/chat/completions) and Anthropic Messages (POST …/messages),
// each as JSON or SSE (when the request says "stream": true), with tool calls (single, parallel,
// arguments streamed in fragments), HTTP errors in each provider's own error shape, a reset in the
// middle of a stream, a stalled stream and malformed bodies. Its faithfulness is tested with the
// official SDKs (test/ai/providers/fake-llm-sdk.test.ts). Every request is recorded.
//
// Dialects of servers that speak the OpenAI format their own way, each as the real server does it:
// DeepSeek thinking mode (`reasoning_content` beside the answer, and with `requireReasoningContent`
// a 400 "Missing `reasoning_content` field" for any assistant turn sent back without it), Ollama
// (each tool call whole in one chunk, every one at index 0, reasoning in `reasoning`), servers that
// repeat the tool's name in every delta. The Anthropic side always refuses a turn with empty content,
// as the real API does. A `keepalive` reply sends SSE comments and nothing else, for ever.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
}

export type FakeReply =
  | {
      kind: 'answer';
      text?: string;
      toolCalls?: FakeToolCall[];
      finish?: 'length';
      usage?: { input: number; output: number };
      /** Reasoning sent beside the answer: `reasoning_content` (deepseek) or `reasoning` (ollama). */
      reasoning?: string;
      dialect?: 'openai' | 'deepseek' | 'ollama' | 'repeat-names';
      /** Stream the text in pieces of this many characters (default: word by word). */
      chunk?: number;
    }
  /** Headers, then an SSE comment every `everyMs` and never an event. */
  | { kind: 'keepalive'; everyMs: number }
  | { kind: 'error'; status: number; errorType?: string; message: string; headers?: Record<string, string> }
  /** Start a streamed answer, send part of it, then destroy the socket. */
  | { kind: 'reset'; text?: string }
  /** Start a streamed answer (headers and one event), then send nothing more. */
  | { kind: 'stall'; text?: string }
  | { kind: 'malformed'; body: string; contentType?: string; status?: number };

export interface ReceivedRequest {
  wire: 'openai' | 'anthropic';
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- whatever the client sent
  raw: string;
}

export interface FakeLlm {
  /** Base URL ending in /v1 (as both SDKs and oxo-flow expect). */
  baseUrl: string;
  requests: ReceivedRequest[];
  /** Replies still queued. */
  queue: FakeReply[];
  close(): Promise<void>;
}

export interface FakeOptions {
  /** DeepSeek thinking mode: an assistant turn sent back without `reasoning_content` is a 400. */
  requireReasoningContent?: boolean;
}

export async function startFakeLlm(replies: FakeReply[] = [], fallback?: FakeReply, options: FakeOptions = {}): Promise<FakeLlm> {
  const queue = [...replies];
  const requests: ReceivedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      const pathname = url.split('?')[0]!;
      const wire = pathname.endsWith('/chat/completions') ? 'openai' : pathname.endsWith('/messages') ? 'anthropic' : undefined;
      if (req.method !== 'POST' || wire === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${url}`, type: 'not_found' } }));
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // recorded as is
      }
      requests.push({ wire, path: url, headers: req.headers, body, raw });
      const refused = wire === 'openai' ? openAiRefusal(body, options) : anthropicRefusal(body);
      if (refused !== undefined) {
        open.add(res);
        res.on('close', () => open.delete(res));
        if (wire === 'openai') openAiError(res, { kind: 'error', status: 400, message: refused });
        else anthropicError(res, { kind: 'error', status: 400, message: refused });
        return;
      }
      const reply = queue.shift() ?? fallback ?? { kind: 'error', status: 500, errorType: 'server_error', message: 'the fake has no reply queued' };
      open.add(res);
      res.on('close', () => open.delete(res));
      const model = typeof body.model === 'string' ? body.model : 'fake-model';
      if (wire === 'openai') openAiReply(res, reply, body.stream === true, model);
      else anthropicReply(res, reply, body.stream === true, model);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    queue,
    close: async () => {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));

const sseHead = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });

/** Split a string into n roughly equal fragments (streamed argument text, streamed words). */
function fragments(text: string, n: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const words = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

/** The text in the pieces a reply asks for: fixed-size pieces, or word by word. */
const pieces = (text: string, size?: number): string[] => {
  if (size === undefined) return words(text);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

/** What DeepSeek's thinking mode refuses: an assistant turn sent back without its reasoning_content. */
function openAiRefusal(body: Record<string, unknown>, options: FakeOptions): string | undefined {
  if (!options.requireReasoningContent || !Array.isArray(body.messages)) return undefined;
  const at = (body.messages as Record<string, unknown>[]).findIndex((m) => m?.role === 'assistant' && typeof m.reasoning_content !== 'string');
  return at < 0 ? undefined : `Missing \`reasoning_content\` field in the assistant message at message index ${at}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;
}

/** What the Messages API refuses about content: an empty turn, an empty text block. */
function anthropicRefusal(body: Record<string, unknown>): string | undefined {
  if (!Array.isArray(body.messages)) return undefined;
  for (const [i, m] of (body.messages as { content?: unknown }[]).entries()) {
    const c = m?.content;
    if (c === '' || (Array.isArray(c) && c.length === 0)) return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    if (Array.isArray(c) && c.some((b: { type?: unknown; text?: unknown }) => b?.type === 'text' && b.text === '')) return `messages.${i}: text content blocks must be non-empty`;
  }
  return undefined;
}

/** SSE comments only: what keeps a connection (and an idle timer) alive without ever answering. */
function keepAlive(res: ServerResponse, everyMs: number): void {
  sseHead(res);
  res.write(': keep-alive\n\n');
  const timer = setInterval(() => res.write(': keep-alive\n\n'), everyMs);
  res.on('close', () => clearInterval(timer));
}

// ---------- OpenAI Chat Completions ----------

function openAiError(res: ServerResponse, r: Extract<FakeReply, { kind: 'error' }>) {
  json(res, r.status, { error: { message: r.message, type: r.errorType ?? 'invalid_request_error', param: null, code: r.errorType ?? null } }, r.headers);
}

function openAiReply(res: ServerResponse, reply: FakeReply, stream: boolean, model: string): void {
  const id = 'chatcmpl-fake';
  const created = 1_700_000_000;
  if (reply.kind === 'error') {
    openAiError(res, reply);
    return;
  }
  if (reply.kind === 'malformed') {
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' }).end(reply.body);
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...extra })}\n\n`;
  if (reply.kind === 'keepalive') {
    keepAlive(res, reply.everyMs);
    return;
  }
  if (reply.kind === 'reset' || reply.kind === 'stall') {
    sseHead(res);
    res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    if (reply.text) res.write(chunk([{ index: 0, delta: { content: reply.text }, logprobs: null, finish_reason: null }]));
    if (reply.kind === 'reset') setTimeout(() => res.socket?.destroy(), 5);
    return;
  }
  const text = reply.text ?? '';
  const calls = reply.toolCalls ?? [];
  const usage = { prompt_tokens: reply.usage?.input ?? 11, completion_tokens: reply.usage?.output ?? 7, total_tokens: (reply.usage?.input ?? 11) + (reply.usage?.output ?? 7) };
  const finish = reply.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const dialect = reply.dialect ?? 'openai';
  const reasoningField = dialect === 'ollama' ? 'reasoning' : 'reasoning_content';
  const reasoning = reply.reasoning !== undefined ? { [reasoningField]: reply.reasoning } : {};
  if (!stream) {
    json(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && calls.length > 0 ? null : text,
            ...reasoning,
            refusal: null,
            ...(calls.length > 0 ? { tool_calls: calls.map((c, i) => ({ id: `call_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage,
      system_fingerprint: null,
    });
    return;
  }
  sseHead(res);
  res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
  if (reply.reasoning !== undefined) {
    for (const w of pieces(reply.reasoning, reply.chunk)) res.write(chunk([{ index: 0, delta: { content: dialect === 'deepseek' ? null : '', [reasoningField]: w }, logprobs: null, finish_reason: null }]));
  }
  for (const w of pieces(text, reply.chunk)) res.write(chunk([{ index: 0, delta: { content: w }, logprobs: null, finish_reason: null }]));
  if (dialect === 'ollama') {
    // Ollama: each call whole, in a chunk of its own, every one numbered 0.
    calls.forEach((c, i) => {
      res.write(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: `call_ol${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }] }, finish_reason: null }]));
    });
  } else calls.forEach((c, i) => {
    res.write(chunk([{ index: 0, delta: { tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: c.name, arguments: '' } }] }, logprobs: null, finish_reason: null }]));
    for (const f of fragments(JSON.stringify(c.args), 3)) {
      const fn = dialect === 'repeat-names' ? { name: c.name, arguments: f } : { arguments: f };
      res.write(chunk([{ index: 0, delta: { tool_calls: [{ index: i, ...(dialect === 'repeat-names' ? { id: `call_${i}`, type: 'function' } : {}), function: fn }] }, logprobs: null, finish_reason: null }]));
    }
  });
  res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]));
  res.write(chunk([], { usage }));
  res.end('data: [DONE]\n\n');
}

// ---------- Anthropic Messages ----------

function anthropicError(res: ServerResponse, r: Extract<FakeReply, { kind: 'error' }>) {
  const type =
    r.errorType ??
    (r.status === 401 ? 'authentication_error' : r.status === 403 ? 'permission_error' : r.status === 429 ? 'rate_limit_error' : r.status === 529 ? 'overloaded_error' : r.status >= 500 ? 'api_error' : 'invalid_request_error');
  json(res, r.status, { type: 'error', error: { type, message: r.message } }, { 'request-id': 'req_fake', ...r.headers });
}

function anthropicReply(res: ServerResponse, reply: FakeReply, stream: boolean, model: string): void {
  if (reply.kind === 'error') {
    anthropicError(res, reply);
    return;
  }
  if (reply.kind === 'malformed') {
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' }).end(reply.body);
    return;
  }
  if (reply.kind === 'keepalive') {
    keepAlive(res, reply.everyMs);
    return;
  }
  const id = 'msg_fake';
  const event = (name: string, data: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  const start = (input: number) =>
    event('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } },
    });
  if (reply.kind === 'reset' || reply.kind === 'stall') {
    sseHead(res);
    res.write(start(11));
    res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    if (reply.text) res.write(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } }));
    if (reply.kind === 'reset') setTimeout(() => res.socket?.destroy(), 5);
    return;
  }
  const text = reply.text ?? '';
  const calls = reply.toolCalls ?? [];
  const input = reply.usage?.input ?? 11;
  const output = reply.usage?.output ?? 7;
  const stop = reply.finish === 'length' ? 'max_tokens' : calls.length > 0 ? 'tool_use' : 'end_turn';
  if (!stream) {
    const content: unknown[] = [];
    if (text !== '') content.push({ type: 'text', text });
    calls.forEach((c, i) => content.push({ type: 'tool_use', id: `toolu_${i}`, name: c.name, input: c.args }));
    json(res, 200, { id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: input, output_tokens: output } });
    return;
  }
  sseHead(res);
  res.write(start(input));
  let index = 0;
  if (text !== '') {
    res.write(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    res.write(event('ping', {}));
    for (const w of words(text)) res.write(event('content_block_delta', { index, delta: { type: 'text_delta', text: w } }));
    res.write(event('content_block_stop', { index }));
    index++;
  }
  calls.forEach((c, i) => {
    res.write(event('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${i}`, name: c.name, input: {} } }));
    for (const f of fragments(JSON.stringify(c.args), 3)) res.write(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: f } }));
    res.write(event('content_block_stop', { index }));
    index++;
  });
  res.write(event('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } }));
  res.end(event('message_stop', {}));
}
