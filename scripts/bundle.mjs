#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from scripts/transpile.mjs) into three CommonJS files. On a cold
// start Node spends most of its time resolving, reading, compiling and linking code, and CommonJS
// files loaded by a CommonJS launcher (so Node never starts its ES module loader) are the fastest
// start measured here (docs/benchmarks.md).
//
// - dist/oxo-flow.cjs, the core: the command line, the workflow engine and the commands people run
//   over and over (validate, lint, dry-run, graph). V8 parses every byte of it on every start, so it
//   holds nothing else.
// - dist/oxo-flow-more.cjs: the AI layer, run and the occasional commands (the entries of the command
//   table marked 'more'), with its own copy of the command line: bin/oxo-flow.js runs those commands
//   from it alone. Each of its modules is evaluated on first use.
// - dist/oxo-flow-review.cjs: only what the core's `--ai` review of validate, lint and dry-run needs.
// Modules two bundles need are copied into each; they hold no state that must be shared.
//
// Packages that only some commands need stay outside and load on demand (zod, js-yaml, prompts,
// chalk); eventsource-parser (8 KB) is bundled. The AI layer's HTTP client, undici, is a fourth
// bundle, dist/oxo-flow-net.cjs, with its own code cache: the second and review bundles hold a
// stand-in that loads it on first use, which is the first request.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/bundle`, { recursive: true, force: true });
for (const name of readdirSync(`${root}dist`)) if (name.endsWith('.v8cache')) rmSync(`${root}dist/${name}`);

// Which command lives in which bundle is declared once, in the command table (src/cli/command-table.ts,
// compiled to dist/ before this script runs). The second bundle exports the modules of its
// commands; the launcher learns from dist/more-commands.json which first words to send there.
const { COMMANDS } = await import(`${root}dist/cli/command-table.js`);
const moreEntries = COMMANDS.filter((c) => c.bundle === 'more');
const MORE = [...new Set(moreEntries.map((c) => c.module))];
writeFileSync(`${root}dist/more-commands.json`, `${JSON.stringify([...new Set(moreEntries.map((c) => c.path[0]))])}\n`);
const isMore = (file) => MORE.some((m) => file.endsWith(`/dist/${m}`));

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

// undici is 110 files in node_modules; read from there on the first request it took longer than the
// rest of `--ai` together (bench/ai-overhead.mjs). It is bundled on its own, dist/oxo-flow-net.cjs
// (one read, compiled from its code cache), and the bundles that make requests hold a stand-in whose
// getters load it on first use: the launcher maps './oxo-flow-net.cjs' to that bundle.
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

// The --ai review of validate, lint and dry-run (src/cli/ai-review-run.ts) also gets a bundle of its
// own, dist/oxo-flow-review.cjs: the review needs a third of the second bundle, and V8 reads, and
// deserialises the code cache of, every byte of the bundle it loads (docs/benchmarks.md, --ai overhead).
// It also serves the core's one other AI read: `[ai] enabled` in ai.toml (src/cli/ai-review.ts).
const REVIEW_MODULES = ['cli/ai-review-run.js', 'ai/project.js'];
const isReview = (file) => REVIEW_MODULES.some((m) => file.endsWith(`/dist/${m}`));

// In the core, an import of a module that lives in the second bundle becomes that bundle (the review
// module, the review bundle). The core imports them all with import(), so esbuild defers the require
// until the command needs it.
const moreFromCore = {
  name: 'more-from-core',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = new URL(args.path, `file://${args.resolveDir}/`).pathname;
      if (isReview(file)) return { path: 'review', namespace: 'more-bundle' };
      return isMore(file) ? { path: 'more', namespace: 'more-bundle' } : undefined;
    });
    b.onResolve({ filter: /^\.\/oxo-flow-(more|review)\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'more-bundle' }, (args) => ({
      contents: `module.exports = require('./oxo-flow-${args.path}.cjs');`,
      loader: 'js',
    }));
  },
};

// js-yaml 3 builds a `!!js/function` type at load time and, for it, tries to require esprima (a large
// JavaScript parser). oxo-flow reads YAML with the FAILSAFE schema only, so in the bundle that type
// is a stand-in that matches nothing, and esprima is never loaded.
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

