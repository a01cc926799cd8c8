// `oxo-flow ai login` / `ai logout` through the built CLI, against the local authorization server
// and protected MCP server of test/helpers/oauth-server.ts, with BROWSER pointing at a stand-in
// browser that follows the URL: tokens stored 0600, no token in any output, CI refuses to log in,
// and a command that needs a login says so.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../helpers/oauth-server.js';
import { startCli } from '../helpers/run-async.js';

/** The built CLI as a child process, without blocking this process (the servers run in it). */
async function runCliAsync(args: string[], o: { cwd: string; env: Record<string, string | undefined> }) {
  const bg = startCli(args, o.cwd, o.env);
  const { code } = await bg.exited;
  return { code, stdout: bg.stdout(), stderr: bg.stderr() };
}

const BROWSER = `${process.execPath} ${path.resolve(import.meta.dirname, '../helpers/fake-browser.mjs')}`;
let f: OAuthFixture;
let home: string;

beforeEach(async () => {
  f = await startOAuthFixture();
  home = mkdtempSync(path.join(os.tmpdir(), 'oxo-login-'));
});
afterEach(async () => {
  await f.close();
  rmSync(home, { recursive: true, force: true });
});

const env = (extra: Record<string, string | undefined> = {}) => ({ OXO_FLOW_HOME: home, HOME: home, CI: undefined, BROWSER, ...extra });

describe('ai login / ai logout (the built CLI)', () => {
  it('logs in through the browser and the loopback redirect; the token is stored 0600 and never printed', async () => {
    const r = await runCliAsync(['--json', 'ai', 'login', `lab=${f.mcpUrl}`], { cwd: home, env: env() });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.server).toBe('lab');
    expect(json.refreshable).toBe(true);
    const file = path.join(home, 'oauth', 'lab.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = JSON.parse(readFileSync(file, 'utf8')).tokens.access_token as string;
    expect(token).toBe(f.issued[0]);
    for (const out of [r.stdout, r.stderr]) for (const t of f.issued) expect(out).not.toContain(t);
    expect(r.stderr).toContain('Open this address to log in to lab');
    const out = await runCliAsync(['--json', 'ai', 'logout', `lab=${f.mcpUrl}`], { cwd: home, env: env() });
    expect(JSON.parse(out.stdout).forgotten).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses to log in under CI, naming what to do', async () => {
    const r = await runCliAsync(['--json', 'ai', 'login', `lab=${f.mcpUrl}`], { cwd: home, env: env({ CI: 'true' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('MCP016');
    expect(f.grants).toEqual([]);
  });

  it('a command that needs the login fails at once with a hint naming `ai login`', async () => {
    const r = await runCliAsync(['--json', 'ai', 'tools', '--mcp', `lab=${f.mcpUrl}`], { cwd: home, env: env({ CI: 'true' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('MCP005');
    expect(r.stdout).toContain('oxo-flow ai login lab');
  });
});

describe('ai login with a machine grant', () => {
  it('gets a DPoP-bound token with the workload assertion at once, in CI too (no browser); logout forgets token and key', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { startFixture, WORKLOAD_JWT } = await import('../helpers/mcp-dpop-server.js');
    const server = await startFixture();
    try {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-login-machine-'));
      mkdirSync(path.join(dir, '.oxo-flow', 'skills'), { recursive: true });
      writeFileSync(
        path.join(dir, '.oxo-flow', 'skills', 'lab.skill.toml'),
        `name = "lab"\nversion = "1.0.0"\ndescription = "Use for the lab's aligner"\nskill_type = "tool"\nrequires = [${JSON.stringify(server.url)}]\n\n[mcp]\noauth = { grant = "jwt_bearer", client_id = "ci-runner", assertion_env = "CI_IDENTITY_JWT" }\n`,
      );
      const env = { OXO_FLOW_HOME: home, CI_IDENTITY_JWT: WORKLOAD_JWT, CI: 'true', BROWSER: 'false' };
      const r = await runCliAsync(['--json', 'ai', 'login', 'lab'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, server: 'lab', client_id: 'ci-runner', authorization_server: server.origin });
      expect(server.tokenForms.at(-1)).toMatchObject({ assertion: WORKLOAD_JWT });
      const file = path.join(home, 'oauth', 'lab.json');
      const token = JSON.parse(readFileSync(file, 'utf8')).tokens as { access_token: string; token_type: string };
      expect(token.token_type).toBe('DPoP');
      expect(statSync(path.join(home, 'oauth', 'lab.dpop.pem')).mode & 0o777).toBe(0o600);
      for (const secret of [token.access_token, WORKLOAD_JWT]) expect(r.stdout + r.stderr).not.toContain(secret);
      const out = await runCliAsync(['ai', 'logout', 'lab'], { cwd: dir, env });
      expect(out.code).toBe(0);
      expect(existsSync(file)).toBe(false);
      expect(existsSync(path.join(home, 'oauth', 'lab.dpop.pem'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});
