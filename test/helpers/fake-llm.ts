// A local fake model server on 127.0.0.1 speaking both wire formats the AI layer uses:
// OpenAI Chat Completions (POST …/chat/completions) and Anthropic Messages (POST …/messages),
// each as JSON or SSE (when the request says "stream": true), with tool calls (single, parallel,
// arguments streamed in fragments), HTTP errors in each provider's own error shape, a reset in the
// middle of a stream, a stalled stream and malformed bodies. Its faithfulness is tested with the
// official SDKs (test/ai/providers/fake-llm-sdk.test.ts). Every request is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
}

export type FakeReply =
  | { kind: 'answer'; text?: string; toolCalls?: FakeToolCall[]; finish?: 'length'; usage?: { input: number; output: number } }
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

export async function startFakeLlm(replies: FakeReply[] = [], fallback?: FakeReply): Promise<FakeLlm> {
  const queue = [...replies];
  const requests: ReceivedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      const wire = url.endsWith('/chat/completions') ? 'openai' : url.endsWith('/messages') ? 'anthropic' : undefined;
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
  for (const w of words(text)) res.write(chunk([{ index: 0, delta: { content: w }, logprobs: null, finish_reason: null }]));
  calls.forEach((c, i) => {
    res.write(chunk([{ index: 0, delta: { tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: c.name, arguments: '' } }] }, logprobs: null, finish_reason: null }]));
    for (const f of fragments(JSON.stringify(c.args), 3)) {
      res.write(chunk([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: f } }] }, logprobs: null, finish_reason: null }]));
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
