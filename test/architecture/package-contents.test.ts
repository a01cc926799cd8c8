// What `npm pack` ships (spawns `npm pack --dry-run --json`): the launcher, the two bundles, the two
// knowledge files and the data folders, as docs/architecture.md lists them, and nothing tied to the
// Node that made the build (no code cache, no native addon) and no transpiled tree or test.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

describe('npm pack', () => {
  it('ships the launcher, the bundles, the knowledge files and the data folders, nothing else', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const files = ((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files).map((f) => f.path).sort();
    const top = (f: string) => (/^(skills-builtin|knowledge-graph|templates)\//.test(f) ? `${f.split('/')[0]}/` : f);
    expect([...new Set(files.map(top))].sort()).toEqual(
      ['README.md', 'bin/oxo-flow.js', 'bin/package.json', 'dist/builtin-skills.json', 'dist/knowledge-index.json', 'dist/oxo-flow-lookup.cjs', 'dist/oxo-flow-more.cjs', 'dist/oxo-flow-net.cjs', 'dist/oxo-flow.cjs', 'knowledge-graph/', 'package.json', 'skills-builtin/', 'templates/'].sort(),
    );
    expect(files.filter((f) => /\.(v8cache|node|wasm|ts)$/.test(f))).toEqual([]);
    // Each entry is named in docs/architecture.md's list of the package.
    const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    for (const entry of new Set(files.map(top))) expect(doc, entry).toContain(entry.replace(/\/$/, ''));
  });
});
