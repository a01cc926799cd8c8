// The provider clients against the fake servers, for both wire families: text, streamed text,
// tool calls (single, parallel, streamed deltas), HTTP errors by class, retries, a connection reset
// mid-stream, a stalled stream, context overflow, malformed JSON, the fallback and cancellation.
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicChat } from '../../../src/ai/providers/anthropic.js';
import { ProviderError } from '../../../src/ai/providers/errors.js';
import { OpenAiChat } from '../../../src/ai/providers/openai.js';
import { FallbackChat, RetryingChat } from '../../../src/ai/providers/retry.js';
import { DEFAULT_HTTP, type ChatProvider, type ChatRequest, type HttpSettings } from '../../../src/ai/providers/types.js';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../../helpers/fake-llm.js';

const KEY = 'sk-test-KEY-0123456789abcdef';
const HTTP: HttpSettings = { ...DEFAULT_HTTP, connectTimeoutMs: 2_000, firstByteTimeoutMs: 5_000, idleTimeoutMs: 300, retryBaseMs: 1 };
const servers: FakeLlm[] = [];
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Wire = 'openai' | 'anthropic';
function make(wire: Wire, fake: FakeLlm, http: HttpSettings = HTTP): OpenAiChat | AnthropicChat {
  const c = wire === 'openai' ? new OpenAiChat({ kind: 'openai', model: 'test-model', baseUrl: fake.baseUrl, apiKey: KEY, http }) : new AnthropicChat({ model: 'test-model', baseUrl: fake.baseUrl, apiKey: KEY, http });
  clients.push(c);
  return c;
}
async function fake(replies: FakeReply[]): Promise<FakeLlm> {
  const f = await startFakeLlm(replies);
  servers.push(f);
  return f;
}
const ask = (stream = false, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'You review workflows.',
  messages: [{ role: 'user', content: 'Review this.' }],
  tools: [{ name: 'validate_workflow', description: 'validate', inputSchema: { type: 'object', properties: { toml: { type: 'string' } } } }],
  stream,
  ...extra,
});
const failure = async (p: Promise<unknown>): Promise<ProviderError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};
const retrying = (c: ChatProvider, onRetry?: (ms: number) => void) => new RetryingChat(c, { maxRetries: 3, retryBaseMs: 1, maxRetryWaitMs: 5_000 }, { onRetry: (i) => onRetry?.(i.waitMs) });

const TWO = [
  { name: 'validate_workflow', args: { toml: '[workflow]\nname = "a"\n' } },
  { name: 'read_skill', args: { name: 'qc', nested: { list: [1, 2, { deep: '"quoted"' }] } } },
];

