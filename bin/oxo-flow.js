#!/usr/bin/env node
// The launcher. CommonJS (bin/package.json says so), which keeps Node's ES module loader out of the
// start-up path, and small: it loads the bundled CLI and runs it.
//
// Compiling the bundles is the largest single cost of a short command, so `npm run build` leaves a
// V8 code cache next to each bundle, taken after a warm-up run so it also holds the functions the
// everyday commands compile. V8 checks that a cache matches this Node version and these flags, and
// the file name carries the bundle's content hash, so a cache from another build is never used.
// Whenever a cache cannot be used, the bundle compiles as usual: the cache only ever saves time.
// The bundles are stored already wrapped as CommonJS functions (scripts/bundle.mjs): compile,
// call with (exports, require, module, __filename, __dirname), done.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const DIST = path.join(__dirname, '..', 'dist');
const BUNDLE = path.join(DIST, 'oxo-flow.cjs');
/** The core requires the second bundle by this name (scripts/bundle.mjs). */
const MORE_ID = './oxo-flow-more.cjs';
const MORE = path.join(DIST, MORE_ID);
/** The core requires the --ai review's own bundle by this name (scripts/bundle.mjs). */
const REVIEW_ID = './oxo-flow-review.cjs';
const REVIEW = path.join(DIST, REVIEW_ID);
/** The bundles that make requests take undici from this one, on the first request (scripts/bundle.mjs). */
const NET_ID = './oxo-flow-net.cjs';
const NET = path.join(DIST, NET_ID);
/**
 * First words of the commands that live in the second bundle, which carries its own copy of the
 * command line: they run from it alone, and the core is never loaded. Every other command line goes
 * to the core. Written by scripts/bundle.mjs from the command table (src/cli/command-table.ts).
 */
function moreCommands() {
  try {
    return new Set(JSON.parse(fs.readFileSync(path.join(DIST, 'more-commands.json'), 'utf8')));
  } catch {
    return new Set();
  }
}
/** A bundle's first line names its build: `// oxo-flow build <hash>`. */
const BUILD_LINE = /^\/\/ oxo-flow build ([0-9a-f]+)\n/;

/** The cache file for a bundle's source, or undefined when the bundle carries no build hash. */
function cachePath(file, source) {
  const m = BUILD_LINE.exec(source);
  return m ? path.join(DIST, `${path.basename(file, '.cjs')}-${m[1]}.v8cache`) : undefined;
}

function readOrUndefined(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Bundles run so far, with their compiled scripts (scripts/code-cache.cjs saves their code). */
const loaded = new Map();

/** Run a bundle as CommonJS would, compiled with its code cache when V8 accepts that. */
function loadBundle(file) {
  const done = loaded.get(file);
  if (done) return done.module.exports;
  // latin1: the bundles are ASCII (esbuild escapes everything else), and V8 keeps them one byte wide.
  const source = fs.readFileSync(file, 'latin1');
  const cache = cachePath(file, source);
  const script = new vm.Script(source, { filename: file, cachedData: cache && readOrUndefined(cache) });
  const bundleModule = { exports: {} };
  loaded.set(file, { module: bundleModule, script, cache });
  // The launcher's own require: packages resolve from the same node_modules as from dist/, and
  // node:module (createRequire) stays unloaded.
  const bundleRequire = (id) => (id === MORE_ID ? loadBundle(MORE) : id === REVIEW_ID ? loadBundle(REVIEW) : id === NET_ID ? loadBundle(NET) : require(id));
  script.runInThisContext()(bundleModule.exports, bundleRequire, bundleModule, file, DIST);
  return bundleModule.exports;
}

/** The bundle for a command line: the first word that is not an option names the command. */
function bundleFor(argv) {
  const command = argv.slice(2).find((arg) => !arg.startsWith('-'));
  return moreCommands().has(command) ? MORE : BUNDLE;
}

function main() {
  const bundle = bundleFor(process.argv);
  if (fs.existsSync(bundle)) {
    const cli = loadBundle(bundle);
    // Once the command is done and its output is out, exit: nothing is left to wait for, and an idle
    // process would otherwise spend time collecting garbage before it ends.
    return cli.main(process.argv).then(() => {
      if (cli.outputWritten()) process.exit();
    });
  }
  process.stderr.write(`oxo-flow: ${bundle} is missing; run \`npm run build\` in ${path.dirname(__dirname)}\n`);
  process.exitCode = 1;
}

if (require.main === module) main();
// scripts/code-cache.cjs writes the caches with the same loader.
else module.exports = { BUNDLE, MORE, REVIEW, NET, bundleFor, loadBundle, loaded };
