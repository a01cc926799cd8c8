// Which modules the built CLI loads (spawns bin/oxo-flow.js): the deterministic commands (validate,
// lint, dry-run) never load the second bundle (the AI layer, run, the occasional commands), undici,
// prompts or zod; only a file that does not conform makes the loader require zod, to explain why.
// A preload script records require.cache and the built-in modules Node loaded, at exit.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEverything } from '../helpers/mcp-everything.js';
import { CLI, childEnv } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'oxo-loaded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PRELOAD = path.join(dir, 'record.cjs');
writeFileSync(
  PRELOAD,
  `process.on('exit', () => require('node:fs').writeFileSync(process.env.OXO_LOADED_OUT, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)) })));\n`,
);
writeFileSync(path.join(dir, 'good.oxoflow'), '[workflow]\nname = "g"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\n');
writeFileSync(path.join(dir, 'bad.oxoflow'), '[workflow]\nname = "g"\n\n[[rules]]\nname = "a"\noutput = "a.txt"\nshell = 3\n');

function loaded(args: string[]): { code: number | null; files: string[]; builtins: string[] } {
  const out = path.join(dir, `loaded-${args.join('-').replace(/[^\w.-]/g, '_')}.json`);
  const r = spawnSync(process.execPath, ['-r', PRELOAD, CLI, ...args], { cwd: dir, env: childEnv({ OXO_LOADED_OUT: out }), encoding: 'utf8' });
  const { files, builtins } = JSON.parse(readFileSync(out, 'utf8')) as { files: string[]; builtins: string[] };
  return { code: r.status, files: files.map((f) => f.split(path.sep).join('/')), builtins };
}

const AI_OR_MORE = /dist\/oxo-flow-more\.cjs$|node_modules\/(undici|prompts|zod|eventsource-parser|gray-matter|js-yaml)\//;

describe('modules the built CLI loads', () => {
  it.each([
    ['validate', 'good.oxoflow'],
    ['lint', 'good.oxoflow'],
    ['dry-run', 'good.oxoflow'],
    ['--json', 'dry-run', 'good.oxoflow'],
  ])('%s %s loads neither the second bundle, undici, prompts nor zod', (...args) => {
    const r = loaded(args);
    expect(r.code).toBe(0);
    expect(r.files.some((f) => f.endsWith('dist/oxo-flow.cjs'))).toBe(true);
    expect(r.files.filter((f) => AI_OR_MORE.test(f))).toEqual([]);
    // Nor Node's HTTP stack (undici's and node:http's load path).
    expect(r.builtins.filter((m) => /^(http|https|_http_client|net|tls|child_process)$/.test(m))).toEqual([]);
  });

  it('the skill discovery cache is not in the core bundle, and validate, lint and dry-run never create it', () => {
    const { inputs } = (JSON.parse(readFileSync(path.join(CLI, '..', '..', 'dist', 'bundle-inputs.json'), 'utf8')) as Record<string, { inputs: string[] }>)['oxo-flow.cjs']!;
    expect(inputs.filter((f) => /ai\/skills\//.test(f))).toEqual([]);
    const home = path.join(dir, 'home');
    for (const args of [['validate', 'good.oxoflow'], ['lint', 'good.oxoflow'], ['dry-run', 'good.oxoflow']]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env: childEnv({ OXO_FLOW_HOME: home }), encoding: 'utf8' });
      expect(r.status).toBe(0);
    }
    // (test/cli/ai-skill-cache.test.ts shows that an AI command does create it.)
    expect(existsSync(home)).toBe(false);
  });

  it('a file that does not conform loads zod (to explain why), still not the AI layer', () => {
    const r = loaded(['validate', 'bad.oxoflow']);
    expect(r.code).toBe(1);
    expect(r.files.some((f) => /node_modules\/zod\//.test(f))).toBe(true);
    expect(r.files.filter((f) => /dist\/oxo-flow-more\.cjs$|node_modules\/(undici|prompts)\//.test(f))).toEqual([]);
  });

  it('ai tools against a real MCP server validates its messages with the bundled zod/mini: zod is never required from node_modules', async () => {
    const server = await startEverything();
    try {
      const r = loaded(['--json', 'ai', 'tools', '--mcp', `ev=${server.url}`]);
      expect(r.code).toBe(0);
      expect(r.files.some((f) => f.endsWith('dist/oxo-flow-net.cjs'))).toBe(true); // it did talk to the server
      expect(r.files.filter((f) => /node_modules\/zod\//.test(f))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('an MCP result that does not match the schema is MCP007 with zod\'s English message, from the built CLI', async () => {
    // A server (its own process) whose initialize result has a number for serverInfo.name.
    const script = `const s = require('node:http').createServer((req, res) => { let b = ''; req.on('data', (d) => (b += d)); req.on('end', () => { if (req.method !== 'POST') return res.writeHead(405).end(); const m = JSON.parse(b); res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 5 } } })); }); }); s.listen(0, '127.0.0.1', () => console.log(s.address().port)); setTimeout(() => process.exit(0), 60000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(String(d).trim())));
      const r = spawnSync(process.execPath, [CLI, '--json', 'ai', 'tools', '--mcp', `bad=http://127.0.0.1:${port}/mcp`], { cwd: dir, env: childEnv({}), encoding: 'utf8' });
      const doc = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] };
      const d = doc.diagnostics.find((x) => x.code === 'MCP007');
      expect(d?.message).toContain('serverInfo.name: Invalid input: expected string, received number');
    } finally {
      child.kill();
    }
  });

  it('ai status loads the second bundle (so the check above can fail)', () => {
    const r = loaded(['ai', 'status']);
    expect(r.code).toBe(0);
    expect(r.files.some((f) => f.endsWith('dist/oxo-flow-more.cjs'))).toBe(true);
  });
});
