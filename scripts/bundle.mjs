#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into two CommonJS files. On a cold start Node spends
// most of its time resolving, reading, compiling and linking code, and CommonJS files loaded by a
// CommonJS launcher (so Node never starts its ES module loader) are the fastest start measured here
// (docs/benchmarks.md).
//
// - dist/oxo-flow.cjs, the core: the command line, the workflow engine and the commands people run
//   over and over (validate, lint, dry-run, graph). V8 parses every byte of it on every start, so it
//   holds nothing else.
// - dist/oxo-flow-more.cjs: the AI layer and the occasional commands (ai, template, init, schema,
//   completions). The core requires it only when one of those runs, or when --ai asks for the
//   skills. Modules both need are copied into each; they hold no state that has to be shared.
//
// Packages that only some commands need stay outside both and load on demand.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/bundle`, { recursive: true, force: true });
for (const name of readdirSync(`${root}dist`)) if (name.endsWith('.v8cache')) rmSync(`${root}dist/${name}`);

/** The modules (dist/, relative) that make up the second bundle's exports. */
const MORE = [
  'cli/commands/ai-status.js',
  'cli/commands/ai-skills.js',
  'cli/commands/ai-tools.js',
  'cli/commands/ai-call.js',
  'cli/commands/template.js',
  'cli/commands/init.js',
  'cli/commands/schema.js',
  'cli/commands/completions.js',
  'ai/skills/index.js',
  'ai/project.js',
  'ai/project-provider.js',
];
const isMore = (file) => MORE.some((m) => file.endsWith(`/dist/${m}`));

// commander requires node:child_process at load time, only to spawn executable subcommands, which
// oxo-flow never uses. Loading it (and net, stream and dgram behind it) costs several milliseconds
// of every start, so commander gets a stand-in that loads the real module on first use.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
      loader: 'js',
    }));
  },
};

// In the core, an import of a module that lives in the second bundle becomes that bundle. The core
// imports them all with import(), so esbuild defers the require until the command needs it.
const moreFromCore = {
  name: 'more-from-core',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = new URL(args.path, `file://${args.resolveDir}/`).pathname;
      return isMore(file) ? { path: 'more', namespace: 'more-bundle' } : undefined;
    });
    b.onResolve({ filter: /^\.\/oxo-flow-more\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'more-bundle' }, () => ({
      contents: "module.exports = require('./oxo-flow-more.cjs');",
      loader: 'js',
    }));
  },
};

const common = {
  absWorkingDir: root,
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
  // require); in a CommonJS bundle that is the bundle file's own URL.
  define: { 'import.meta.url': '__oxoImportMetaUrl' },
  banner: { js: "const __oxoImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['dist/cli/main.js'], outfile: 'dist/oxo-flow.cjs', plugins: [lazyChildProcess, moreFromCore] });
await build({
  ...common,
  stdin: { contents: MORE.map((m) => `export * from './dist/${m}';`).join('\n'), resolveDir: root, loader: 'js' },
  outfile: 'dist/oxo-flow-more.cjs',
  plugins: [lazyChildProcess],
});

// The core's first line names its build by content hash; bin/oxo-flow.js uses it to find the code
// cache that scripts/code-cache.cjs writes for exactly this bundle.
const core = `${root}dist/oxo-flow.cjs`;
const text = readFileSync(core, 'utf8');
writeFileSync(core, `// oxo-flow build ${createHash('sha256').update(text).digest('hex').slice(0, 16)}\n${text}`);
