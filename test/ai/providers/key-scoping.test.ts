// Keys go only where they belong: a provider's own variable (OPENAI_API_KEY …) only to its own
// endpoint, the key of ai_config.json only to the endpoint that file configures, the key named by
// key_env to its server, none otherwise; a keyless server (vLLM, LM Studio) works without any key.
// Checked where it matters, in the headers the fake server received; and end to end through
// `ai setup --provider openai-compatible` and `lint --ai` with a planted OPENAI_API_KEY.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatProvider } from '../../../src/ai/providers/create.js';
import { resolveProvider } from '../../../src/ai/providers/resolve.js';
import { DEFAULT_HTTP, type ChatProvider } from '../../../src/ai/providers/types.js';
import { startFakeLlm, type FakeLlm } from '../../helpers/fake-llm.js';
import { runCliAsync } from '../../helpers/mcp-cli.js';
import { TINY_WORKFLOW } from '../../helpers/workflow-text.js';

const PLANTED = 'sk-PLANTED-openai-key-must-stay-home-41c7';
const fakes: FakeLlm[] = [];
const open: ChatProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => (p as unknown as { close(): Promise<void> }).close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(): Promise<FakeLlm> {
  const f = await startFakeLlm([], { kind: 'answer', text: 'ok' });
  fakes.push(f);
  return f;
}
function home(config?: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-keys-'));
  if (config) writeFileSync(path.join(dir, 'ai_config.json'), JSON.stringify({ schema_version: 1, ...config }));
  return dir;
}
/** Resolve, build, send one request: what authorization did the server get? */
async function sentKey(env: Record<string, string>, config?: Record<string, unknown>): Promise<{ auth: string | undefined; xKey: string | undefined; resolved: ReturnType<typeof resolveProvider> }> {
  const resolved = resolveProvider({ env, homeDir: home(config) });
  const p = createChatProvider(resolved, { env, http: { ...DEFAULT_HTTP, maxRetries: 0 } });
  open.push(p);
  await p.chat({ system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], stream: false });
  const f = fakes[fakes.length - 1]!;
  const h = f.requests[f.requests.length - 1]!.headers;
  return { auth: h.authorization as string | undefined, xKey: h['x-api-key'] as string | undefined, resolved };
}

