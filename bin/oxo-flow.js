#!/usr/bin/env node
// The launcher. CommonJS (bin/package.json says so), which keeps Node's ES module loader out of the
// start-up path, and small: it only decides how to compile the bundled CLI, then runs it.
//
// Compiling the bundle is the largest single cost of a short command. Node 22+ caches compiled code
// itself (module.enableCompileCache). On Node 20, `npm run build` leaves a V8 code cache next to the
// bundle, written after a warm-up run so it also holds the functions those commands compile; V8 checks
// that it matches this Node and these flags, and the file name carries the bundle's content hash, so
// a cache from another build is never used. Whenever the cache cannot be used, the bundle compiles as
// usual: the cache only ever saves time.
'use strict';
const fs = require('node:fs');
const nodeModule = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const BUNDLE = path.join(__dirname, '..', 'dist', 'oxo-flow.cjs');
/** The bundle's first line names its build: `// oxo-flow build <hash>`. */
const BUILD_LINE = /^\/\/ oxo-flow build ([0-9a-f]+)\n/;

/** The cache file for a bundle source, or undefined when the bundle carries no build hash. */
function cachePath(source) {
  const m = BUILD_LINE.exec(source);
  return m ? path.join(path.dirname(BUNDLE), `oxo-flow-${m[1]}.v8cache`) : undefined;
}

/** Run the bundle's source as CommonJS would, compiled with `cachedData` when V8 accepts it. */
function runBundle(source, cachedData) {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: BUNDLE, cachedData });
  const bundleModule = { exports: {} };
  script.runInThisContext()(bundleModule.exports, nodeModule.createRequire(BUNDLE), bundleModule, BUNDLE, path.dirname(BUNDLE));
  return { cli: bundleModule.exports, script };
}

function readOrUndefined(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function main() {
  if (typeof nodeModule.enableCompileCache === 'function') {
    try {
      nodeModule.enableCompileCache();
    } catch {
      // A read-only cache directory must never stop the CLI.
    }
    if (fs.existsSync(BUNDLE)) return require(BUNDLE).main(process.argv);
  } else {
    const source = readOrUndefined(BUNDLE)?.toString('utf8');
    const cache = source === undefined ? undefined : cachePath(source);
    if (source !== undefined) return runBundle(source, cache && readOrUndefined(cache)).cli.main(process.argv);
  }
  process.stderr.write(`oxo-flow: ${BUNDLE} is missing or unreadable; run \`npm run build\` in ${path.dirname(__dirname)}\n`);
  process.exitCode = 1;
}

if (require.main === module) main();
// scripts/code-cache.cjs writes the cache with the same loader.
else module.exports = { BUNDLE, cachePath, runBundle };
