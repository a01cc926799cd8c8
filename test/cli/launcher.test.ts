// bin/oxo-flow.js: each bundle runs from the build's V8 code cache, each command goes to the bundle
// that holds it, a damaged cache never changes behaviour, and a missing build says what to do.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/run-cli.js';

const ROOT = path.resolve(__dirname, '../..');
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
  it('the build leaves a code cache per bundle that V8 accepts', () => {
    const launcher = createRequire(import.meta.url)(path.join(ROOT, 'bin', 'oxo-flow.js')) as {
      BUNDLE: string;
      MORE: string;
      loadBundle(file: string): unknown;
      loaded: Map<string, { script: { cachedDataRejected?: boolean }; cache?: string }>;
    };
    for (const file of [launcher.BUNDLE, launcher.MORE]) {
      launcher.loadBundle(file);
      const entry = launcher.loaded.get(file)!;
      expect(entry.cache).toMatch(/\.v8cache$/);
      expect(entry.script.cachedDataRejected).toBe(false);
    }
  });

  it('sends each command to the bundle that holds it, and every command runs from there', () => {
    const launcher = createRequire(import.meta.url)(path.join(ROOT, 'bin', 'oxo-flow.js')) as {
      BUNDLE: string;
      MORE: string;
      bundleFor(argv: string[]): string;
    };
    const argv = (...args: string[]) => ['node', 'oxo-flow', ...args];
    expect(launcher.bundleFor(argv('--json', 'validate', 'x.oxoflow'))).toBe(launcher.BUNDLE);
    expect(launcher.bundleFor(argv('--version'))).toBe(launcher.BUNDLE);
    expect(launcher.bundleFor(argv('-q', 'ai', 'status'))).toBe(launcher.MORE);
    for (const command of ['validate', 'lint', 'dry-run', 'graph', 'template', 'init', 'schema', 'completions', 'ai']) {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'oxo-flow.js'), command, '--help'], { env: childEnv(), encoding: 'utf8' });
      expect({ command, code: r.status, stderr: r.stderr }).toEqual({ command, code: 0, stderr: '' });
      expect(r.stdout).toContain(`Usage: oxo-flow ${command}`);
    }
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
    expect(r.stderr).toMatch(/oxo-flow: .*dist\/oxo-flow\.cjs is missing; run `npm run build`/);
    expect(r.stderr).not.toContain('    at ');
    rmSync(pkg, { recursive: true, force: true });
  });
});
