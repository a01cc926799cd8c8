#!/usr/bin/env node
// Writes the V8 code cache that bin/oxo-flow.js uses on Node 20 (Node 22+ caches compiled code
// itself, so there this does nothing). The cache is taken after a warm-up: one process runs the
// everyday commands on the bundled example, so the cache holds the functions they compile, not
// just the bundle's top level. The warm-up runs in a child process because the CLI writes straight
// to file descriptors 1 and 2; its output is discarded, and a failing warm-up fails the build.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const nodeModule = require('node:module');
const path = require('node:path');
const { BUNDLE, cachePath, runBundle } = require('../bin/oxo-flow.js');

const ROOT = path.join(__dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'rnaseq', 'main.oxoflow');
const WARM_UP = [
  ['validate', EXAMPLE],
  ['--json', 'validate', EXAMPLE],
  ['lint', EXAMPLE],
  ['--json', 'lint', EXAMPLE],
  ['dry-run', EXAMPLE],
  ['-q', 'dry-run', EXAMPLE],
  ['--json', 'dry-run', EXAMPLE],
  ['graph', EXAMPLE],
  ['graph', '-f', 'dot', '--expanded', EXAMPLE],
];

async function warmUpAndWrite() {
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const file = cachePath(source);
  if (file === undefined) throw new Error(`${BUNDLE} has no build line: run scripts/bundle.mjs first`);
  const { cli, script } = runBundle(source, undefined);
  for (const args of WARM_UP) {
    await cli.main([process.execPath, 'oxo-flow', ...args]);
    if (process.exitCode !== 0 && process.exitCode !== undefined) throw new Error(`warm-up \`oxo-flow ${args.join(' ')}\` exited ${process.exitCode}`);
  }
  fs.writeFileSync(file, script.createCachedData());
}

if (process.argv[2] === '--warm-up') {
  warmUpAndWrite().catch((err) => {
    fs.writeSync(2, `${err.stack ?? err}\n`);
    process.exit(1);
  });
} else if (typeof nodeModule.enableCompileCache === 'function') {
  console.log(`code cache: not needed (Node ${process.version} caches compiled code itself)`);
} else {
  const r = spawnSync(process.execPath, [__filename, '--warm-up'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`code cache: the warm-up failed (exit ${r.status})\n${r.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const written = fs.readdirSync(path.dirname(BUNDLE)).filter((n) => n.endsWith('.v8cache'));
  console.log(`code cache: ${written.map((n) => `dist/${n}`).join(', ')}`);
}