// js-yaml is read only for a front matter the fast path declines (src/ai/skills/simple-yaml.ts), so
// it is bundled behind a stand-in whose getters evaluate it on first use: ai status over a usual
// collection never runs its module code (its schemas and types are built at load).
const lazyYaml = {
  name: 'lazy-js-yaml',
  setup(b) {
    b.onResolve({ filter: /^js-yaml$/ }, (args) => (args.namespace === 'lazy-yaml' ? undefined : { path: 'js-yaml', namespace: 'lazy-yaml' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-yaml' }, () => {
      const names = Object.keys(buildRequire('js-yaml')).filter((n) => n !== 'default' && n !== '__esModule');
      const getters = names.map((n) => `get ${JSON.stringify(n)}() { return load()[${JSON.stringify(n)}]; }`);
      return { contents: `let real;\nconst load = () => (real ??= require('js-yaml'));\nmodule.exports = Object.create({ ${getters.join(', ')} });\n`, loader: 'js', resolveDir: root };
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
  // Loaded on demand: zod on the loader's error path, the approval prompt, colour. (js-yaml and
  // eventsource-parser, 8 KB, are bundled into the second bundle, which alone uses them.)
  external: ['zod', 'prompts', 'chalk'],
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
 * pay for `run`, `template` and the rest. As with `export *`, a name that two modules export with
 * different values is ambiguous and left out.
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
  const getters = [...owner].filter(([name]) => !ambiguous.has(name)).map(([name, { i }]) => `get ${JSON.stringify(name)}() { return load${i}()[${JSON.stringify(name)}]; }`);
  return `${lines.join('\n')}\nmodule.exports = { ${getters.join(', ')} };\n`;
}

const core = await build({ ...common, metafile: true, entryPoints: ['dist/cli/main.js'], outfile: 'dist/oxo-flow.cjs', plugins: [lazyBuiltins, lazyPackages, moreFromCore, sharedPath] });
const more = await build({
  metafile: true,
  ...common,
  // The second bundle also carries the command line itself: bin/oxo-flow.js runs the commands that
  // live here (ai, template, init, schema, completions) from it alone, without loading the core.
  stdin: { contents: await lazyEntry(['cli/main.js', ...MORE]), resolveDir: root, loader: 'js' },
  outfile: 'dist/oxo-flow-more.cjs',
  plugins: [lazyBuiltins, lazyPackages, lazyNet, lazyYaml, noJsFunctionType, sharedPath],
});

const review = await build({
  metafile: true,
  ...common,
  stdin: { contents: await lazyEntry(REVIEW_MODULES), resolveDir: root, loader: 'js' },
  outfile: 'dist/oxo-flow-review.cjs',
  plugins: [lazyBuiltins, lazyPackages, lazyNet, lazyYaml, noJsFunctionType, sharedPath],
});

// The net bundle: the part of undici that src/net/http.ts uses (EnvHttpProxyAgent and its pools, and
// the request method every dispatcher gets, as undici's own index.js gives it), not fetch, WebSocket,
// caches or mocks: evaluating the whole package cost about three times as much (bench/ai-overhead.mjs).
const NET_ENTRY = [
  "const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');",
  "Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));",
  "module.exports = { EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent.js'), Pool: require('undici/lib/dispatcher/pool.js') };",
].join('\n');
const net = await build({
  metafile: true,
  ...common,
  stdin: { contents: NET_ENTRY, resolveDir: root, loader: 'js' },
  outfile: 'dist/oxo-flow-net.cjs',
  plugins: [lazyBuiltins],
});

// What went into each bundle, for the build guards (test/architecture/bundles.test.ts).
const inputs = (result) => Object.keys(result.metafile.inputs).sort();
writeFileSync(`${root}dist/bundle-inputs.json`, `${JSON.stringify({ 'oxo-flow.cjs': inputs(core), 'oxo-flow-more.cjs': inputs(more), 'oxo-flow-review.cjs': inputs(review), 'oxo-flow-net.cjs': inputs(net) }, null, 1)}\n`);

// Each bundle is stored as a CommonJS module wrapper, ready for bin/oxo-flow.js to compile and call
// (so it never builds a second, wrapped copy of the source), under a first line that names the build
// by content hash; the launcher finds each bundle's code cache (scripts/code-cache.cjs) by that hash.
for (const name of ['oxo-flow.cjs', 'oxo-flow-more.cjs', 'oxo-flow-review.cjs', 'oxo-flow-net.cjs']) {
  const file = `${root}dist/${name}`;
  const text = readFileSync(file, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  writeFileSync(file, `// oxo-flow build ${hash}\n(function (exports, require, module, __filename, __dirname) {${text}\n})`);
}
