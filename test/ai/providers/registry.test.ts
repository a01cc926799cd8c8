// One provider registry, every list derived from it: the kinds resolve.ts accepts, the wire family
// create.ts builds, `ai setup --help`, shell completions, the PV001 hint and docs/ai.md's table.
// Adding a kind to the registry is enough for all of them (this test would name the one that lags).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnthropicChat } from '../../../src/ai/providers/anthropic.js';
import { createChatProvider } from '../../../src/ai/providers/create.js';
import { OpenAiChat } from '../../../src/ai/providers/openai.js';
import { ALL_KINDS, canonicalKind, MODEL_KINDS, PROVIDERS } from '../../../src/ai/providers/registry.js';
import { resolveProvider } from '../../../src/ai/providers/resolve.js';
import { runCli } from '../../helpers/run-cli.js';

const home = () => mkdtempSync(path.join(tmpdir(), 'oxo-registry-'));

describe('the provider registry', () => {
  it.each(PROVIDERS.map((p) => [p.kind, p] as const))('%s resolves and builds a client of its wire family', (kind, info) => {
    const env = { OXO_FLOW_AI_PROVIDER: kind.toUpperCase(), OXO_FLOW_AI_BASE_URL: 'http://127.0.0.1:9/v1', OXO_FLOW_AI_MODEL: 'm', OXO_FLOW_AI_API_KEY: 'k-1234' };
    const resolved = resolveProvider({ env, homeDir: home() });
    expect(resolved.kind).toBe(kind);
    const client = createChatProvider(resolved, { env });
    // Inside the retry wrapper: the wire client.
    const inner = (client as unknown as { inner: unknown }).inner;
    expect(inner).toBeInstanceOf(info.wire === 'anthropic' ? AnthropicChat : OpenAiChat);
  });

  it('aliases and case: claude is anthropic; an unknown kind lists every kind in its hint', () => {
    expect(canonicalKind(' Claude ')).toBe('anthropic');
    expect(canonicalKind('gemini')).toBeUndefined();
    const r = resolveProvider({ env: { OXO_FLOW_AI_PROVIDER: 'gemini' }, homeDir: home() });
    expect(r.kind).toBe('disabled');
    for (const k of ALL_KINDS) expect(r.diagnostics[0]!.hint).toContain(k);
  });

  it('ai setup --help and the shell completions name every kind', () => {
    const help = runCli(['ai', 'setup', '--help']);
    for (const k of MODEL_KINDS) expect(help.stdout + help.stderr, k).toContain(k);
    const bash = runCli(['completions', 'bash']).stdout;
    for (const k of MODEL_KINDS) expect(bash, k).toContain(k);
  });

  it('docs/ai.md’s provider table is generated from the registry and current', () => {
    expect(() => execFileSync(process.execPath, [path.resolve(__dirname, '../../../scripts/gen-provider-doc.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
