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

/**
 * `lint --ai`, streamed and as JSON, against a throwaway model server on 127.0.0.1 (OpenAI wire), in a
 * throwaway project (the review writes a session record there): the cache then holds the provider
 * client, the HTTP and SSE code and the agent loop, which the warm-up commands above never reach.
 */
async function warmUpReview() {
  const http = require('node:http');
  const text = '[INFO] workflow: warm-up → nothing to do';
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (JSON.parse(body).stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1 } }));
        return;
      }
      const event = (delta, finish) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${event({ role: 'assistant', content: text }, null)}${event({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'oxo-code-cache-review-'));
  const workflow = path.join(project, 'main.oxoflow');
  fs.writeFileSync(workflow, '[workflow]\nname = "warm"\n\n[[rules]]\nname = "hello"\noutput = ["hello.txt"]\nshell = "echo hello > {output}"\n');
  const env = { OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: `http://127.0.0.1:${server.address().port}/v1`, OPENAI_API_KEY: 'sk-code-cache-warm-up' };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    for (const args of [['lint', '--ai', workflow], ['--json', 'lint', '--ai', workflow]]) {
      const argv = [process.execPath, 'oxo-flow', ...args];
      await loadBundle(bundleFor(argv)).main(argv);
      if (process.exitCode !== 0 && process.exitCode !== undefined) throw new Error(`warm-up \`oxo-flow ${args.join(' ')}\` exited ${process.exitCode}`);
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    server.closeAllConnections();
    server.close();
    fs.rmSync(project, { recursive: true, force: true });
  }
}

async function warmUpAndWrite() {
  // A code cache records the V8 flags it was made under, and V8 refuses it under any others (even a flag
  // set and then unset). A command compiles every bundle before its first request sets --liftoff-only
  // (src/net/http.ts), so the caches must be made in a process whose flags never change: the warm-up
  // review's request must not set it.
  require('node:v8').setFlagsFromString = () => {};
  const home = skillsHome();
  process.env.OXO_FLOW_HOME = home;
  // The builder's own provider settings must not reach the warm-up: `validate --ai` would then send a
  // real request and write a session record into examples/ (warmUpReview sets its own, local, ones).
  for (const name of Object.keys(process.env)) {
    if (name.startsWith('OXO_FLOW_AI_') || ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEEPSEEK_API_KEY', 'OLLAMA_HOST'].includes(name)) delete process.env[name];
  }
  try {
    for (const args of WARM_UP) {
      const argv = [process.execPath, 'oxo-flow', ...args];
      await loadBundle(bundleFor(argv)).main(argv);
      if (process.exitCode !== 0 && process.exitCode !== undefined) throw new Error(`warm-up \`oxo-flow ${args.join(' ')}\` exited ${process.exitCode}`);
    }
    await warmUpReview();
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
