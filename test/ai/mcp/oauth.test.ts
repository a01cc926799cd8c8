// OAuth against a local authorization server and the MCP server it protects (test/helpers/oauth-server.ts):
// discovery, dynamic registration, authorization code with PKCE through a loopback redirect (a
// stand-in browser follows the URL), refresh after the server drops a token, client credentials,
// storage with mode 0600, and no token in any message.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServer, type OpenServer } from '../../../src/ai/mcp/bridge.js';
import { McpFailure } from '../../../src/ai/mcp/failure.js';
import { browserCommand, canonicalResource, login } from '../../../src/ai/mcp/oauth.js';
import { forgetStoredAuth } from '../../../src/ai/mcp/token-store.js';
import { followInBrowser, startOAuthFixture, type OAuthFixture } from '../../helpers/oauth-server.js';

const clientInfo = { name: 'oxo-flow', version: '0.0.0' };
let f: OAuthFixture;
let home: string;
let server: OpenServer | undefined;

beforeEach(async () => {
  f = await startOAuthFixture();
  home = mkdtempSync(path.join(os.tmpdir(), 'oxo-oauth-'));
});
afterEach(async () => {
  await server?.client.close();
  server = undefined;
  await f.close();
  rmSync(home, { recursive: true, force: true });
});

const spec = (extra: object = {}) => ({ name: 'lab', url: f.mcpUrl, headers: {}, trustAnnotations: true, source: { kind: 'flag' as const }, ...extra });
const tokenFile = () => path.join(home, 'oauth', 'lab.json');

describe('OAuth 2.1 for MCP servers', () => {
  it('logs in with the authorization code and PKCE through a loopback redirect, stores the tokens 0600, and then connects', async () => {
    const stored = await login({ name: 'lab', url: f.mcpUrl }, { home, env: {}, clientInfo }, followInBrowser);
    expect(stored.client.client_id).toMatch(/^client-/);
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(home, 'oauth')).mode & 0o777).toBe(0o700);
    // Every token request named the MCP server as its resource (RFC 8707).
    expect(new Set(f.resources)).toEqual(new Set([canonicalResource(f.mcpUrl)]));
    expect(f.grants).toEqual(['authorization_code']);
    server = await openServer(spec(), { env: {}, clientInfo, home });
    expect(server.serverName).toBe('raw');
    // After login's one unauthenticated probe (which found the authorization server), every request carries the token.
    const sent = f.mcp.received.slice(1).map((r) => r.headers.authorization);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((h) => h === `Bearer ${f.issued[0]}`)).toBe(true);
  });

  it('refreshes without asking when the server drops the access token', async () => {
    await login({ name: 'lab', url: f.mcpUrl }, { home, env: {}, clientInfo }, followInBrowser);
    server = await openServer(spec(), { env: {}, clientInfo, home });
    f.expireAccessTokens();
    await server.client.listTools();
    expect(f.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(f.mcp.received.at(-1)!.headers.authorization).toBe(`Bearer ${f.issued[1]}`);
    expect(JSON.parse(readFileSync(tokenFile(), 'utf8')).tokens.access_token).toBe(f.issued[1]);
  });

  it('without a login, a command fails at once with MCP005 naming `oxo-flow ai login`, and opens nothing', async () => {
    const err = (await openServer(spec(), { env: {}, clientInfo, home }).catch((e: unknown) => e)) as McpFailure;
    expect(err).toBeInstanceOf(McpFailure);
    expect(err.code).toBe('MCP005');
    expect(err.hint).toContain('oxo-flow ai login lab');
    expect(f.grants).toEqual([]);
  });

  it('client credentials for machines: the configured secret comes from the environment and is never stored', async () => {
    f.addClient('machine-1', 's3cret-value');
    const oauth = { clientId: 'machine-1', clientSecretEnv: 'LAB_CLIENT_SECRET', grant: 'client_credentials' as const };
    server = await openServer(spec({ oauth }), { env: { LAB_CLIENT_SECRET: 's3cret-value' }, clientInfo, home });
    expect(f.grants).toEqual(['client_credentials']);
    expect(readFileSync(tokenFile(), 'utf8')).not.toContain('s3cret-value');
    // A wrong secret is a clear failure, with no secret or token in it.
    await server.client.close();
    server = undefined;
    forgetStoredAuth(home, 'lab');
    const err = (await openServer(spec({ oauth }), { env: { LAB_CLIENT_SECRET: 'wrong' }, clientInfo, home }).catch((e: unknown) => e)) as McpFailure;
    // The authorization server's refusal is the message (more use than the server's 401).
    expect(err.code).toBe('MCP016');
    expect(err.message).toMatch(/refused the client_credentials token request \(HTTP 40\d/);
    for (const token of [...f.issued, 's3cret-value', 'wrong']) expect(`${err.message} ${err.hint ?? ''}`).not.toContain(token);
  });

  it('ai logout forgets the tokens', async () => {
    await login({ name: 'lab', url: f.mcpUrl }, { home, env: {}, clientInfo }, followInBrowser);
    expect(forgetStoredAuth(home, 'lab')).toBe(true);
    expect(readdirSync(path.join(home, 'oauth'))).toEqual([]);
    expect(forgetStoredAuth(home, 'lab')).toBe(false);
  });

  it('opens the URL with $BROWSER (with or without %s), else the platform opener, else nothing', () => {
    expect(browserCommand({ BROWSER: 'firefox' })).toEqual({ command: 'sh', args: ['-c', 'firefox "$1"', 'browser'] });
    expect(browserCommand({ BROWSER: 'chromium --app=%s' })!.args[1]).toBe('chromium --app="$1"');
    expect(browserCommand({}, 'darwin')).toEqual({ command: 'open', args: [] });
    expect(browserCommand({ DISPLAY: ':0' }, 'linux')).toEqual({ command: 'xdg-open', args: [] });
    expect(browserCommand({}, 'linux')).toBeUndefined();
  });
});
