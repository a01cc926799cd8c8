#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from scripts/transpile.mjs) into CommonJS for bin/oxo-flow.js. On a
// cold start Node spends most of its time resolving, reading, compiling and linking code; one CommonJS
// file required by a CommonJS launcher (so Node never starts its ES module loader) is the fastest
// start measured here (docs/benchmarks.md). Nothing in the output depends on the Node that runs the
// build: no code cache is written (Node 22 keeps its own, see bin/oxo-flow.js).
//
// SPLIT decides between one bundle and two (docs/architecture.md has the measurement):
// - dist/oxo-flow.cjs, the core: the command line, the workflow engine and the commands people run
//   over and over (validate, lint, dry-run, graph).
// - dist/oxo-flow-more.cjs: the AI layer, run and the occasional commands (the entries of the command
//   table marked 'more'), which the core requires when one of them runs; each of its modules is
//   evaluated on first use. Modules both need are copied into each; state one process sets once
//   (which caches to use) lives in src/process-state.ts, which every copy shares.
//
// Packages that only some commands need stay outside and load on first use (zod, prompts, chalk);
// undici, the AI layer's HTTP client, is a third file, dist/oxo-flow-net.cjs, that the bundles load
// on the first request (below); the rest is bundled. `ai lookup` (the table's `lookup` commands) is a
// fourth, dist/oxo-flow-lookup.cjs: it needs only the knowledge search, not the 650 KB second bundle.
import { build } from 'esbuild';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Files that builds before this one left in dist/: the code caches, the review bundle and the
// launcher's routing list are gone, and must not be shipped or loaded by mistake.
const STALE = /\.v8cache$|^oxo-flow-review\.cjs$|^more-commands\.json$/;
for (const name of readdirSync(`${root}dist`)) if (STALE.test(name)) rmSync(`${root}dist/${name}`);

/** Two bundles (core and more) or one: see the header and docs/architecture.md. */
const SPLIT = process.env.OXO_BUNDLE_SPLIT !== '0';
if (!SPLIT) for (const name of ['more', 'lookup']) rmSync(`${root}dist/oxo-flow-${name}.cjs`, { force: true });

// Which command lives in which bundle is declared once, in the command table (src/cli/command-table.ts,
// compiled to dist/ before this script runs). The core holds what it imports statically and the
// table's `core` commands; every other module it imports with import() (the table's `more` commands,
// the --ai review, its read of `[ai] enabled`) lives in the second bundle, which exports them.
const { COMMANDS } = await import(`${root}dist/cli/command-table.js`);
const CORE_COMMANDS = new Set(COMMANDS.filter((c) => c.bundle === 'core').map((c) => c.module));
/** Modules (relative to dist/) the second bundle exports: the table's `more` commands, and what the core build finds. */
const MORE = new Set(COMMANDS.filter((c) => c.bundle === 'more').map((c) => c.module));
/** The `lookup` commands: a third bundle, dist/oxo-flow-lookup.cjs, so `ai lookup` compiles none of the second. */
const LOOKUP = new Set(COMMANDS.filter((c) => c.bundle === 'lookup').map((c) => c.module));

// Every stand-in below keeps its getters on its prototype, not as own properties: esbuild's ES-module
// interop (__toESM) copies a CommonJS module's own properties into a new object for each module that
// imports it (crypto's eighty names five times over, at every start), but gives the copy the same
// prototype, so the getters are found there without a copy.
//
// Node built-ins that are slow to load (each pulls in dozens of internal modules: streams, net...)
// and that only some paths use. commander requires child_process at load time only to spawn
// executable subcommands, which oxo-flow never has; crypto hashes skills and MCP tool names, zlib
// writes a gzipped example file, readline runs the approval prompt, module's createRequire loads
// optional packages (zod, chalk) and tty, http and https (src/net) make the AI layer's requests.
// In the bundles each becomes a stand-in with the same property names (read from this Node at
// build time) that loads the real module on first use.
const LAZY_BUILTINS = ['child_process', 'crypto', 'zlib', 'readline', 'module', 'http', 'https', 'v8'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-builtin' ? undefined : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const names = Object.keys(await import(`node:${args.path}`)).filter((n) => n !== 'default');
      const getters = names.map((n) => `get ${JSON.stringify(n)}() { return load()[${JSON.stringify(n)}]; }`);
      return {
        contents: `let real;\nconst load = () => (real ??= require('node:${args.path}'));\nmodule.exports = Object.create({ ${getters.join(', ')} });\n`,
        loader: 'js',
      };
    });
  },
};

