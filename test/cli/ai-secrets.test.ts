// Acceptance 4: a recognisable fake key appears in no output, error, session record or --json, on
// every AI command and failure path, including a provider that echoes the key back in its errors
// (HTTP error bodies, a malformed body, an error event inside a stream).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm.js';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { tempDir } from '../helpers/plan-workflow.js';

const KEY = 'sk-SECRET-canary-9f8e7d6c5b4a';
const WORKFLOW = '[workflow]\nname = "tiny"\ndescription = "d"\nauthor = "a"\n\n[[rules]]\nname = "hello"\ndescription = "d"\noutput = ["results/hello.txt"]\nlog = "logs/hello.log"\nshell = "echo hello > {output} 2> {log}"\n';

const echo = `the key you sent was ${KEY}`;
const FAILURES: [string, FakeReply][] = [
  ['401 echo', { kind: 'error', status: 401, message: echo }],
  ['400 echo', { kind: 'error', status: 400, message: echo }],
  ['500 echo', { kind: 'error', status: 500, message: echo }],
  ['malformed body echo', { kind: 'malformed', body: `<html>${echo}</html>`, contentType: 'text/html' }],
  ['stream error event echo', { kind: 'malformed', body: `data: {"error": {"message": "${echo}"}}\n\n`, contentType: 'text/event-stream' }],
];

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());

function project() {
  const dir = tempDir('oxo-ai-secrets-');
  writeFileSync(path.join(dir, 'main.oxoflow'), WORKFLOW);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  // The key lives in ai_config.json (as `ai setup` stores a typed key), and in the environment too.
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, provider: 'openai', api_key: KEY, base_url: fake.baseUrl, retries: { max: 0 } }));
  return { dir, env: { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: undefined, OXO_FLOW_AI_BASE_URL: undefined, OPENAI_API_KEY: KEY, OXO_FLOW_AI_API_KEY: undefined } };
}

function everything(dir: string, outs: { stdout: string; stderr: string }[]): string {
  const sessions = path.join(dir, '.oxo-flow', 'ai_sessions');
  const records = existsSync(sessions) ? readdirSync(sessions).map((f) => readFileSync(path.join(sessions, f), 'utf8')) : [];
  return [...outs.flatMap((o) => [o.stdout, o.stderr]), ...records].join('\n');
}

// Echoing failures through the provider path every AI command shares (the other shapes of echo are
// covered per wire in test/ai/providers/clients.test.ts, without a process per case)...
it.each(FAILURES.filter(([name]) => name === '401 echo' || name === 'stream error event echo'))('a provider failure (%s) never shows the key: lint --ai, human and --json', async (_name, reply) => {
  const { dir, env } = project();
  fake.queue.length = 0;
  fake.queue.push(reply, reply);
  const outs = [await runCliAsync(['lint', '--ai'], { cwd: dir, env }), await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env })];
  // The failure was really reached (and reported with its class), not skipped.
  expect(outs[0]!.stderr).toMatch(/AI0(03|09|10|11)/);
  expect(JSON.parse(outs[1]!.stdout).ai.status).toBe('error');
  expect(everything(dir, outs)).not.toContain(KEY);
  expect(everything(dir, outs)).toContain('***');
});

// ...and every other AI command, with the key echoed in a 401.
it('template --ai, ai status --check and ai sessions never show the key', async () => {
  const { dir, env } = project();
  fake.queue.length = 0;
  const reply = FAILURES[0]![1];
  const outs = [];
  for (const args of [['template', '--ai', 'rna-seq', '-o', 'new.oxoflow'], ['--json', 'template', '--ai', 'x', '-o', 'n2.oxoflow'], ['ai', 'status', '--check'], ['--json', 'ai', 'status', '--check']]) {
    fake.queue.push(reply);
    outs.push(await runCliAsync(args, { cwd: dir, env }));
  }
  outs.push(await runCliAsync(['ai', 'sessions'], { cwd: dir, env }));
  outs.push(await runCliAsync(['--json', 'ai', 'sessions'], { cwd: dir, env }));
  expect(outs.map((o) => o.code)).toEqual([1, 1, 1, 1, 0, 0]);
  expect(everything(dir, outs)).not.toContain(KEY);
  expect(everything(dir, outs)).toContain('***');
});

// An OAuth-protected MCP server, reached with a DPoP-bound token got from a workload's JWT (the
// variable's name matches no credential pattern: it is secret because [mcp] oauth names it). The
// server echoes the Authorization and DPoP headers in an HTTP 500. Neither the assertion, nor the
// token, nor a proof, nor the key appears in any output or session record.
it('MCP OAuth with DPoP and a workload assertion: no assertion, token, proof or key in any output', async () => {
  const { startFixture, WORKLOAD_JWT } = await import('../helpers/mcp-dpop-server.js');
  const server = await startFixture();
  try {
    const dir = tempDir('oxo-mcp-secrets-');
    const home = path.join(dir, 'home');
    mkdirSync(path.join(dir, '.oxo-flow', 'skills'), { recursive: true });
    writeFileSync(
      path.join(dir, '.oxo-flow', 'skills', 'lab.skill.toml'),
      `name = "lab"\nversion = "1.0.0"\ndescription = "Use for the lab's aligner"\nskill_type = "tool"\nrequires = [${JSON.stringify(server.url)}]\n\n[mcp]\noauth = { grant = "jwt_bearer", client_id = "ci-runner", assertion_env = "CI_IDENTITY_JWT" }\n`,
    );
    const env = { OXO_FLOW_HOME: home, CI_IDENTITY_JWT: WORKLOAD_JWT, CI: undefined };
    const outs = [];
    for (const args of [['ai', 'call', 'mcp_lab_leak', '--skill', 'lab'], ['--json', 'ai', 'call', 'mcp_lab_leak', '--skill', 'lab'], ['--json', 'ai', 'tools', '--skill', 'lab'], ['ai', 'skills']]) {
      outs.push(await runCliAsync(args, { cwd: dir, env }));
    }
    // The echo was really reached (HTTP 500 from the server, after the token and both nonces).
    expect(outs[0]!.stderr).toContain('MCP004');
    expect(server.mcpAuth.length).toBeGreaterThan(2);
    const seen = everything(dir, outs);
    const key = readFileSync(path.join(home, 'oauth', 'lab.dpop.pem'), 'utf8');
    const token = JSON.parse(readFileSync(path.join(home, 'oauth', 'lab.json'), 'utf8')).tokens.access_token as string;
    expect(token).toMatch(/^access-token-canary-/);
    for (const secret of [WORKLOAD_JWT, token, ...key.split('\n').filter((l) => l.length > 20)]) expect(seen).not.toContain(secret);
    // No proof either (a DPoP proof is a JWT whose header says dpop+jwt).
    expect(seen).not.toContain(Buffer.from('{"typ":"dpop+jwt"').toString('base64url').slice(0, 16));
    expect(seen).toContain('***');
  } finally {
    await server.close();
  }
});
