// Which modules the built CLI loads (spawns bin/oxo-flow.js): the deterministic commands (validate,
// lint, dry-run) never load the second bundle (the AI layer, run, the occasional commands), undici,
// prompts or zod; only a file that does not conform makes the loader require zod, to explain why.
// A preload script records require.cache and the built-in modules Node loaded, at exit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
  const out = path.join(dir, `loaded-${args.join('-')}.json`);
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

  it('ai status loads the second bundle (so the check above can fail)', () => {
    const r = loaded(['ai', 'status']);
    expect(r.code).toBe(0);
    expect(r.files.some((f) => f.endsWith('dist/oxo-flow-more.cjs'))).toBe(true);
  });
});
