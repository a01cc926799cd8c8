#!/usr/bin/env node
// The launcher. CommonJS (bin/package.json says so), which keeps Node's ES module loader out of the
// start-up path, and small: it requires the bundled CLI (dist/oxo-flow.cjs) and runs it.
//
// Nothing here depends on the Node that built the package. Where Node has a compile cache of its own
// (module.enableCompileCache, Node 22.1 and later), it is turned on: Node keeps it per user under the
// system's temporary folder, checks every entry against the source and its own version and flags, and
// recompiles when one does not match. Node 20 has no such cache, and the bundle compiles as usual.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const BUNDLE = path.join(__dirname, '..', 'dist', 'oxo-flow.cjs');

function main() {
  if (!fs.existsSync(BUNDLE)) {
    process.stderr.write(`oxo-flow: ${BUNDLE} is missing; run \`npm run build\` in ${path.dirname(__dirname)}\n`);
    process.exitCode = 1;
    return;
  }
  if (typeof Module.enableCompileCache === 'function') Module.enableCompileCache();
  const cli = require(BUNDLE);
  // Once the command is done and its output is out, exit: nothing is left to wait for, and an idle
  // process would otherwise spend time collecting garbage before it ends.
  return cli.main(process.argv).then(() => {
    if (cli.outputWritten()) process.exit();
  });
}

main();