// Packages kept outside the bundles load on first use too: a module that imports zod (the workflow
// loader's error path, MCP message schemas built on first use) costs nothing until it is used. Each
// becomes a stand-in whose getters require the real package.
const LAZY_PACKAGES = ['zod'];
const buildRequire = createRequire(import.meta.url);
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    const filter = new RegExp(`^(${LAZY_PACKAGES.join('|')})$`);
    b.onResolve({ filter }, (args) => (args.namespace === 'lazy-package' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-package' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
      const names = Object.keys(buildRequire(args.path)).filter((n) => n !== 'default' && n !== '__esModule');
      const getters = names.map((n) => `get ${JSON.stringify(n)}() { return load()[${JSON.stringify(n)}]; }`);
      return {
        contents: `let real;\nconst load = () => (real ??= require(${JSON.stringify(args.path)}));\nmodule.exports = Object.create({ ${getters.join(', ')} });\n`,
        loader: 'js',
      };
    });
  },
};

// undici is 110 files in node_modules; read from there on the first request, the whole package cost
// about three times what the part src/net/http.ts uses does, bundled (docs/benchmarks.md, --ai
// overhead). So that part is bundled on its own, dist/oxo-flow-net.cjs, and the bundles that make
// requests hold a stand-in whose getters require it on first use: `ai status` and a review before its
// request never load it, and validate, lint and dry-run without --ai never do.
const lazyNet = {
  name: 'lazy-net',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'lazy-net' }));
    b.onResolve({ filter: /^\.\/oxo-flow-net\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-net' }, () => {
      const names = Object.keys(buildRequire('undici')).filter((n) => n !== 'default' && n !== '__esModule');
      const getters = names.map((n) => `get ${JSON.stringify(n)}() { return load()[${JSON.stringify(n)}]; }`);
      return { contents: `let real;\nconst load = () => (real ??= require('./oxo-flow-net.cjs'));\nmodule.exports = Object.create({ ${getters.join(', ')} });\n`, loader: 'js' };
    });
  },
};

// In the core, an import() of a module that is not a core command becomes the second bundle (and the
// module is added to its exports); esbuild defers that require until the command needs it.
const moreFromCore = {
  name: 'more-from-core',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!SPLIT || args.kind !== 'dynamic-import') return undefined;
      const rel = path.relative(`${root}dist`, new URL(args.path, `file://${args.resolveDir}/`).pathname).split(path.sep).join('/');
      if (CORE_COMMANDS.has(rel)) return undefined;
      if (LOOKUP.has(rel)) return { path: 'lookup', namespace: 'more-bundle' };
      MORE.add(rel);
      return { path: 'more', namespace: 'more-bundle' };
    });
    b.onResolve({ filter: /^\.\/oxo-flow-(more|lookup)\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'more-bundle' }, (args) => ({
      contents: `module.exports = require('./oxo-flow-${args.path}.cjs');`,
      loader: 'js',
    }));
  },
};

// js-yaml 3 (gray-matter's YAML parser) builds a `!!js/function` type at load time and, for it, tries
// to require esprima (a large JavaScript parser). oxo-flow reads YAML with the FAILSAFE schema only,
// so in the bundle that type is a stand-in that matches nothing, and esprima is never loaded.
const noJsFunctionType = {
  name: 'no-js-function-type',
  setup(b) {
    b.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, () => ({
      contents: "var Type = require('../../type'); module.exports = new Type('tag:yaml.org,2002:js/function', { kind: 'scalar', resolve: function () { return false; } });",
      loader: 'js',
    }));
  },
};

// `import path from 'node:path'` (38 modules) becomes `__toESM(require('node:path'))` in a CommonJS
// bundle: a fresh copy of path's properties for each importing module, made at load. Here path is one
// small ES module that every import shares, so its properties are read once.
const sharedPath = {
  name: 'shared-path',
  setup(b) {
    b.onResolve({ filter: /^(node:)?path$/ }, (args) => (args.namespace === 'shared-path' ? { path: 'node:path', external: true } : { path: 'path', namespace: 'shared-path' }));
    b.onLoad({ filter: /.*/, namespace: 'shared-path' }, async () => {
      const names = Object.keys(await import('node:path')).filter((n) => n !== 'default');
      return { contents: `const path = require('node:path');\nexport default path;\nexport const { ${names.join(', ')} } = path;\n`, loader: 'js' };
    });
  },
};

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  // OXO_PROFILE_NAMES=1 keeps function names, for reading CPU profiles of the bundles.
  minifyIdentifiers: !process.env.OXO_PROFILE_NAMES,
  legalComments: 'none',
  // Loaded on demand: the approval prompt, colour. zod (the classic API, on the loader's error path)
  // is a lazy stand-in (above); zod/mini, which the MCP message schemas use, is bundled: esbuild
  // keeps only the parts they use. (gray-matter, js-yaml and eventsource-parser are bundled into the
  // second bundle, which alone uses them.)
  external: ['prompts', 'chalk'],
  // The sources are ES modules that use import.meta.url (to create a require) and import.meta.dirname
  // (to find the package root); in a CommonJS bundle those are the bundle file's own URL (built when
  // first asked for) and directory.
  define: { 'import.meta.url': '__oxoImportMeta.url', 'import.meta.dirname': '__dirname' },
  banner: { js: "const __oxoImportMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  logLevel: 'warning',
};

