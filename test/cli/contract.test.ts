// Issue 9, contract defects: each through the built CLI. One exit point, one JSON document on every
// path, Ctrl-C handled for every command, unknown subcommands named as such, `--samples ''` a usage
// error, and documentation that matches what the CLI does.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, childEnv, runCli } from '../helpers/run-cli.js';
import { startRawServer, type RawServer } from '../helpers/mcp-raw-server.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-contract-'));
  expect(runCli(['init', 'proj'], { cwd: dir }).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const proj = () => path.join(dir, 'proj');

/** stdout is exactly one JSON document with the fields every document has. */
function oneDocument(stdout: string): { command: string; exit_code: number; ok: boolean; diagnostics: { code: string; message: string; hint?: string }[]; counts: Record<string, number> } {
  const doc = JSON.parse(stdout);
  for (const key of ['schema_version', 'command', 'ok', 'exit_code', 'diagnostics', 'counts']) expect(doc, key).toHaveProperty(key);
  return doc;
}

describe('--json prints one document on every path', () => {
  it.each([
    [['ai', 'skills'], 'ai skills', 'needs a command: list, show, validate, new'],
    [[], 'oxo-flow', 'needs a command'],
    [['ai', 'tool'], 'ai', "unknown command 'oxo-flow ai tool'"],
    [['nosuch'], 'nosuch', "unknown command 'nosuch'"],
    [['dry-run', '--bogus'], 'dry-run', "unknown option '--bogus'"],
  ])('%j', (args, command, message) => {
    const r = runCli(['--json', ...args], { cwd: proj() });
    expect(r.code).toBe(2);
    const doc = oneDocument(r.stdout);
    expect(doc).toMatchObject({ command, ok: false, exit_code: 2, counts: { error: 1 } });
    expect(doc.diagnostics[0]!.code).toBe('CLI001');
    expect(doc.diagnostics[0]!.message).toContain(message);
  });
});

describe('unknown subcommands under a group', () => {
  it.each([
    [['ai', 'tool'], "unknown command 'oxo-flow ai tool'", 'did you mean `oxo-flow ai tools`?'],
    [['ai', 'skill', 'list'], "unknown command 'oxo-flow ai skill'", 'did you mean `oxo-flow ai skills`?'],
    [['ai', 'skills', 'lst'], "unknown command 'oxo-flow ai skills lst'", 'did you mean `oxo-flow ai skills list`?'],
  ])('%j → unknown command, did you mean', (args, message, hint) => {
    const r = runCli(args, { cwd: proj() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error CLI001: ${message}`);
    expect(r.stderr).toContain(hint);
  });

  it('a workflow file after `ai` is still the default command’s argument', () => {
    const r = runCli(['ai', 'main.oxoflow'], { cwd: proj() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('AI status');
  });
});

describe('--samples', () => {
  it.each([[''], ['a,,b']])('%j is a usage error (exit 2, CLI031), not two wrong errors', (value) => {
    const r = runCli(['--json', 'dry-run', '--samples', value], { cwd: proj() });
    expect(r.code).toBe(2);
    expect(oneDocument(r.stdout).diagnostics.map((d) => d.code)).toEqual(['CLI031']);
  });
});

describe('Ctrl-C', () => {
  let server: RawServer;
  let connecting: () => void = () => {};
  let connected = new Promise<void>((resolve) => (connecting = resolve));
  beforeAll(async () => {
    // An MCP server that takes the initialize request and never answers it.
    server = await startRawServer(({ message }) => {
      if (message.method !== 'initialize') return undefined;
      connecting();
      return new Promise<boolean>(() => {});
    });
  });
  afterAll(() => server.close());

  function interruptWhileConnecting(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    connected = new Promise<void>((resolve) => (connecting = resolve));
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args, '--mcp', `slow=${server.url}`], { cwd: proj(), env: childEnv({ CI: '1' }) });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      void connected.then(() => child.kill('SIGINT'));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('while connecting to an MCP server: one JSON document with CLI130, exit 130', async () => {
    const r = await interruptWhileConnecting(['--json', 'ai', 'tools']);
    expect(r.code).toBe(130);
    const doc = oneDocument(r.stdout);
    expect(doc).toMatchObject({ command: 'ai tools', ok: false, exit_code: 130 });
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['CLI130']);
  });

  it('in human mode: CLI130 on stderr, exit 130', async () => {
    const r = await interruptWhileConnecting(['ai', 'call', 'mcp_slow_x']);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error CLI130: `oxo-flow ai call` was interrupted');
  });
});

describe('documentation matches the CLI', () => {
  it('every `oxo-flow dry-run KEY=VALUE` example in docs/cli.md works in a fresh `oxo-flow init` project', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../docs/cli.md'), 'utf8');
    const examples = [...doc.matchAll(/`oxo-flow dry-run ([A-Za-z_]+=(?:"[^"]*"|\S+?))`/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const [key, value] = [example.slice(0, example.indexOf('=')), example.slice(example.indexOf('=') + 1).replace(/^"|"$/g, '')];
      const r = runCli(['dry-run', `${key}=${value}`], { cwd: proj() });
      expect({ example, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ example, code: 0, stderr: '' });
    }
  });

  it('`ai status --help` says what --check does: it contacts the MCP servers and sends the provider one small request', () => {
    const r = runCli(['ai', 'status', '--help']);
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('connect to the MCP servers of active tool skills and send the provider one small request');
    expect(text).not.toContain('the provider is not contacted');
  });
});
