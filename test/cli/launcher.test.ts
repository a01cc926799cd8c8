// bin/oxo-flow.js: the bundle runs from the build's V8 code cache when Node has no compile cache of
// its own, a damaged or foreign cache never changes behaviour, and a missing build says what to do.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/run-cli.js';

const ROOT = path.resolve(__dirname, '../..');
const nodeHasCompileCache = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const GOOD = '[workflow]\nname = "g"\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\n';

/** A copy of the built package (bin, dist, package.json, templates; node_modules linked). */
function packageCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-launcher-'));
  for (const part of ['bin', 'dist', 'templates', 'skills-builtin', 'package.json']) cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'good.oxoflow'), GOOD);
  return dir;
}

function run(pkg: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [path.join(pkg, 'bin', 'oxo-flow.js'), ...args], { cwd: pkg, env: childEnv(env), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('launcher', () => {
  it.skipIf(nodeHasCompileCache)('the build leaves a code cache that V8 accepts for this bundle', () => {
    const launcher = createRequire(import.meta.url)(path.join(ROOT, 'bin', 'oxo-flow.js')) as {
      BUNDLE: string;
      cachePath(source: string): string | undefined;
      runBundle(source: string, cachedData?: Buffer): { script: { cachedDataRejected?: boolean } };
    };
    const source = readFileSync(launcher.BUNDLE, 'utf8');
    const cache = launcher.cachePath(source);
    expect(cache).toBeDefined();
    const { script } = launcher.runBundle(source, readFileSync(cache!));
    expect(script.cachedDataRejected).toBe(false);
  });

  it('a damaged cache is ignored: same output, same exit code', () => {
    const pkg = packageCopy();
    const clean = run(pkg, ['validate', 'good.oxoflow']);
    const caches = readdirSync(path.join(pkg, 'dist')).filter((n) => n.endsWith('.v8cache'));
    for (const name of caches) writeFileSync(path.join(pkg, 'dist', name), Buffer.alloc(4096, 7));
    const damaged = run(pkg, ['validate', 'good.oxoflow']);
    expect(damaged).toEqual(clean);
    expect(clean.code).toBe(0);
    rmSync(pkg, { recursive: true, force: true });
  });

  it('colour output (chalk, an ES module) works from the cached bundle', () => {
    const pkg = packageCopy();
    const r = run(pkg, ['validate', 'good.oxoflow'], { NO_COLOR: '', FORCE_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\u001b[32m✓');
    rmSync(pkg, { recursive: true, force: true });
  });

  it('without a build, says to run `npm run build` (exit 1, no stack trace)', () => {
    const pkg = mkdtempSync(path.join(tmpdir(), 'oxo-launcher-'));
    cpSync(path.join(ROOT, 'bin'), path.join(pkg, 'bin'), { recursive: true });
    const r = run(pkg, ['--version']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/oxo-flow: .*dist\/oxo-flow\.cjs is missing or unreadable; run `npm run build`/);
    expect(r.stderr).not.toContain('    at ');
    rmSync(pkg, { recursive: true, force: true });
  });
});
