// The fake model server is faithful to both wire formats: the official `openai` and
// `@anthropic-ai/sdk` clients parse every kind of response it produces (JSON and streamed, text,
// single and parallel tool calls, streamed argument fragments, errors in the providers' shapes).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../../helpers/fake-llm.js';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const TOOLS = [
  { name: 'validate_workflow', args: { toml: '[workflow]\nname = "x"\n' } },
  { name: 'read_skill', args: { name: 'qc-expert' } },
];

async function serve(replies: FakeReply[]) {
  fake = await startFakeLlm(replies);
  return fake;
}

describe('OpenAI Chat Completions fake, read by the official openai client', () => {
  const client = (f: FakeLlm) => new OpenAI({ apiKey: 'sk-fake', baseURL: f.baseUrl, maxRetries: 0 });
  const tool = { type: 'function' as const, function: { name: 'validate_workflow', parameters: { type: 'object' } } };

  it('text, JSON and streamed', async () => {
    const f = await serve([{ kind: 'answer', text: 'All good here.' }, { kind: 'answer', text: 'All good here.' }]);
    const r = await client(f).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0]!.message.content).toBe('All good here.');
    expect(r.usage?.prompt_tokens).toBe(11);
    const s = client(f).chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
    const final = await s.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('All good here.');
    expect(final.choices[0]!.finish_reason).toBe('stop');
  });

  it('parallel tool calls, JSON and streamed in argument fragments', async () => {
    const f = await serve([{ kind: 'answer', toolCalls: TOOLS }, { kind: 'answer', text: 'Let me check.', toolCalls: TOOLS }]);
    const r = await client(f).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [tool] });
    const calls = r.choices[0]!.message.tool_calls!;
    expect(calls.map((c) => (c.type === 'function' ? [c.function.name, JSON.parse(c.function.arguments)] : []))).toEqual(TOOLS.map((t) => [t.name, t.args]));
    const s = client(f).chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [tool] });
    const final = await s.finalChatCompletion();
    const streamed = final.choices[0]!.message.tool_calls!;
    expect(streamed.map((c) => (c.type === 'function' ? [c.function.name, JSON.parse(c.function.arguments)] : []))).toEqual(TOOLS.map((t) => [t.name, t.args]));
    expect(final.choices[0]!.message.content).toBe('Let me check.');
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('errors in the OpenAI shape map to the SDK error classes', async () => {
    const f = await serve([
      { kind: 'error', status: 401, errorType: 'invalid_api_key', message: 'Incorrect API key provided' },
      { kind: 'error', status: 429, errorType: 'rate_limit_exceeded', message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'error', status: 400, errorType: 'context_length_exceeded', message: "This model's maximum context length is 8 tokens" },
    ]);
    const c = client(f);
    await expect(c.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(c.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const err = await c.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('context_length_exceeded');
  });
});

describe('Anthropic Messages fake, read by the official @anthropic-ai/sdk client', () => {
  const client = (f: FakeLlm) => new Anthropic({ apiKey: 'sk-ant-fake', baseURL: f.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
  const tools = [{ name: 'validate_workflow', input_schema: { type: 'object' as const } }];

  it('text, JSON and streamed', async () => {
    const f = await serve([{ kind: 'answer', text: 'All good here.' }, { kind: 'answer', text: 'All good here.' }]);
    const r = await client(f).messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.content).toEqual([{ type: 'text', text: 'All good here.' }]);
    expect(r.usage.input_tokens).toBe(11);
    const final = await client(f).messages.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(final.content.map((b) => (b.type === 'text' ? b.text : ''))).toEqual(['All good here.']);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(7);
    expect(f.requests[1]!.headers['anthropic-version']).toBeDefined();
  });

  it('parallel tool calls, JSON and streamed as input_json_delta fragments', async () => {
    const f = await serve([{ kind: 'answer', toolCalls: TOOLS }, { kind: 'answer', text: 'Let me check.', toolCalls: TOOLS }]);
    const r = await client(f).messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], tools });
    expect(r.content.map((b) => (b.type === 'tool_use' ? [b.name, b.input] : []))).toEqual(TOOLS.map((t) => [t.name, t.args]));
    expect(r.stop_reason).toBe('tool_use');
    const final = await client(f).messages.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], tools }).finalMessage();
    const used = final.content.filter((b) => b.type === 'tool_use');
    expect(used.map((b) => (b.type === 'tool_use' ? [b.name, b.input] : []))).toEqual(TOOLS.map((t) => [t.name, t.args]));
    expect(final.content[0]).toEqual({ type: 'text', text: 'Let me check.' });
  });

  it('errors in the Anthropic shape map to the SDK error classes', async () => {
    const f = await serve([
      { kind: 'error', status: 401, message: 'invalid x-api-key' },
      { kind: 'error', status: 429, message: 'rate limited', headers: { 'retry-after': '1' } },
      { kind: 'error', status: 400, message: 'prompt is too long: 300000 tokens > 200000 maximum' },
    ]);
    const c = client(f);
    const body = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
    await expect(c.messages.create(body)).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    await expect(c.messages.create(body)).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    await expect(c.messages.create(body)).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });
});

describe('what the fake enforces, as the official clients see it', () => {
  it('openai client: DeepSeek thinking answers parse; a turn without reasoning_content is the 400 DeepSeek sends; 402 is an APIError with that status', async () => {
    fake = await startFakeLlm([{ kind: 'answer', dialect: 'deepseek', reasoning: 'think', text: 'Two samples.' }], undefined, { requireReasoningContent: true });
    const c = new OpenAI({ apiKey: 'sk-fake', baseURL: fake.baseUrl, maxRetries: 0 });
    const final = await c.chat.completions.stream({ model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Two samples.');
    const refused = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'again' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toContain('Missing `reasoning_content` field');
    await fake.close();
    fake = await startFakeLlm([], { kind: 'error', status: 402, errorType: 'unknown_error', message: 'Insufficient Balance' });
    const broke = await new OpenAI({ apiKey: 'sk-fake', baseURL: fake.baseUrl, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(broke).toBeInstanceOf(OpenAI.APIError);
    expect((broke as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
  });

  it('anthropic client: an empty turn is a BadRequestError saying all messages must have non-empty content', async () => {
    fake = await startFakeLlm([], { kind: 'answer', text: 'fine' });
    const c = new Anthropic({ apiKey: 'k-fake', baseURL: fake.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
    const refused = await c.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: '' }, { role: 'user', content: 'q2' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as Error).message).toContain('all messages must have non-empty content');
    const ok = await c.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'q' }] });
    expect(ok.content).toEqual([{ type: 'text', text: 'fine', citations: null }].map(({ citations: _c, ...b }) => expect.objectContaining(b)));
  });
});
