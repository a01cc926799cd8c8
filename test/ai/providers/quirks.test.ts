// What real servers do differently, each against the fake that enforces what the real one enforces
// (test/helpers/fake-llm.ts): DeepSeek's thinking mode (reasoning_content must come back, 400
// otherwise) and its 402 "Insufficient Balance"; Anthropic's refusal of empty turns; `<think>` text
// from local servers; Ollama's whole-chunk tool calls at index 0 and its `reasoning`; servers that
// repeat the tool name in every delta; a base URL with a query string; fallbacks that cannot work;
// the fallback's answer on its own line; an overall deadline that keep-alive comments cannot defeat.
// Each fix is shown against a control that fails without it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicChat } from '../../../src/ai/providers/anthropic.js';
import { createChatProvider } from '../../../src/ai/providers/create.js';
import { ProviderError } from '../../../src/ai/providers/errors.js';
import { OpenAiChat } from '../../../src/ai/providers/openai.js';
import { resolveProvider } from '../../../src/ai/providers/resolve.js';
import { splitThinking, ThinkSplitter } from '../../../src/ai/providers/think-tags.js';
import { DEFAULT_HTTP, type ChatMessage, type ChatProvider, type ChatRequest } from '../../../src/ai/providers/types.js';
import { startFakeLlm, type FakeLlm, type FakeOptions, type FakeReply } from '../../helpers/fake-llm.js';

const fakes: FakeLlm[] = [];
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(replies: FakeReply[], fallback?: FakeReply, options?: FakeOptions): Promise<FakeLlm> {
  const f = await startFakeLlm(replies, fallback, options);
  fakes.push(f);
  return f;
}
const http = { ...DEFAULT_HTTP, maxRetries: 0, retryBaseMs: 1 };
const noEnv = {};
function track<T extends ChatProvider>(p: T): T {
  clients.push(p as unknown as { close(): Promise<void> });
  return p;
}
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ProviderError);
const ask = (messages: ChatMessage[], extra: Partial<ChatRequest> = {}): ChatRequest => ({ system: 'sys', messages, tools: [{ name: 'lookup', description: 'd', inputSchema: { type: 'object' } }], stream: true, ...extra });

function home(config?: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-quirks-'));
  if (config) writeFileSync(path.join(dir, 'ai_config.json'), JSON.stringify({ schema_version: 1, ...config }));
  return dir;
}

describe('DeepSeek thinking mode', () => {
  const thinking = (): FakeReply[] => [
    { kind: 'answer', dialect: 'deepseek', reasoning: 'I need the sample list first.', toolCalls: [{ name: 'lookup', args: { q: 'samples' } }] },
    { kind: 'answer', dialect: 'deepseek', reasoning: 'Now I can answer.', text: 'Two samples.' },
  ];

  async function twoTurns(kind: 'deepseek' | 'openai-compatible', stream: boolean) {
    const f = await fake(thinking(), undefined, { requireReasoningContent: true });
    const resolved = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: kind, OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_API_KEY: 'sk-ds-key', OXO_FLOW_AI_MODEL: 'deepseek-reasoner' }, homeDir: home() });
    const p = track(createChatProvider(resolved, { env: noEnv, http }));
    const reasoningSeen: string[] = [];
    const first = await p.chat(ask([{ role: 'user', content: 'how many samples?' }], { stream, onReasoning: (d) => reasoningSeen.push(d) }));
    const messages: ChatMessage[] = [
      { role: 'user', content: 'how many samples?' },
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls, ...(first.reasoning !== undefined ? { reasoning: first.reasoning } : {}) },
      { role: 'tool', toolCallId: first.toolCalls[0]!.id, name: 'lookup', content: 'S1, S2', isError: false },
    ];
    return { f, first, second: p.chat(ask(messages, { stream })), reasoningSeen };
  }

  it.each([true, false])('keeps each turn’s reasoning_content and sends it back (stream %s): the second request is accepted', async (stream) => {
    const { f, first, second, reasoningSeen } = await twoTurns('deepseek', stream);
    expect(first.reasoning).toBe('I need the sample list first.');
    expect(first.text).toBe('');
    expect(reasoningSeen.join('')).toBe('I need the sample list first.');
    const answer = await second;
    expect(answer.text).toBe('Two samples.');
    expect(f.requests[1]!.body.messages[2]).toMatchObject({ role: 'assistant', reasoning_content: 'I need the sample list first.' });
  });

  it('control: a kind without the quirk does not send it back, and the fake refuses with DeepSeek’s 400', async () => {
    const { second } = await twoTurns('openai-compatible', true);
    const err = await failure(second);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err!.status).toBe(400);
    expect(err!.message).toContain('Missing `reasoning_content` field');
  });

  it('402 "Insufficient Balance" is a balance problem (AI040), not a model-name one, and is not retried', async () => {
    const f = await fake([], { kind: 'error', status: 402, errorType: 'unknown_error', message: 'Insufficient Balance' });
    const resolved = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'deepseek', OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_API_KEY: 'sk-ds' }, homeDir: home() });
    const err = await failure(track(createChatProvider(resolved, { env: noEnv, http: { maxRetries: 3, retryBaseMs: 1 } })).chat(ask([{ role: 'user', content: 'hi' }])));
    expect(err).toMatchObject({ errorClass: 'balance', code: 'AI040', status: 402 });
    expect(err!.message).toContain('Insufficient Balance');
    expect(err!.hint).toMatch(/credit/);
    expect(f.requests).toHaveLength(1);
  });
});

