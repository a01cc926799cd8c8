// `ai setup` with flags (no questions) writes ai_config.json with mode 0600 and keeps other
// settings; without flags and without a terminal it refuses rather than waits. `ai status --check`
// sends one small request and says what is wrong: bad key, wrong URL, unknown model.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm.js';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const KEY = 'sk-FAKEKEY-setup-0c0ffee0';
const clean = { OXO_FLOW_AI_PROVIDER: undefined, OXO_FLOW_AI_MODEL: undefined, OXO_FLOW_AI_BASE_URL: undefined, OXO_FLOW_AI_API_KEY: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, DEEPSEEK_API_KEY: undefined, OLLAMA_HOST: undefined };

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function home() {
  const dir = tempDir('oxo-ai-setup-');
  const h = path.join(dir, 'home');
  return { dir, home: h, env: { ...clean, OXO_FLOW_HOME: h } };
}

describe('ai setup', () => {
  it('flags write ai_config.json (mode 0600) that ai status then reads, keeping other settings', () => {
    const { dir, home: h, env } = home();
    mkdirSync(h);
    writeFileSync(path.join(h, 'ai_config.json'), JSON.stringify({ schema_version: 1, provider: 'openai', fallback: { provider: 'ollama' }, timeouts: { idle_ms: 1000 } }));
    const r = runCliJson(['ai', 'setup', '--provider', 'ollama', '--model', 'qwen3:8b', '--base-url', 'http://127.0.0.1:11434/v1'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(h, 'ai_config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ schema_version: 1, provider: 'ollama', model: 'qwen3:8b', base_url: 'http://127.0.0.1:11434/v1', fallback: { provider: 'ollama' }, timeouts: { idle_ms: 1000 } });
    const status = runCliJson(['ai', 'status'], { cwd: dir, env });
    expect(status.json.provider).toMatchObject({ kind: 'ollama', model: 'qwen3:8b', endpoint: 'http://127.0.0.1:11434/v1', source: 'ai_config.json' });
  });

  it('--key-env names the variable; the key is read from it and never stored', () => {
    const { dir, home: h, env } = home();
    const r = runCli(['ai', 'setup', '--provider', 'anthropic', '--key-env', 'MY_CLAUDE_KEY'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(path.join(h, 'ai_config.json'), 'utf8'));
    expect(config).toEqual({ schema_version: 1, provider: 'anthropic', model: 'claude-sonnet-5-5', key_env: 'MY_CLAUDE_KEY' });
    const status = runCliJson(['ai', 'status'], { cwd: dir, env: { ...env, MY_CLAUDE_KEY: KEY } });
    expect(status.json.provider).toMatchObject({ kind: 'anthropic', key_present: true, key_source: 'MY_CLAUDE_KEY' });
    expect(status.stdout).not.toContain(KEY);
  });

  it('bad flag values are usage errors (AI030); no terminal and no flags refuses instead of waiting', () => {
    const { dir, env } = home();
    expect(runCli(['ai', 'setup', '--provider', 'gpt'], { cwd: dir, env }).code).toBe(2);
    expect(runCli(['ai', 'setup', '--provider', 'openai', '--key-env', KEY.replace(/-/g, ' ')], { cwd: dir, env }).code).toBe(2);
    expect(runCli(['ai', 'setup', '--provider', 'openai-compatible'], { cwd: dir, env }).code).toBe(2);
    const r = runCli(['ai', 'setup'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AI030');
    expect(r.stderr).toContain('--provider');
  });
});

describe('ai status --check contacts the provider', () => {
  async function check(replies: FakeReply[], extra: Record<string, string | undefined> = {}) {
    const { dir, env } = home();
    fake = await startFakeLlm(replies);
    return runCliAsync(['--json', 'ai', 'status', '--check'], { cwd: dir, env: { ...env, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: KEY, ...extra } });
  }

  it('ok: one small request, the model that answered', async () => {
    const r = await check([{ kind: 'answer', text: 'OK' }]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).provider_check).toMatchObject({ ok: true });
    expect(fake!.requests).toHaveLength(1);
  });

  it('bad key: AI003 and "the API key was refused", the echoed key masked', async () => {
    const r = await check([{ kind: 'error', status: 401, errorType: 'invalid_api_key', message: `Incorrect API key provided: ${KEY}` }]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.provider_check).toMatchObject({ ok: false, class: 'auth', code: 'AI003' });
    expect(doc.provider_check.diagnosis).toMatch(/API key was refused/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('unknown model: AI011, and wrong URL (nothing listening): AI007', async () => {
    const r = await check([{ kind: 'error', status: 404, errorType: 'model_not_found', message: 'The model `nope` does not exist' }]);
    expect(JSON.parse(r.stdout).provider_check).toMatchObject({ ok: false, class: 'request', code: 'AI011' });
    expect(JSON.parse(r.stdout).provider_check.diagnosis).toMatch(/unknown model/);
    const url = fake!.baseUrl;
    await fake!.close();
    fake = undefined;
    const { dir, env } = home();
    const down = await runCliAsync(['--json', 'ai', 'status', '--check'], { cwd: dir, env: { ...env, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: url, OPENAI_API_KEY: KEY } });
    expect(JSON.parse(down.stdout).provider_check).toMatchObject({ ok: false, class: 'network', code: 'AI007' });
  });

  it('keeps the server’s own message, in --json and in the human Provider check', async () => {
    const r = await check([{ kind: 'error', status: 404, errorType: 'model_not_found', message: 'The model `nope-9` does not exist' }]);
    expect(JSON.parse(r.stdout).provider_check.message).toContain('The model `nope-9` does not exist');
    fake!.queue.push({ kind: 'error', status: 404, errorType: 'model_not_found', message: 'The model `nope-9` does not exist' });
    const { dir, env } = home();
    const human = await runCliAsync(['ai', 'status', '--check'], { cwd: dir, env: { ...env, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: fake!.baseUrl, OPENAI_API_KEY: KEY } });
    const section = human.stderr.slice(human.stderr.indexOf('Provider check'));
    expect(section).toContain('failed');
    expect(section).toContain('The model `nope-9` does not exist');
  });
});
