// The official MCP conformance suite's client scenarios `initialize`, `tools_call` and `sse-retry`, run by the
// test against the built CLI (through test/helpers/mcp-conformance-client.mjs, which answers the
// approval prompt in a real pseudo-terminal).
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
  const out = mkdtempSync(path.join(os.tmpdir(), 'oxo-conformance-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, 'client', '--command', `${process.execPath} ${wrapper}`, '--scenario', scenario, '--timeout', '30000', '-o', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
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

describe('MCP conformance suite 0.1.13, client scenarios', () => {
  it.each(['initialize', 'tools_call', 'sse-retry'])('%s passes', async (scenario) => {
    const r = await runScenario(scenario);
    const failures = r.checks.filter((c) => c.status === 'FAILURE');
    expect(failures, r.output).toEqual([]);
    expect(r.checks.some((c) => c.status === 'SUCCESS'), r.output).toBe(true);
    if (scenario === 'tools_call') expect(r.checks.find((c) => c.id === 'tool-add-numbers')?.status).toBe('SUCCESS');
    if (scenario === 'sse-retry') expect(r.checks.find((c) => c.id === 'client-sse-graceful-reconnect')?.status).toBe('SUCCESS');
    if (scenario === 'initialize') expect(r.checks.find((c) => c.id === 'mcp-client-initialization')?.status).toBe('SUCCESS');
    expect(r.code, r.output).toBe(0);
  });
});
