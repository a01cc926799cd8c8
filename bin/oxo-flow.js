#!/usr/bin/env node
// Tiny launcher: turn on Node's compile cache (where this Node has it), then start the CLI.
import module from 'node:module';

if (typeof module.enableCompileCache === 'function') {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache directory must never stop the CLI.
  }
}

const { main } = await import('../dist/bundle/main.js');
await main(process.argv);
