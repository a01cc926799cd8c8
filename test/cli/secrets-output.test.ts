// Issue 8, acceptance 3: recognisable secrets in URLs (user-info, query), MCP headers (literal and
// from the environment, echoed back by a server in an error), credential-named environment
// variables and `sensitive = true` config values (declared and set on the command line) appear in
// no output and no --json document of any command. In-process through the same command line and exit
// point as the built CLI, plus a few runs of the built CLI itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { json, startRawServer, type RawServer } from '../helpers/mcp-raw-server.js';

const SECRETS = {
  urlPass: 'URLPASS-5e1x',
  urlKey: 'QUERYKEY-7f2x',
  envToken: 'HDRTOKEN-9a3x',
  literalHeader: 'LITERALHDR-4b7x',
  envKey: 'ENVKEY-6c1x',
  configDefault: 'CFGSECRET-8d4x',
  configOverride: 'CLISECRET-2e9x',
  flagPass: 'FLAGPASS-3c8x',
  flagToken: 'FLAGTOK-1d5x',
};

let root: string;
let home: string;
let good: RawServer;
let echo: RawServer;

/** `mcp://` URL of a server with user-info and a key in the query. */
const withCreds = (url: string, user: string, pass: string, key: string) => url.replace('http://', `mcp://${user}:${pass}@`) + `?key=${key}&mode=plain`;

beforeAll(async () => {
  good = await startRawServer(({ message, req, res }) => {
    if (message.method === 'tools/list')
      return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'whoami', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
    if (message.method === 'tools/call')
      // A careless server: its error repeats the credentials it was sent.
      return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `denied for ${req.headers.authorization} / ${req.headers['x-api']} at ${req.url}` } });
    return undefined;
  });
  echo = await startRawServer(({ req, res }) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`bad request, you sent Authorization: ${req.headers.authorization} X-Api: ${req.headers['x-api']}`);
    return true;
  });
  root = mkdtempSync(path.join(os.tmpdir(), 'oxo-secrets-'));
  home = path.join(root, 'home');
  mkdirSync(home);
  const skills = path.join(root, '.oxo-flow', 'skills');
  mkdirSync(skills, { recursive: true });
  const skill = (name: string, url: string) =>
    [
      `name = "${name}"`,
      'version = "1.0.0"',
      'description = "d"',
      'skill_type = "tool"',
      `requires = [${JSON.stringify(withCreds(url, 'bob', SECRETS.urlPass, SECRETS.urlKey))}]`,
      '[mcp]',
      `headers = { Authorization = "Bearer \${MCP_TOKEN}", X-Api = "${SECRETS.literalHeader}" }`,
      '',
    ].join('\n');
  writeFileSync(path.join(skills, 'db.skill.toml'), skill('db', good.url));
  writeFileSync(path.join(skills, 'echo.skill.toml'), skill('echo', echo.url));
  writeFileSync(path.join(root, '.oxo-flow', 'ai.toml'), '[ai]\nskills = ["db", "echo"]\nprovider = "openai"\n');
  writeFileSync(
    path.join(root, 'main.oxoflow'),
    [
      '[workflow]',
      'name = "w"',
      '[config]',
      `token = { default = "${SECRETS.configDefault}", sensitive = true }`,
      '[[rules]]',
      'name = "fetch"',
      'output = ["out.txt"]',
      'shell = "curl -H {config.token} https://example.org > {output}"',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await good.close();
  await echo.close();
  rmSync(root, { recursive: true, force: true });
});

const env = () => ({ OXO_FLOW_HOME: home, CI: '1', MCP_TOKEN: SECRETS.envToken, OPENAI_API_KEY: SECRETS.envKey });
const flag = () => withCreds(good.url, 'alice', SECRETS.flagPass, 'x').replace('mcp://', 'http://').replace('?key=x', `?token=${SECRETS.flagToken}`);

const commands = (): [string, string[]][] => [
  ['validate', ['validate']],
  ['lint', ['lint']],
  ['dry-run', ['dry-run']],
  ['dry-run with a sensitive override', ['dry-run', `token=${SECRETS.configOverride}`]],
  ['graph', ['graph']],
  ['ai status', ['ai', 'status']],
  ['ai status --check', ['ai', 'status', '--check']],
  ['ai skills list', ['ai', 'skills', 'list']],
  ['ai skills show', ['ai', 'skills', 'show', 'db']],
  ['ai skills validate', ['ai', 'skills', 'validate']],
  ['ai tools', ['ai', 'tools']],
  ['ai tools --mcp', ['ai', 'tools', '--mcp', 'flagged=@FLAG@']],
  ['ai tools --mcp (not a URL)', ['ai', 'tools', '--mcp', `ftp://alice:${SECRETS.flagPass}@h/?token=${SECRETS.flagToken}`]],
  ['ai call (server echoes the headers)', ['ai', 'call', 'mcp_db_whoami']],
];

describe('no configured secret reaches any output', () => {
  it.each(commands().flatMap(([label, args]) => [[`${label}`, args] as const, [`${label} --json`, ['--json', ...args]] as const]))('%s', async (_label, args) => {
    const r = await runInProcess(args.map((a) => a.replace('@FLAG@', flag())), { cwd: root, env: env() });
    const shown = r.stdout + r.stderr;
    expect(shown.length).toBeGreaterThan(0);
    for (const [what, secret] of Object.entries(SECRETS)) expect(shown.includes(secret), `${what} in:\n${shown}`).toBe(false);
  });

  it.each([[['ai', 'tools']], [['--json', 'ai', 'call', 'mcp_db_whoami']], [['dry-run', `token=${SECRETS.configOverride}`]]])('the built CLI too: %j', async (args) => {
    const r = await runCliAsync(args, { cwd: root, env: env() });
    const shown = r.stdout + r.stderr;
    expect(shown.length).toBeGreaterThan(0);
    for (const [what, secret] of Object.entries(SECRETS)) expect(shown.includes(secret), `${what} in:\n${shown}`).toBe(false);
  });

  it('the URLs are still shown, masked', async () => {
    const r = await runInProcess(['--json', 'ai', 'status'], { cwd: root, env: env() });
    expect(r.stdout).toContain('mcp_servers');
    expect(r.stdout).toMatch(/http:\/\/\*\*\*@127\.0\.0\.1:\d+\/mcp\?key=\*\*\*&mode=\*\*\*/);
  });
});
