#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into one CommonJS file, dist/oxo-flow.cjs. On a cold
// start Node spends most of its time resolving, reading, linking and compiling modules: one CommonJS
// file (loaded by a CommonJS launcher, so Node never starts its ES module loader) is the fastest
// start measured here (docs/benchmarks.md). Each command's code still runs only when that command
// is chosen (esbuild wraps lazily imported modules), and packages that only some commands need stay
// outside the bundle and load on demand.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/bundle`, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/oxo-flow.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  // Loaded on demand (zod via require on the loader's error path, the AI layer's HTTP stack, colour).
  // chalk is ESM-only: esbuild keeps `import('chalk')` as a real dynamic import.
  external: ['zod', 'undici', 'eventsource-parser', 'gray-matter', 'prompts', 'chalk'],
  // The sources are ES modules that use import.meta.url (to find the package root and to create a
  // require); in the CommonJS bundle that is the bundle file's own URL.
  define: { 'import.meta.url': '__oxoImportMetaUrl' },
  banner: { js: "const __oxoImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
