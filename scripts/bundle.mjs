#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/: one entry plus one lazily loaded chunk
// per command. On a cold start Node spends most of its time resolving, reading and compiling modules;
// a bundle of a few files instead of a hundred is what keeps `validate` and `dry-run` within their
// budgets (docs/benchmarks.md). Packages that only some commands need stay outside and load lazily.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: ['dist/cli/main.js'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // Loaded on demand (zod via require on the loader's error path, the AI layer's HTTP stack, colour).
  external: ['zod', 'undici', 'eventsource-parser', 'gray-matter', 'prompts', 'chalk'],
  // commander is CommonJS and requires Node built-ins; give the ESM chunks a require of their own.
  banner: { js: "import { createRequire as __oxoCreateRequire } from 'node:module'; const require = __oxoCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
