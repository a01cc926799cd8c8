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
//   completions), with its own copy of the command line: bin/oxo-flow.js runs those commands from it
//   alone. The core requires it when --ai asks for skills (or when one of those commands reaches the
//   core anyway). Modules both need are copied into each; they hold no state that must be shared.
//
// Packages that only some commands need stay outside both and load on demand, except gray-matter
// and its YAML parser: dozens of small files, cheaper to load as part of the second bundle.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/bundle`, { recursive: true, force: true });
for (const name of readdirSync(`${root}dist`)) if (name.endsWith('.v8cache')) rmSync(`${root}dist/${name}`);

/**
 * The modules (dist/, relative) that make up the second bundle's exports. bin/oxo-flow.js routes the
 * commands of the cli/commands/ entries here (MORE_COMMANDS); a command routed to either bundle still
 * runs, since both carry the command line, so a mismatch would cost only speed.
 */
const MORE = [
  'cli/commands/ai-status.js',
  'cli/commands/ai-skills.js',
  'cli/commands/ai-tools.js',
  'cli/commands/ai-call.js',
  'cli/commands/ai-lookup.js',
  'cli/commands/template.js',
  'cli/commands/init.js',
  'cli/commands/schema.js',
  'cli/commands/completions.js',
  'ai/skills/index.js',
  'ai/project.js',
  'ai/project-provider.js',
];
const isMore = (file) => MORE.some((m) => file.endsWith(`/dist/${m}`));

// Node built-ins that are slow to load (each pulls in dozens of internal modules: streams, net...)
// and that only some paths use. commander requires child_process at load time only to spawn
// executable subcommands, which oxo-flow never has; crypto hashes skills and MCP tool names, zlib
// writes a gzipped example file, readline runs the approval prompt, module's createRequire loads
// optional packages (zod, chalk) and tty. In the bundles each becomes a stand-in with the same
// property names (read from this Node at build time) that loads the real module on first use.
const LAZY_BUILTINS = ['child_process', 'crypto', 'zlib', 'readline', 'module'];
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
        contents: `let real;\nconst load = () => (real ??= require('node:${args.path}'));\nmodule.exports = { ${getters.join(', ')} };\n`,
        loader: 'js',
      };
    });
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
  // Loaded on demand: zod on the loader's error path, the AI layer's HTTP stack, the approval
  // prompt, colour. (gray-matter is bundled into the second bundle, which alone uses it.)
  external: ['zod', 'undici', 'eventsource-parser', 'prompts', 'chalk'],
  // The sources are ES modules that use import.meta.url (to create a require) and import.meta.dirname
  // (to find the package root); in a CommonJS bundle those are the bundle file's own URL (built when
  // first asked for) and directory.
  define: { 'import.meta.url': '__oxoImportMeta.url', 'import.meta.dirname': '__dirname' },
  banner: { js: "const __oxoImportMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['dist/cli/main.js'], outfile: 'dist/oxo-flow.cjs', plugins: [lazyBuiltins, moreFromCore] });
await build({
  ...common,
  // The second bundle also carries the command line itself: bin/oxo-flow.js runs the commands that
  // live here (ai, template, init, schema, completions) from it alone, without loading the core.
  stdin: { contents: ['cli/main.js', ...MORE].map((m) => `export * from './dist/${m}';`).join('\n'), resolveDir: root, loader: 'js' },
  outfile: 'dist/oxo-flow-more.cjs',
  plugins: [lazyBuiltins, noJsFunctionType],
});

// Each bundle is stored as a CommonJS module wrapper, ready for bin/oxo-flow.js to compile and call
// (so it never builds a second, wrapped copy of the source), under a first line that names the build
// by content hash; the launcher finds each bundle's code cache (scripts/code-cache.cjs) by that hash.
for (const name of ['oxo-flow.cjs', 'oxo-flow-more.cjs']) {
  const file = `${root}dist/${name}`;
  const text = readFileSync(file, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  writeFileSync(file, `// oxo-flow build ${hash}\n(function (exports, require, module, __filename, __dirname) {${text}\n})`);
}
