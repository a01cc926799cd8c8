// Issue 17's secret paths on the AI side. A secret split over several streamed deltas is masked
// whole (a rolling window as long as the longest secret); a tool result echoing an MCP header token
// is scrubbed before it reaches the provider; a `sensitive = true` config value the model repeats is
// masked on the terminal, in --json and in the session record, and never sent to the model in the
// first place; `ai status --json` masks the fallback URL's password. Each asserts the planted secret
// appears in no output, record or provider request.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatProvider } from '../../../src/ai/providers/create.js';
import { resolveProvider } from '../../../src/ai/providers/resolve.js';
import { DEFAULT_HTTP, type ChatProvider } from '../../../src/ai/providers/types.js';
import { redactSecrets, StreamRedactor } from '../../../src/ai/secrets.js';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../../helpers/fake-llm.js';
import { runCliAsync } from '../../helpers/mcp-cli.js';

const KEY = 'sk-live-KEY-split-over-deltas-7a1b';
const fakes: FakeLlm[] = [];
const open: ChatProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => (p as unknown as { close(): Promise<void> }).close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});
async function fake(replies: FakeReply[], fallback?: FakeReply): Promise<FakeLlm> {
  const f = await startFakeLlm(replies, fallback);
  fakes.push(f);
  return f;
}

describe('StreamRedactor', () => {
  const secrets = [KEY, 'p@ss word!', 'ABCD', 'ABCDEFGH'];
  const text = `start ${KEY} mid ${encodeURIComponent('p@ss word!')} ABCDEFGH then ABCD and ABC end ${KEY.slice(0, 10)}`;

  it('any cut of the stream shows exactly the fully redacted text, and no emitted piece holds a secret whole', () => {
    const want = redactSecrets(text, secrets);
    expect(want).not.toContain(KEY);
    for (let size = 1; size <= 12; size++) {
      const r = new StreamRedactor(secrets);
      const shown: string[] = [];
      for (let i = 0; i < text.length; i += size) shown.push(r.push(text.slice(i, i + size)));
      shown.push(r.flush());
      expect(shown.join(''), `pieces of ${size}`).toBe(want);
      for (const piece of shown) for (const s of secrets) expect(piece).not.toContain(s);
    }
  });

  it('a key split over three deltas never prints whole; text without secrets passes at once', () => {
    const r = new StreamRedactor([KEY]);
    const third = Math.ceil(KEY.length / 3);
    const out = [r.push(`key: ${KEY.slice(0, third)}`), r.push(KEY.slice(third, 2 * third)), r.push(`${KEY.slice(2 * third)} done`), r.flush()];
    expect(out.join('')).toBe('key: *** done');
    expect(new StreamRedactor([KEY]).push('nothing secret here')).toBe('nothing secret here');
    expect(new StreamRedactor([]).push(KEY)).toBe(KEY);
  });
});

describe('the provider layer (RedactingChat, through createChatProvider)', () => {
  it('a streamed answer that spells the key in 3-character deltas reaches onText masked; the outbound request carries no secret', async () => {
    const token = 'mcp-header-token-55e1';
    const f = await fake([], { kind: 'answer', text: `Your key is ${KEY} and the token ${token}.`, chunk: 3 });
    const env = { OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_MODEL: 'm' };
    const resolved = resolveProvider({ env, homeDir: mkdtempSync(path.join(tmpdir(), 'oxo-sp-')) });
    const p = createChatProvider(resolved, { env, http: { ...DEFAULT_HTTP, maxRetries: 0 }, secrets: () => [KEY, token] });
    open.push(p);
    const shown: string[] = [];
    const r = await p.chat({
      system: `system prompt that quotes ${KEY}`,
      messages: [
        { role: 'user', content: 'look it up' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'mcp_db_whoami', arguments: {} }] },
        // An MCP server echoed the Authorization header it was sent.
        { role: 'tool', toolCallId: 'c1', name: 'mcp_db_whoami', content: `you sent Authorization: Bearer ${token}`, isError: false },
      ],
      tools: [],
      stream: true,
      onText: (d) => shown.push(d),
    });
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.join('')).toBe('Your key is *** and the token ***.');
    for (const piece of shown) expect(piece).not.toContain(KEY);
    expect(r.text).toBe('Your key is *** and the token ***.');
    const raw = f.requests[0]!.raw;
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(KEY);
    expect(raw).toContain('you sent Authorization: Bearer ***');
  });
});

// ---- the built CLI ----

const SENSITIVE = 'hunter2-SENSITIVE-db-pass';
const WORKFLOW = `[workflow]
name = "secretive"
description = "a workflow with a sensitive value"

[config]
db_password = { default = "${SENSITIVE}", sensitive = true }

[[rules]]
name = "hello"
output = ["out.txt"]
shell = "echo hi > {output}"
`;

function project(): { dir: string; home: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-secret-paths-'));
  writeFileSync(path.join(dir, 'main.oxoflow'), WORKFLOW);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, retries: { max: 0 } }));
  return { dir, home };
}
const records = (dir: string) => {
  const where = path.join(dir, '.oxo-flow', 'ai_sessions');
  return readdirSync(where).map((n) => readFileSync(path.join(where, n), 'utf8')).join('\n');
};

describe('end to end', () => {
  it('lint --ai: a sensitive value and the key repeated by the model in 3-character deltas are masked on the terminal, in --json and in the session record; the model never got the value', async () => {
    const f = await fake([], { kind: 'answer', text: `[WARNING] hello: the password ${SENSITIVE} is in the file → use the key ${KEY} instead`, chunk: 3 });
    const { dir, home } = project();
    const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_MODEL: 'm', OXO_FLOW_AI_API_KEY: KEY };
    const human = await runCliAsync(['lint', '--ai'], { cwd: dir, env });
    expect(human.stderr).toContain('AI review');
    expect(human.stderr).toContain('the password *** is in the file');
    const json = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env });
    const ai = JSON.parse(json.stdout).ai;
    expect(ai.status).toBe('ok');
    expect(ai.text).toContain('***');
    const dry = await runCliAsync(['dry-run', '--ai'], { cwd: dir, env });
    for (const text of [human.stdout, human.stderr, json.stdout, json.stderr, dry.stdout, dry.stderr, records(dir)]) {
      expect(text).not.toContain(SENSITIVE);
      expect(text).not.toContain(KEY);
    }
    expect(f.requests.length).toBe(3);
    for (const req of f.requests) {
      expect(req.raw).not.toContain(SENSITIVE);
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.raw).not.toContain(KEY);
    }
  });

  it('ai status --json and the human status mask the fallback URL’s password', async () => {
    const { dir, home } = project();
    writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, fallback: { provider: 'openai-compatible', base_url: 'http://backup:fb-PASSWORD-31@10.0.0.9:8000/v1?token=fb-QUERY-TOKEN', model: 'm' } }));
    const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'ollama' };
    const json = await runCliAsync(['--json', 'ai', 'status'], { cwd: dir, env });
    expect(JSON.parse(json.stdout).provider.fallback).toMatchObject({ provider: 'openai-compatible', baseUrl: 'http://***@10.0.0.9:8000/v1?token=***' });
    const human = await runCliAsync(['ai', 'status'], { cwd: dir, env });
    expect(human.stderr).toContain('Fallback: openai-compatible / m at http://***@10.0.0.9:8000/v1?token=***');
    for (const text of [json.stdout, json.stderr, human.stdout, human.stderr]) {
      expect(text).not.toContain('fb-PASSWORD-31');
      expect(text).not.toContain('fb-QUERY-TOKEN');
    }
  });
});
