// The installed package's root (where package.json, templates/ and skills-builtin/ live), found by
// walking up from this module. The same answer from src/ (tests), dist/ (tsc output) and the bundle.
import { readFileSync } from 'node:fs';
import path from 'node:path';

let root: { dir: string; version: string } | undefined;

function findRoot(): { dir: string; version: string } {
  if (root !== undefined) return root;
  let dir = import.meta.dirname;
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'oxo-flow') return (root = { dir, version: pkg.version ?? '0.0.0' });
    } catch {
      // no package.json here: keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('oxo-flow: cannot find the package root (package.json) above ' + import.meta.dirname);
    dir = parent;
  }
}

export function packageRoot(): string {
  return findRoot().dir;
}

export function packageVersion(): string {
  return findRoot().version;
}
