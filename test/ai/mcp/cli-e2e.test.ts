// The MCP client through the built CLI, end to end. Ctrl-C during a long `ai call`: the built CLI, the official SDK server, and either a
// plain SIGINT or Ctrl-C typed into a real pseudo-terminal (util-linux `script`). The server must
// see notifications/cancelled for the call and DELETE for the session, and the CLI must exit 130
// soon after. Also: progress notifications reach the screen on stderr, never stdout; the
// server's instructions are shown by ai tools.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../../helpers/mcp-cli.js';
import { startSdkFixture, type SdkFixture } from '../../helpers/mcp-sdk-server.js';
import { CLI, childEnv } from '../../helpers/run-cli.js';

let fixture: SdkFixture | undefined;
beforeEach(async () => {
  fixture = await startSdkFixture({ mode: 'sse', lifetimeMs: 120_000 });
});
afterEach(async () => {
  await fixture?.close();
});

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Start `ai call` of the slow tool; once the server runs it, interrupt; resolve with the exit. */
function interruptCall(how: 'signal' | 'pty'): Promise<{ code: number | null; output: string; afterInterruptMs: number }> {
  const args = [CLI, 'ai', 'call', 'mcp_fx_slow', '--args', '{"ms":60000}', '--mcp', `fx=${fixture!.url}`];
  const child =
    how === 'signal'
      ? spawn(process.execPath, args, { env: childEnv({ CI: undefined }), stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('script', ['-q', '-e', '-c', [process.execPath, ...args].map(quote).join(' '), '/dev/null'], { env: childEnv({ CI: undefined }), stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => {
    let interruptedAt = 0;
    const poll = setInterval(() => {
      if (interruptedAt === 0 && fixture!.calls.some((c) => c.name === 'slow')) {
        interruptedAt = Date.now();
        // In the pty, Ctrl-C is a keystroke: the terminal turns it into SIGINT for the CLI.
        if (how === 'signal') child.kill('SIGINT');
        else child.stdin!.write('\x03');
      }
    }, 20);
    const safety = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(safety);
      resolve({ code, output, afterInterruptMs: Date.now() - interruptedAt });
    });
  });
}

describe('Ctrl-C during ai call (built CLI, official SDK server)', () => {
  for (const how of ['signal', 'pty'] as const) {
    it(`${how === 'signal' ? 'SIGINT' : 'Ctrl-C in a real terminal'}: the server sees notifications/cancelled and DELETE; exit 130`, { timeout: 120_000 }, async () => {
      const r = await interruptCall(how);
      expect(r.code, r.output).toBe(130);
      // The call's own id, cancelled once, before the session ends; the tool stopped sleeping.
      const callId = fixture!.cancelled[0];
      expect(fixture!.posted.filter((m) => m.startsWith('notifications/cancelled')), r.output).toEqual([`notifications/cancelled ${callId}`]);
      expect(fixture!.deletes).toBe(1);
      expect(r.output).toContain('CLI130');
      expect(r.output).toContain('the server was told to cancel the call');
      // Not the 60 s the tool would have slept.
      expect(r.afterInterruptMs).toBeLessThan(15_000);
    });
  }
});

describe("the server's instructions", () => {
  it('are shown by ai tools (terminal-safe) and in its JSON, marked as not given to models', { timeout: 120_000 }, async () => {
    const human = await runCliAsync(['ai', 'tools', '--mcp', `fx=${fixture!.url}`]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout + human.stderr).toContain('    instructions from the server (not given to models):\n      Look a gene up before deleting its records.\n      \\x1b[31mNever');
    const json = await runCliAsync(['ai', 'tools', '--mcp', `fx=${fixture!.url}`, '--json']);
    expect(JSON.parse(json.stdout).servers[0].instructions).toBe('Look a gene up before deleting its records.\n\u001b[31mNever\u001b[0m skip the lookup.');
  });
});

describe('progress of a call', () => {
  it('is shown on stderr, one line per second at most off a terminal plus the last; stdout has only the result', { timeout: 120_000 }, async () => {
    const r = await runCliAsync(['ai', 'call', 'mcp_fx_progress', '--args', '{"steps":4,"everyMs":50}', '--mcp', `fx=${fixture!.url}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('done 4 steps\n');
    expect(r.stderr).toContain('  fx · progress: 4/4 (100%)');
    expect(r.stderr).toContain('  fx · progress: 1/4 (25%)');
    const json = await runCliAsync(['ai', 'call', 'mcp_fx_progress', '--args', '{"steps":2,"everyMs":20}', '--mcp', `fx=${fixture!.url}`, '--json']);
    expect(JSON.parse(json.stdout).result.text).toBe('done 2 steps');
    expect(json.stderr).toContain('fx · progress: 2/2 (100%)');
  });
});
