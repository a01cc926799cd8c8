#!/usr/bin/env node
// Tiny launcher (CommonJS: bin/package.json says so, keeping Node's ES module loader out of the
// start-up path): turn on Node's compile cache where Node has it (22+), then run the bundled CLI.
'use strict';
const nodeModule = require('node:module');

if (typeof nodeModule.enableCompileCache === 'function') {
  try {
    nodeModule.enableCompileCache();
  } catch {
    // A read-only cache directory must never stop the CLI.
  }
}

require('../dist/oxo-flow.cjs').main(process.argv);
