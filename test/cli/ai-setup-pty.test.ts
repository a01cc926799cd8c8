// Interactive `oxo-flow ai setup` on a real pseudo-terminal (util-linux `script`): choose a provider
// with the arrow keys, type a model, choose to type the key, type it at the masked prompt. The file
// is written with mode 0600 and holds the key; the terminal never shows it. Ctrl-C writes nothing.
// Each key is typed only once its prompt is on the screen (no timing).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliDialogue } from '../helpers/pty-dialogue.js';

const KEY = 'sk-ant-PTYSECRET-7f3a9c-typed';
const DOWN = '\x1b[B';
const clean = { OXO_FLOW_AI_PROVIDER: undefined, OXO_FLOW_AI_MODEL: undefined, OXO_FLOW_AI_BASE_URL: undefined, OXO_FLOW_AI_API_KEY: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, DEEPSEEK_API_KEY: undefined, OLLAMA_HOST: undefined };

function home() {
  const dir = tempDir('oxo-ai-setup-pty-');
  const h = path.join(dir, 'home');
  return { dir, file: path.join(h, 'ai_config.json'), env: { ...clean, OXO_FLOW_HOME: h } };
}

describe('ai setup on a terminal', () => {
  it('asks kind, model and key; writes the key to ai_config.json (mode 0600) and never shows it', async () => {
    const { dir, file, env } = home();
    const r = await runCliDialogue(
      ['ai', 'setup'],
      [
        { waitFor: 'Which AI provider?', send: DOWN }, // OpenAI → Anthropic
        { waitFor: 'Anthropic (Claude)', send: '\r' },
        { waitFor: 'Model', send: 'claude-pty-test\r' },
        { waitFor: 'API key', send: DOWN }, // read from a variable → type it now
        { waitFor: 'Type it now', send: '\r' },
        { waitFor: 'API key (typing is hidden)', send: `${KEY}\r` },
      ],
      { cwd: dir, env },
    );
    expect(r.stepsDone, r.screen).toBe(6);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('wrote');
    expect(r.screen).toContain('stored in the file (mode 0600)');
    // The masked prompt showed one * per key typed; neither the key nor any recognisable part of it
    // reached the terminal (no echo, no output).
    expect(r.screen).toContain('*'.repeat(KEY.length));
    expect(r.screen).not.toContain(KEY);
    expect(r.screen).not.toContain('PTYSECRET');
    expect(r.screen).not.toContain('7f3a9c');

    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ schema_version: 1, provider: 'anthropic', model: 'claude-pty-test', api_key: KEY });
    expect(config.key_env).toBeUndefined();
  });

  it('naming a variable stores its name, not a key', async () => {
    const { dir, file, env } = home();
    const r = await runCliDialogue(
      ['ai', 'setup'],
      [
        { waitFor: 'Which AI provider?', send: '\r' }, // OpenAI
        { waitFor: 'Model', send: '\r' }, // the default model
        { waitFor: 'API key', send: '\r' }, // read it from an environment variable
        { waitFor: 'Environment variable name', send: 'MY_LAB_OPENAI_KEY\r' },
      ],
      { cwd: dir, env },
    );
    expect(r.stepsDone, r.screen).toBe(4);
    expect(r.code, r.screen).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ provider: 'openai', model: 'gpt-5.4-mini', key_env: 'MY_LAB_OPENAI_KEY' });
    expect(config.api_key).toBeUndefined();
  });

  it('Ctrl-C at a question writes nothing and exits 130', async () => {
    const { dir, file, env } = home();
    const r = await runCliDialogue(
      ['ai', 'setup'],
      [
        { waitFor: 'Which AI provider?', send: '\r' },
        { waitFor: 'Model', send: '\x03' },
      ],
      { cwd: dir, env },
    );
    expect(r.stepsDone, r.screen).toBe(2);
    expect(r.code, r.screen).toBe(130);
    expect(r.screen).toContain('nothing was written');
    expect(existsSync(file)).toBe(false);
  });
});