/**
 * The second bundle's entry: the exports of the given modules, each module evaluated on first use
 * (esbuild wraps a module that is require()d in an init function). An `export *` of them all would
 * evaluate every command's modules whenever the bundle loads: an `--ai` review or `oxo-flow ai` would
 * pay for `run`, `template` and the rest. A name that two modules export with different values
 * would be ambiguous (`export *` leaves it out, and the core would then read undefined): the build
 * fails instead, naming it.
 */
async function lazyEntry(modules) {
  const lines = [];
  const owner = new Map();
  const ambiguous = new Set();
  for (const [i, m] of modules.entries()) {
    const ns = await import(`${root}dist/${m}`);
    lines.push(`let m${i}; const load${i} = () => (m${i} ??= require('./dist/${m}'));`);
    for (const name of Object.keys(ns)) {
      const first = owner.get(name);
      if (first === undefined) owner.set(name, { i, value: ns[name] });
      else if (first.value !== ns[name]) ambiguous.add(name);
    }
  }
  if (ambiguous.size > 0) throw new Error(`scripts/bundle.mjs: the second bundle's modules export ${[...ambiguous].join(', ')} with different values; rename one`);
  const getters = [...owner].map(([name, { i }]) => `get ${JSON.stringify(name)}() { return load${i}()[${JSON.stringify(name)}]; }`);
  return `${lines.join('\n')}\nmodule.exports = { ${getters.join(', ')} };\n`;
}

const core = await build({ ...common, metafile: true, entryPoints: ['dist/cli/main.js'], outfile: 'dist/oxo-flow.cjs', plugins: [lazyBuiltins, lazyPackages, lazyNet, moreFromCore, noJsFunctionType, sharedPath] });
const more = SPLIT
  ? await build({
      metafile: true,
      ...common,
      stdin: { contents: await lazyEntry([...MORE].sort()), resolveDir: root, loader: 'js' },
      outfile: 'dist/oxo-flow-more.cjs',
      plugins: [lazyBuiltins, lazyPackages, lazyNet, noJsFunctionType, sharedPath],
    })
  : undefined;

const lookup = SPLIT
  ? await build({
      metafile: true,
      ...common,
      stdin: { contents: await lazyEntry([...LOOKUP].sort()), resolveDir: root, loader: 'js' },
      outfile: 'dist/oxo-flow-lookup.cjs',
      plugins: [lazyBuiltins, lazyPackages, lazyNet, noJsFunctionType, sharedPath],
    })
  : undefined;

// The net bundle: the part of undici that src/net/http.ts uses (EnvHttpProxyAgent and its pools, and
// the request method every dispatcher gets, as undici's own index.js gives it), not fetch, WebSocket,
// caches or mocks.
const NET_ENTRY = [
  "const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');",
  "Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));",
  "module.exports = { EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent.js'), Pool: require('undici/lib/dispatcher/pool.js') };",
].join('\n');
const net = await build({ metafile: true, ...common, stdin: { contents: NET_ENTRY, resolveDir: root, loader: 'js' }, outfile: 'dist/oxo-flow-net.cjs', plugins: [lazyBuiltins] });

// What went into each bundle and which packages each requires at run time, for the build guards
// (test/architecture/bundles.test.ts).
const summary = (result) => ({
  inputs: Object.keys(result.metafile.inputs).sort(),
  external: [...new Set(Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))].sort(),
});
const bundles = { 'oxo-flow.cjs': summary(core), ...(more && { 'oxo-flow-more.cjs': summary(more) }), ...(lookup && { 'oxo-flow-lookup.cjs': summary(lookup) }), 'oxo-flow-net.cjs': summary(net) };
writeFileSync(`${root}dist/bundle-inputs.json`, `${JSON.stringify(bundles, null, 1)}\n`);
