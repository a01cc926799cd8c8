#!/usr/bin/env node
// Measures what the AI commands send the model in their first request: the system prompt, the tool
// definitions and the whole request body, for `template --ai` with the STAR + featureCounts + DESeq2
// intent and for `lint --ai` on examples/rnaseq. Not a timing: sizes are exact and the host's load
// does not matter. The requests go to a capture server on 127.0.0.1 that answers with a workflow
// that validates, so each command ends after one request.
// Usage: npm run build && node bench/prompt-size.mjs [--cli path/to/bin/oxo-flow.js]
// (pass another build's launcher to measure it the same way, e.g. an older commit's).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT } from './lib.mjs';

const at = process.argv.indexOf('--cli');
const cli = at > 0 ? path.resolve(process.argv[at + 1]) : CLI;
const INTENT = 'paired-end RNA-seq, STAR + featureCounts, then DESeq2';
const ANSWER = '```toml\n[workflow]\nname = "x"\ndescription = "x"\nauthor = "x"\n\n[[rules]]\nname = "a"\ndescription = "a"\noutput = ["a.txt"]\nlog = "a.log"\nshell = "echo > {output} 2> {log}"\n```';

const captured = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    captured.push(JSON.parse(body));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'oxo-prompt-size-'));
mkdirSync(path.join(tmp, 'home'));
const env = { ...process.env, NO_COLOR: '1', CI: '1', OXO_FLOW_HOME: path.join(tmp, 'home'), OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: baseUrl, OPENAI_API_KEY: 'sk-bench', OXO_FLOW_AI_MODEL: 'm' };

async function first(args, cwd) {
  captured.length = 0;
  // Not spawnSync: the capture server runs in this process and must answer while the CLI waits.
  const child = spawn(process.execPath, [cli, '--json', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise((r) => child.on('close', r));
  if (captured.length === 0) throw new Error(`no request captured for ${args.join(' ')}: ${stderr}`);
  const body = captured[0];
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  const skills = [...system.matchAll(/^## Skill: (\S+)/gm)].map((m) => m[1]);
  const listed = [...system.matchAll(/^- builtin\/(\S+):/gm)].map((m) => m[1]);
  return { system: system.length, tools: JSON.stringify(body.tools ?? []).length, toolNames: (body.tools ?? []).map((t) => t.function.name), body: JSON.stringify(body).length, skills, listed };
}

const project = path.join(tmp, 'rnaseq');
cpSync(path.join(ROOT, 'examples', 'rnaseq'), project, { recursive: true });
const rows = [
  ['template --ai', await first(['template', '--ai', INTENT, '-o', path.join(tmp, 'out.oxoflow'), '--force'], tmp)],
  ['lint --ai (examples/rnaseq)', await first(['lint', '--ai'], project)],
];
server.close();
console.log(`CLI: ${cli}`);
console.log('| command | system prompt (chars) | tool definitions (chars) | whole first request (chars) | skill bodies in the prompt | built-ins named | tools |');
console.log('|---|---:|---:|---:|---|---|---|');
for (const [name, m] of rows) {
  console.log(`| ${name} | ${m.system} | ${m.tools} | ${m.body} | ${m.skills.join(', ') || 'none'} | ${m.listed.join(', ') || 'none'} | ${m.toolNames.join(', ')} |`);
}
