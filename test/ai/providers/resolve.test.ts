import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProvider } from '../../../src/ai/providers/resolve.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'oxo-home-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('provider resolution (status only)', () => {
  it('nothing configured → disabled with a setup hint', () => {
    const p = resolveProvider({ env: {}, homeDir: home });
    expect(p).toMatchObject({ kind: 'disabled', kindSource: 'none', keyPresent: false });
    expect(p.hint).toContain('OXO_FLOW_AI_PROVIDER');
  });

  it('a key alone does not enable AI, but the hint says how', () => {
    const p = resolveProvider({ env: { OPENAI_API_KEY: 'sk-secret-123' }, homeDir: home });
    expect(p.kind).toBe('disabled');
    expect(p.hint).toContain('OXO_FLOW_AI_PROVIDER=openai');
  });

  it('flags beat env beat ai.toml beat workflow beat ai_config.json; the key is never serialised', () => {
    writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, provider: 'deepseek', model: 'deepseek-chat', api_key: 'sk-file-key' }));
    const env = { OXO_FLOW_AI_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-secret-123' };
    expect(resolveProvider({ env: {}, homeDir: home })).toMatchObject({ kind: 'deepseek', kindSource: 'ai_config.json', keyPresent: true, keySource: 'ai_config.json' });
    expect(resolveProvider({ env: {}, homeDir: home, workflow: { provider: 'ollama' } })).toMatchObject({ kind: 'ollama', kindSource: 'workflow', baseUrl: 'http://localhost:11434/v1' });
    expect(resolveProvider({ env: {}, homeDir: home, project: { provider: 'anthropic' }, workflow: { provider: 'ollama' } })).toMatchObject({ kind: 'anthropic', kindSource: 'ai.toml' });
    const p = resolveProvider({ env, homeDir: home, project: { provider: 'anthropic', model: 'm1' } });
    expect(p).toMatchObject({ kind: 'openai', kindSource: 'env', model: 'm1', modelSource: 'ai.toml', keyPresent: true, keySource: 'OPENAI_API_KEY' });
    expect(p.apiKey()).toBe('sk-secret-123');
    expect(JSON.stringify(p)).not.toContain('sk-secret-123');
    expect(resolveProvider({ env, homeDir: home, flags: { provider: 'scripted' } })).toMatchObject({ kind: 'scripted', kindSource: 'flag' });
  });

  it('OLLAMA_HOST sets the Ollama endpoint; no key needed', () => {
    const p = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'ollama', OLLAMA_HOST: '10.0.0.5:11434' }, homeDir: home });
    expect(p).toMatchObject({ baseUrl: 'http://10.0.0.5:11434/v1', baseUrlSource: 'env', keyPresent: false, diagnostics: [] });
  });

  it('a missing key is a warning; an unknown provider an error', () => {
    expect(resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'anthropic' }, homeDir: home }).diagnostics.map((d) => d.code)).toEqual(['PV004']);
    const bad = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'gpt' }, homeDir: home });
    expect(bad.kind).toBe('disabled');
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['PV001']);
  });

  it('ai_config.json with an unknown schema_version is refused as a whole, not half-read', () => {
    writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 2, provider: 'openai', api_key: 'k' }));
    const p = resolveProvider({ env: {}, homeDir: home });
    expect(p.kind).toBe('disabled');
    expect(p.diagnostics.map((d) => d.code)).toEqual(['PV003']);
    writeFileSync(path.join(home, 'ai_config.json'), '{ nope');
    expect(resolveProvider({ env: {}, homeDir: home }).diagnostics.map((d) => d.code)).toEqual(['PV002']);
  });

  it('models and fallback are read from ai_config.json', () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(
      path.join(home, 'ai_config.json'),
      JSON.stringify({ schema_version: 1, provider: 'openai', models: [{ id: 'gpt-x', aliases: ['fast'], context_window: 128000 }], fallback: { provider: 'ollama', model: 'llama3.1' } }),
    );
    const p = resolveProvider({ env: {}, homeDir: home });
    expect(p.models).toEqual([{ id: 'gpt-x', aliases: ['fast'], contextWindow: 128000 }]);
    expect(p.fallback).toEqual({ provider: 'ollama', model: 'llama3.1' });
  });
});