describe('which key goes to which server', () => {
  it('kind openai at another base URL: OPENAI_API_KEY is not sent, no AI013, and status says why', async () => {
    const f = await fake();
    const { auth, resolved } = await sentKey({ OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: f.baseUrl, OPENAI_API_KEY: PLANTED });
    expect(auth).toBeUndefined();
    expect(resolved.keyPresent).toBe(false);
    expect(resolved.keyNote).toContain('OPENAI_API_KEY is not sent to this base URL');
    expect(resolved.diagnostics.map((d) => d.code)).toEqual([]);
  });

  it('openai-compatible as ai setup writes it: a keyless server works, the planted OPENAI_API_KEY stays home', async () => {
    const f = await fake();
    const { auth } = await sentKey({ OPENAI_API_KEY: PLANTED }, { provider: 'openai-compatible', base_url: f.baseUrl, model: 'qwen3' });
    expect(auth).toBeUndefined();
    expect(f.requests[0]!.raw).not.toContain(PLANTED);
  });

  it('openai-compatible with key_env: exactly that key, never OPENAI_API_KEY', async () => {
    const f = await fake();
    const { auth } = await sentKey({ OPENAI_API_KEY: PLANTED, VLLM_TOKEN: 'vllm-token-1234' }, { provider: 'openai-compatible', base_url: f.baseUrl, model: 'm', key_env: 'VLLM_TOKEN' });
    expect(auth).toBe('Bearer vllm-token-1234');
  });

  it('a key stored in ai_config.json goes to the endpoint it was stored for, not to one set elsewhere', async () => {
    const f = await fake();
    const stored = await sentKey({}, { provider: 'openai-compatible', base_url: f.baseUrl, model: 'm', api_key: 'stored-key-5678' });
    expect(stored.auth).toBe('Bearer stored-key-5678');
    const other = await fake();
    const moved = await sentKey({ OXO_FLOW_AI_BASE_URL: other.baseUrl }, { provider: 'openai-compatible', base_url: f.baseUrl, model: 'm', api_key: 'stored-key-5678' });
    expect(moved.auth).toBeUndefined();
  });

  it('OXO_FLOW_AI_API_KEY (set beside OXO_FLOW_AI_PROVIDER) goes to the endpoint in use; anthropic at a gateway without a key works', async () => {
    const f = await fake();
    expect((await sentKey({ OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: f.baseUrl, OXO_FLOW_AI_MODEL: 'm', OXO_FLOW_AI_API_KEY: 'oxo-key-999' })).auth).toBe('Bearer oxo-key-999');
    const a = await fake();
    const anth = await sentKey({ OXO_FLOW_AI_PROVIDER: 'anthropic', OXO_FLOW_AI_BASE_URL: a.baseUrl, ANTHROPIC_API_KEY: PLANTED });
    expect(anth.xKey).toBeUndefined();
  });

  it('at the kind’s own endpoint the kind’s variable is the key (no request made: resolution only)', () => {
    const r = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'deepseek', DEEPSEEK_API_KEY: 'ds-key-1234', OPENAI_API_KEY: PLANTED }, homeDir: home() });
    expect(r).toMatchObject({ keyPresent: true, keySource: 'DEEPSEEK_API_KEY', baseUrl: 'https://api.deepseek.com/v1' });
    expect(r.apiKey()).toBe('ds-key-1234');
    const missing = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'deepseek', OPENAI_API_KEY: PLANTED }, homeDir: home() });
    expect(missing.diagnostics.map((d) => d.code)).toEqual(['PV004']);
    expect(missing.apiKey()).toBeUndefined();
  });
});

describe('end to end: ai setup --provider openai-compatible, then lint --ai', () => {
  it('the planted OPENAI_API_KEY reaches no request, no output and no session record', async () => {
    const f = await fake();
    const dir = mkdtempSync(path.join(tmpdir(), 'oxo-keys-e2e-'));
    writeFileSync(path.join(dir, 'main.oxoflow'), TINY_WORKFLOW);
    const oxoHome = path.join(dir, 'home');
    mkdirSync(oxoHome);
    const env = { OXO_FLOW_HOME: oxoHome, OPENAI_API_KEY: PLANTED, OXO_FLOW_AI_PROVIDER: undefined, OXO_FLOW_AI_BASE_URL: undefined, OXO_FLOW_AI_API_KEY: undefined, OXO_FLOW_AI_MODEL: undefined };
    const setup = await runCliAsync(['ai', 'setup', '--provider', 'openai-compatible', '--base-url', f.baseUrl, '--model', 'qwen3'], { cwd: dir, env });
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stderr).toContain('key: none');
    expect(JSON.parse(readFileSync(path.join(oxoHome, 'ai_config.json'), 'utf8'))).toMatchObject({ provider: 'openai-compatible', base_url: f.baseUrl, model: 'qwen3' });
    const review = await runCliAsync(['lint', '--ai'], { cwd: dir, env });
    expect(review.stderr).toContain('AI review');
    expect(review.stderr).not.toMatch(/AI0(07|13)/);
    const status = await runCliAsync(['--json', 'ai', 'status'], { cwd: dir, env });
    expect(JSON.parse(status.stdout).provider).toMatchObject({ kind: 'openai-compatible', key_present: false });
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]!.headers.authorization).toBeUndefined();
    const sessions = path.join(dir, '.oxo-flow', 'ai_sessions');
    const records = readdirSync(sessions).map((n) => readFileSync(path.join(sessions, n), 'utf8')).join('');
    for (const text of [f.requests[0]!.raw, JSON.stringify(f.requests[0]!.headers), setup.stdout, setup.stderr, review.stdout, review.stderr, status.stdout, records]) expect(text).not.toContain(PLANTED);
  });
});