describe('Anthropic never gets an empty turn', () => {
  it('an assistant turn with no text and no tool call is left out, and the turns around it are joined; the fake accepts it', async () => {
    const f = await fake([], { kind: 'answer', text: 'fine' });
    const p = track(new AnthropicChat({ model: 'claude-x', baseUrl: f.baseUrl, apiKey: 'k-anth', http }));
    const history: ChatMessage[] = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: '   ' },
      { role: 'user', content: 'third' },
    ];
    for (const stream of [true, false]) expect((await p.chat(ask(history, { stream }))).text).toBe('fine');
    const sent = f.requests[0]!.body.messages as { role: string; content: unknown }[];
    expect(sent).toEqual([{ role: 'user', content: [{ type: 'text', text: 'first question' }, { type: 'text', text: 'second question' }, { type: 'text', text: 'third' }] }]);
  });

  it('control: the fake refuses an empty turn with the real API’s 400', async () => {
    const f = await fake([], { kind: 'answer', text: 'fine' });
    const res = await fetch(`${f.baseUrl}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: '' }, { role: 'user', content: 'q2' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('all messages must have non-empty content');
  });
});

describe('<think> text from local servers', () => {
  const answer = '[WARNING] align: no threads → add threads = 4';
  const reply: FakeReply = { kind: 'answer', text: `<think>The user wants a review. [ERROR] fake: not a finding → ignore</think>\n\n${answer}`, chunk: 3 };

  it.each([true, false])('is kept out of the answer (stream %s), even with the tags cut over deltas; it reaches onReasoning', async (stream) => {
    const f = await fake([], reply);
    const p = track(new OpenAiChat({ kind: 'openai-compatible', model: 'qwen3', baseUrl: f.baseUrl, http }));
    const shown: string[] = [];
    const thought: string[] = [];
    const r = await p.chat(ask([{ role: 'user', content: 'review' }], { stream, onText: (d) => shown.push(d), onReasoning: (d) => thought.push(d) }));
    expect(r.text).toBe(answer);
    expect(shown.join('')).toBe(answer);
    expect(thought.join('')).toBe('The user wants a review. [ERROR] fake: not a finding → ignore');
    expect(r.reasoning).toBe(thought.join(''));
  });

  it('the splitter: any cut of the stream gives the same split; an unclosed block stays thinking; a stray "<" is text', () => {
    const text = 'a<think>b</think>\n c <thi';
    for (let size = 1; size <= text.length; size++) {
      const s = new ThinkSplitter();
      let answer = '';
      let thinking = '';
      for (let i = 0; i < text.length; i += size) {
        const part = s.push(text.slice(i, i + size));
        answer += part.answer;
        thinking += part.thinking;
      }
      const end = s.flush();
      expect(answer + end.answer, `size ${size}`).toBe('ac <thi');
      expect(thinking + end.thinking).toBe('b');
    }
    expect(splitThinking('<think>never closed')).toEqual({ answer: '', thinking: 'never closed' });
    expect(splitThinking('x < y and <b>bold</b>')).toEqual({ answer: 'x < y and <b>bold</b>', thinking: '' });
  });
});

describe('tool calls as other servers stream them', () => {
  it('Ollama: each call whole in one chunk, all at index 0, reasoning in `reasoning`: two separate calls', async () => {
    const f = await fake([], { kind: 'answer', dialect: 'ollama', reasoning: 'two lookups', toolCalls: [{ name: 'lookup', args: { q: 'a' } }, { name: 'read_skill', args: { name: 'qc' } }] });
    const p = track(new OpenAiChat({ kind: 'ollama', model: 'qwen3:8b', baseUrl: f.baseUrl, http }));
    const r = await p.chat(ask([{ role: 'user', content: 'go' }]));
    expect(r.toolCalls).toEqual([
      { id: 'call_ol0', name: 'lookup', arguments: { q: 'a' } },
      { id: 'call_ol1', name: 'read_skill', arguments: { name: 'qc' } },
    ]);
    expect(r.reasoning).toBe('two lookups');
    expect(r.text).toBe('');
  });

  it('a server that repeats the tool name in every delta: the name is not glued to itself', async () => {
    const f = await fake([], { kind: 'answer', dialect: 'repeat-names', toolCalls: [{ name: 'validate_workflow', args: { path: 'main.oxoflow' } }, { name: 'lookup', args: { q: 'x' } }] });
    const p = track(new OpenAiChat({ kind: 'openai-compatible', model: 'm', baseUrl: f.baseUrl, http }));
    const r = await p.chat(ask([{ role: 'user', content: 'go' }]));
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['validate_workflow', { path: 'main.oxoflow' }],
      ['lookup', { q: 'x' }],
    ]);
  });
});

describe('URLs, fallbacks and deadlines', () => {
  it('a base_url with a query string: the path goes before the query', async () => {
    const f = await fake([], { kind: 'answer', text: 'ok' });
    const p = track(new OpenAiChat({ kind: 'openai-compatible', model: 'm', baseUrl: `${f.baseUrl}/?api-version=2024-10-21`, http }));
    expect((await p.chat(ask([{ role: 'user', content: 'hi' }]))).text).toBe('ok');
    expect(f.requests[0]!.path).toBe('/v1/chat/completions?api-version=2024-10-21');
    const a = await fake([], { kind: 'answer', text: 'ok' });
    const q = track(new AnthropicChat({ model: 'm', baseUrl: `${a.baseUrl}?beta=true`, apiKey: 'k-anth', http }));
    await q.chat(ask([{ role: 'user', content: 'hi' }]));
    expect(a.requests[0]!.path).toBe('/v1/messages?beta=true');
  });

  it('an invalid fallback kind is a warning (PV006); AI stays on and the primary answers', async () => {
    const f = await fake([], { kind: 'answer', text: 'primary' });
    const resolved = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_MODEL: 'm' }, homeDir: home({ fallback: { provider: 'gemini-pro-max' } }) });
    expect(resolved.kind).toBe('openai-compatible');
    expect(resolved.fallback).toBeUndefined();
    expect(resolved.diagnostics.map((d) => [d.code, d.severity])).toEqual([['PV006', 'warning']]);
    expect(resolved.diagnostics[0]!.message).toContain('"gemini-pro-max" is not one of');
    expect((await track(createChatProvider(resolved, { env: noEnv, http })).chat(ask([{ role: 'user', content: 'hi' }]))).text).toBe('primary');
  });

  it('a fallback whose key variable is unset does not break the primary', async () => {
    const f = await fake([], { kind: 'answer', text: 'primary' });
    const env = { OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_MODEL: 'm' };
    const resolved = resolveProvider({ env, homeDir: home({ fallback: { provider: 'anthropic', key_env: 'MY_UNSET_ANTHROPIC_KEY' } }) });
    expect(resolved.diagnostics.map((d) => d.code)).toEqual(['PV006']);
    expect(resolved.diagnostics[0]!.message).toContain('MY_UNSET_ANTHROPIC_KEY is not set');
    expect((await track(createChatProvider(resolved, { env, http })).chat(ask([{ role: 'user', content: 'hi' }]))).text).toBe('primary');
  });

  it('partial primary text, then the fallback’s answer: on a line of its own', async () => {
    const primary = await fake([], { kind: 'reset', text: 'The workflow looks' });
    const backup = await fake([], { kind: 'answer', text: 'Full answer from the fallback.' });
    const env = { OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: primary.baseUrl, OXO_FLOW_AI_MODEL: 'm' };
    const resolved = resolveProvider({ env, homeDir: home({ fallback: { provider: 'openai-compatible', base_url: backup.baseUrl, model: 'm2' } }) });
    const shown: string[] = [];
    const r = await track(createChatProvider(resolved, { env, http })).chat(ask([{ role: 'user', content: 'hi' }], { onText: (d) => shown.push(d) }));
    expect(r.text).toBe('Full answer from the fallback.');
    expect(shown.join('')).toBe('The workflow looks\nFull answer from the fallback.');
  });

  it('keep-alive comments do not keep a stream open past the overall deadline (AI008)', async () => {
    const f = await fake([], { kind: 'keepalive', everyMs: 20 });
    const p = track(new OpenAiChat({ kind: 'openai-compatible', model: 'm', baseUrl: f.baseUrl, http: { ...http, idleTimeoutMs: 60_000, totalTimeoutMs: 300 } }));
    const err = await failure(p.chat(ask([{ role: 'user', content: 'hi' }])));
    expect(err).toMatchObject({ errorClass: 'timeout', code: 'AI008' });
    expect(err!.message).toContain('overall deadline');
  });
});
