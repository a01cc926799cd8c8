// The official MCP conformance suite's client scenarios, every one, run against the built CLI (through
// test/helpers/mcp-conformance-client.mjs, which answers the approval prompt in a real pseudo-terminal
// and, for the auth scenarios, logs in with a stand-in browser first). The test prints the table.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const suite = path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const wrapper = path.resolve(__dirname, '../../helpers/mcp-conformance-client.mjs');

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function runScenario(scenario: string): Promise<{ code: number | null; output: string; checks: Check[] }> {
  const env = { ...process.env, MCP_CONFORMANCE_SCENARIO: scenario };
  const out = mkdtempSync(path.join(os.tmpdir(), 'oxo-conformance-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, 'client', '--command', `${process.execPath} ${wrapper}`, '--scenario', scenario, '--timeout', '30000', '-o', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const checks: Check[] = [];
      const walk = (dir: string) => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          if (e.isDirectory()) walk(path.join(dir, e.name));
          else if (e.name === 'checks.json') checks.push(...(JSON.parse(readFileSync(path.join(dir, e.name), 'utf8')) as Check[]));
        }
      };
      walk(out);
      rmSync(out, { recursive: true, force: true });
      resolve({ code, output, checks });
    });
  });
}

const SCENARIOS = [
  'initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults',
  'auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3', 'auth/basic-cimd',
  'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported', 'auth/scope-omitted-when-undefined',
  'auth/scope-step-up', 'auth/scope-retry-limit', 'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none', 'auth/resource-mismatch', 'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/client-credentials-jwt', 'auth/client-credentials-basic',
];
/** Run the scenarios a few at a time (each starts its own mock server and our CLI). */
async function runAll(names: string[], parallel = 4) {
  const results = new Map<string, Awaited<ReturnType<typeof runScenario>>>();
  const queue = [...names];
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (queue.length > 0) {
      const name = queue.shift()!;
      results.set(name, await runScenario(name));
    }
  }));
  return results;
}

describe('MCP conformance suite 0.1.13, client scenarios', () => {
  it('passes every check of every client scenario; prints the table', { timeout: 600_000 }, async () => {
    const results = await runAll(SCENARIOS);
    const rows = SCENARIOS.map((name) => {
      const checks = results.get(name)!.checks;
      const passed = checks.filter((c) => c.status === 'SUCCESS').length;
      const failed = checks.filter((c) => c.status === 'FAILURE');
      return { name, passed, total: passed + failed.length, failed: failed.map((c) => c.id) };
    });
    console.log(['scenario                                     checks passed', ...rows.map((r) => `${r.name.padEnd(44)} ${r.passed}/${r.total}${r.failed.length > 0 ? `  (failed: ${r.failed.join(', ')})` : ''}`)].join('\n'));
    for (const r of rows) {
      expect(r.total, `${r.name}: no checks ran\n${results.get(r.name)!.output}`).toBeGreaterThan(0);
      expect(r.failed.sort(), `${r.name}\n${results.get(r.name)!.output.slice(-3000)}`).toEqual([]);
    }
    expect(results.get('tools_call')!.checks.find((c) => c.id === 'tool-add-numbers')?.status).toBe('SUCCESS');
    expect(results.get('sse-retry')!.checks.find((c) => c.id === 'client-sse-graceful-reconnect')?.status).toBe('SUCCESS');
  });
});
