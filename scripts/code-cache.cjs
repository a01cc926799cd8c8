#!/usr/bin/env node
// Writes the V8 code caches that bin/oxo-flow.js uses, for the Node version that runs the build.
// The caches are taken after a warm-up: one process runs the everyday commands on the bundled
// example and the AI status commands on two throwaway skills, so each bundle's cache holds the
// functions those commands compile, not just its top level. The warm-up runs in a child process
// because the CLI writes straight to file descriptors 1 and 2; its output is discarded, and a
// failing warm-up fails the build.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BUNDLE, bundleFor, loadBundle, loaded } = require('../bin/oxo-flow.js');

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
  ['validate', '--ai', EXAMPLE],
  ['ai'],
  ['--json', 'ai', 'status'],
  ['ai', 'skills', 'list'],
  ['ai', 'lookup', 'skill', 'paired-end adapter trimming'],
  ['--json', 'ai', 'lookup', 'pipeline', '--from', 'fastp', '--to', 'featurecounts'],
  ['template'],
];

/** A home with one skill of each format, so discovery and both parsers run. */
function skillsHome() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'oxo-code-cache-'));
  fs.mkdirSync(path.join(home, 'skills', 'warm-md'), { recursive: true });
  fs.writeFileSync(path.join(home, 'skills', 'warm-toml.skill.toml'), 'name = "warm-toml"\ndescription = "A warm-up skill"\nprompt_additions = ["Say hello."]\n');
  fs.writeFileSync(path.join(home, 'skills', 'warm-md', 'SKILL.md'), '---\nname: warm-md\ndescription: A warm-up skill\n---\nSay hello.\n');
  return home;
}

async function warmUpAndWrite() {
  const home = skillsHome();
  process.env.OXO_FLOW_HOME = home;
  try {
    for (const args of WARM_UP) {
      const argv = [process.execPath, 'oxo-flow', ...args];
      await loadBundle(bundleFor(argv)).main(argv);
      if (process.exitCode !== 0 && process.exitCode !== undefined) throw new Error(`warm-up \`oxo-flow ${args.join(' ')}\` exited ${process.exitCode}`);
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  for (const [file, { script, cache }] of loaded) {
    if (cache === undefined) throw new Error(`${file} has no build line: run scripts/bundle.mjs first`);
    fs.writeFileSync(cache, script.createCachedData());
  }
}

if (process.argv[2] === '--warm-up') {
  warmUpAndWrite().catch((err) => {
    fs.writeSync(2, `${err.stack ?? err}\n`);
    process.exit(1);
  });
} else {
  const r = spawnSync(process.execPath, [__filename, '--warm-up'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`code cache: the warm-up failed (exit ${r.status})\n${r.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const written = fs.readdirSync(path.dirname(BUNDLE)).filter((n) => n.endsWith('.v8cache'));
  console.log(`code cache: ${written.map((n) => `dist/${n}`).join(', ')}`);
}