describe.each<Wire>(['openai', 'anthropic'])('%s wire', (wire) => {
  it('text (JSON): the answer, usage, and what was sent', async () => {
    const f = await fake([{ kind: 'answer', text: 'Looks fine.', usage: { input: 40, output: 3 } }]);
    const r = await make(wire, f).chat(ask());
    expect(r).toMatchObject({ text: 'Looks fine.', toolCalls: [], stopReason: 'end', usage: { inputTokens: 40, outputTokens: 3 }, provider: wire });
    const sent = f.requests[0]!;
    expect(sent.wire).toBe(wire);
    expect(sent.body.model).toBe('test-model');
    if (wire === 'openai') {
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'You review workflows.' });
      expect(sent.body.tools[0].function.name).toBe('validate_workflow');
    } else {
      expect(sent.headers['x-api-key']).toBe(KEY);
      expect(sent.headers['anthropic-version']).toBe('2023-06-01');
      expect(sent.body.system).toBe('You review workflows.');
      expect(sent.body.tools[0].input_schema).toBeDefined();
    }
  });

  it('streamed text arrives in pieces, in order', async () => {
    const f = await fake([{ kind: 'answer', text: 'One two three four.' }]);
    const pieces: string[] = [];
    const r = await make(wire, f).chat(ask(true, { onText: (d) => pieces.push(d) }));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('One two three four.');
    expect(r.text).toBe('One two three four.');
    expect(f.requests[0]!.body.stream).toBe(true);
  });

  it.each([false, true])('one tool call (stream=%s)', async (stream) => {
    const f = await fake([{ kind: 'answer', toolCalls: [TWO[0]!] }]);
    const r = await make(wire, f).chat(ask(stream));
    expect(r.stopReason).toBe('tool_calls');
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).toEqual([[TWO[0]!.name, TWO[0]!.args]]);
    expect(r.toolCalls[0]!.id).not.toBe('');
  });

  it.each([false, true])('parallel tool calls with text (stream=%s; streamed arguments come in fragments)', async (stream) => {
    const f = await fake([{ kind: 'answer', text: 'Checking.', toolCalls: TWO }]);
    const r = await make(wire, f).chat(ask(stream));
    expect(r.text).toBe('Checking.');
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).toEqual(TWO.map((t) => [t.name, t.args]));
    expect(new Set(r.toolCalls.map((c) => c.id)).size).toBe(2);
  });

  it('tool results go back in the wire format’s own shape', async () => {
    const f = await fake([{ kind: 'answer', text: 'ok' }]);
    await make(wire, f).chat(
      ask(false, {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'a', arguments: { x: 1 } }, { id: 'c2', name: 'b', arguments: {} }] },
          { role: 'tool', toolCallId: 'c1', name: 'a', content: 'A', isError: false },
          { role: 'tool', toolCallId: 'c2', name: 'b', content: 'refused', isError: true },
        ],
      }),
    );
    const msgs = f.requests[0]!.body.messages;
    if (wire === 'openai') {
      expect(msgs.slice(2)).toEqual([
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } }, { id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'A' },
        { role: 'tool', tool_call_id: 'c2', content: 'refused' },
      ]);
    } else {
      expect(msgs.slice(1)).toEqual([
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'a', input: { x: 1 } }, { type: 'tool_use', id: 'c2', name: 'b', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'A' }, { type: 'tool_result', tool_use_id: 'c2', content: 'refused', is_error: true }] },
      ]);
    }
  });

  it('401 is an auth error (AI003), not retried, and the key never appears even when echoed', async () => {
    const f = await fake([{ kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY}` }]);
    const err = await failure(retrying(make(wire, f)).chat(ask()));
    expect(err.errorClass).toBe('auth');
    expect(err.code).toBe('AI003');
    expect(err.message).toContain('401');
    expect(err.message).not.toContain(KEY);
    expect(f.requests).toHaveLength(1);
  });

  it.each<[string, FakeReply]>([
    ['a 500 body', { kind: 'error', status: 500, message: `server saw key ${KEY}` }],
    ['a malformed body', { kind: 'malformed', body: `<html>key ${KEY}</html>`, contentType: 'text/html' }],
    ['an error event inside a stream', { kind: 'malformed', body: `event: error\ndata: {"type": "error", "error": {"type": "api_error", "message": "key ${KEY}"}}\n\ndata: {"error": {"message": "key ${KEY}"}}\n\n`, contentType: 'text/event-stream' }],
  ])('the key echoed in %s is masked', async (_name, reply) => {
    const f = await fake([reply]);
    const err = await failure(make(wire, f).chat(ask(true)));
    expect(err.message).not.toContain(KEY);
    expect(err.message).toContain('***');
  });

  it('429 with Retry-After: waits what the server asked, then succeeds', async () => {
    const f = await fake([{ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '0' } }, { kind: 'answer', text: 'after the wait' }]);
    const waits: number[] = [];
    const r = await retrying(make(wire, f), (ms) => waits.push(ms)).chat(ask());
    expect(r.text).toBe('after the wait');
    expect(waits).toEqual([0]);
    expect(f.requests).toHaveLength(2);
  });

  it('429 past the retries is a rate-limit error (AI004); a Retry-After beyond the cap is reported at once', async () => {
    const f = await fake(Array.from({ length: 4 }, () => ({ kind: 'error' as const, status: 429, message: 'slow down' })));
    expect((await failure(retrying(make(wire, f)).chat(ask()))).code).toBe('AI004');
    expect(f.requests).toHaveLength(4);
    const g = await fake([{ kind: 'error', status: 429, message: 'later', headers: { 'retry-after': '3600' } }]);
    expect((await failure(retrying(make(wire, g)).chat(ask()))).errorClass).toBe('rate_limit');
    expect(g.requests).toHaveLength(1);
  });

  it('500 then success', async () => {
    const f = await fake([{ kind: 'error', status: 500, message: 'boom' }, { kind: 'answer', text: 'recovered' }]);
    expect((await retrying(make(wire, f)).chat(ask())).text).toBe('recovered');
  });

  it('a connection reset mid-stream is a network error (AI007), not half an answer', async () => {
    const f = await fake([{ kind: 'reset', text: 'partial' }]);
    const err = await failure(make(wire, f).chat(ask(true)));
    expect(err.errorClass).toBe('network');
    expect(err.code).toBe('AI007');
  });

  it('a stream that stalls fails with a timeout (AI008)', async () => {
    const f = await fake([{ kind: 'stall', text: 'thinking' }]);
    const err = await failure(make(wire, f).chat(ask(true)));
    expect(err.errorClass).toBe('timeout');
    expect(err.message).toMatch(/stalled/);
  });

  it('context overflow is its own class (AI005)', async () => {
    const message = wire === 'openai' ? "This model's maximum context length is 8192 tokens" : 'prompt is too long: 250000 tokens > 200000 maximum';
    const f = await fake([{ kind: 'error', status: 400, errorType: wire === 'openai' ? 'context_length_exceeded' : 'invalid_request_error', message }]);
    expect((await failure(retrying(make(wire, f)).chat(ask()))).code).toBe('AI005');
    expect(f.requests).toHaveLength(1);
  });

  it('an unknown model (404) is a request error (AI011)', async () => {
    const f = await fake([{ kind: 'error', status: 404, errorType: 'not_found_error', message: 'model: nope' }]);
    expect((await failure(make(wire, f).chat(ask()))).code).toBe('AI011');
  });

  it('malformed JSON, and JSON of the wrong shape, are AI010', async () => {
    const f = await fake([{ kind: 'malformed', body: '{"choices": [' }, { kind: 'malformed', body: '{"hello": 1}' }]);
    expect((await failure(make(wire, f).chat(ask()))).code).toBe('AI010');
    expect((await failure(make(wire, f).chat(ask()))).code).toBe('AI010');
  });

  it('an output limit stop is reported as max_tokens', async () => {
    const f = await fake([{ kind: 'answer', text: 'cut', finish: 'length' }]);
    expect((await make(wire, f).chat(ask(true))).stopReason).toBe('max_tokens');
  });

  it('the fallback answers once the primary has failed past its retries', async () => {
    const bad = await fake(Array.from({ length: 4 }, () => ({ kind: 'error' as const, status: 503, message: 'down' })));
    const good = await fake([{ kind: 'answer', text: 'from the fallback' }]);
    const fallbacks: string[] = [];
    const chat = new FallbackChat(retrying(make(wire, bad)), retrying(make(wire, good)), { onFallback: (i) => fallbacks.push(i.error.code) });
    const r = await chat.chat(ask());
    expect(r.text).toBe('from the fallback');
    expect(bad.requests).toHaveLength(4);
    expect(fallbacks).toEqual(['AI009']);
  });

  it('the fallback is not used for an auth error', async () => {
    const bad = await fake([{ kind: 'error', status: 401, message: 'no' }]);
    const good = await fake([{ kind: 'answer', text: 'unused' }]);
    await failure(new FallbackChat(retrying(make(wire, bad)), retrying(make(wire, good))).chat(ask()));
    expect(good.requests).toHaveLength(0);
  });

  it('an AbortSignal cancels a stalled request at once (AI012)', async () => {
    const f = await fake([{ kind: 'stall' }]);
    const controller = new AbortController();
    const slow = make(wire, f, { ...HTTP, idleTimeoutMs: 60_000 });
    const p = slow.chat(ask(true, { signal: controller.signal, onText: () => undefined }));
    setTimeout(() => controller.abort(new Error('Ctrl-C')), 50);
    expect((await failure(p)).code).toBe('AI012');
  });
});

it('a refused connection is a network error (AI007)', async () => {
  const f = await fake([]);
  const url = f.baseUrl;
  await f.close();
  servers.splice(0);
  const c = new OpenAiChat({ kind: 'openai', model: 'm', baseUrl: url, apiKey: KEY, http: HTTP });
  clients.push(c);
  expect((await failure(c.chat(ask()))).code).toBe('AI007');
});
