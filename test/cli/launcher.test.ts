// bin/oxo-flow.js, spawned as a user runs it: every command runs from the bundles, the build ships
// nothing made for the Node that built it (no V8 code cache), and a missing build says what to do.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('launcher (spawns bin/oxo-flow.js)', () => {
  it('every command runs from the build, with the Node running the tests', () => {
    for (const command of ['validate', 'lint', 'dry-run', 'graph', 'run', 'template', 'init', 'schema', 'completions', 'ai']) {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'oxo-flow.js'), command, '--help'], { env: childEnv(), encoding: 'utf8' });
      expect({ command, code: r.status, stderr: r.stderr }).toEqual({ command, code: 0, stderr: '' });
      expect(r.stdout).toContain(`Usage: oxo-flow ${command}`);
    }
  });

  it('the build holds no code cache or other file made for the builder’s Node', () => {
    const files = readdirSync(path.join(ROOT, 'dist'));
    expect(files.filter((n) => /\.(v8cache|node)$/.test(n))).toEqual([]);
    expect(files.filter((n) => n.endsWith('.cjs')).sort()).toEqual(['oxo-flow-lookup.cjs', 'oxo-flow-more.cjs', 'oxo-flow-net.cjs', 'oxo-flow.cjs']);
  });

  it('a stale code cache left by an older build is not used: same output, same exit code', () => {
    const pkg = packageCopy();
    const clean = run(pkg, ['validate', 'good.oxoflow']);
    writeFileSync(path.join(pkg, 'dist', 'oxo-flow-0123456789abcdef.v8cache'), Buffer.alloc(4096, 7));
    expect(run(pkg, ['validate', 'good.oxoflow'])).toEqual(clean);
    expect(clean.code).toBe(0);
    rmSync(pkg, { recursive: true, force: true });
  });

;

  it('colour output (chalk, an ES module, required) works from the bundle', () => {
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
