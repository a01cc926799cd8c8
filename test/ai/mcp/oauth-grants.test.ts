// DPoP-bound tokens (RFC 9449) and the machine grants without a client secret of their own:
// jwt_bearer (RFC 7523, a workload's JWT) and enterprise (SEP-990: the ID token exchanged at the
// identity provider, RFC 8693, then a jwt-bearer grant). Against a real authorization server, identity
// provider and MCP server on 127.0.0.1 (test/helpers/mcp-dpop-server.ts) that check every proof with
// node:crypto and demand their nonces.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/ai/mcp/client.js';
import { dpopKeyFile, jwkThumbprint } from '../../../src/ai/mcp/dpop.js';
import { McpAuth, type OAuthSettings } from '../../../src/ai/mcp/oauth.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { forgetStoredAuth } from '../../../src/ai/mcp/token-store.js';
import { oauthSecrets } from '../../../src/ai/secrets.js';
import { type Fixture, ID_JAG, ID_TOKEN, JWT_BEARER, startFixture, WORKLOAD_JWT } from '../../helpers/mcp-dpop-server.js';

let fixture: Fixture | undefined;
let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

async function connect(oauth: OAuthSettings, env: Record<string, string>, home: string) {
  const auth = new McpAuth({ name: 'lab', url: fixture!.url, oauth }, { home, env, clientInfo: { name: 'oxo-flow', version: '0' } });
  client = new McpClient(new StreamableHttpTransport({ url: fixture!.url, auth }), { clientInfo: { name: 'oxo-flow', version: '0' } });
  await client.connect();
  return client.listTools();
}

describe('DPoP (RFC 9449) with a workload JWT (jwt_bearer, RFC 7523)', () => {
  it('binds the token to a key kept 0600, proves it on every request, answers both nonces once; logout forgets the key', async () => {
    fixture = await startFixture();
    const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-dpop-'));
    const assertionFile = path.join(home, 'workload.jwt');
    writeFileSync(assertionFile, `${WORKLOAD_JWT}\n`);
    const tools = await connect({ grant: 'jwt_bearer', clientId: 'ci-runner', assertionFile }, {}, home);
    expect(tools.map((t) => t.name)).toEqual(['leak']);
    expect(fixture.problems).toEqual([]);
    // The token request: the assertion (the file's text, trimmed), then once more with the AS nonce.
    expect(fixture.tokenForms).toHaveLength(2);
    expect(fixture.tokenForms[1]).toMatchObject({ grant_type: JWT_BEARER, assertion: WORKLOAD_JWT, client_id: 'ci-runner', resource: fixture.url });
    // Every MCP request: the DPoP scheme and a fresh proof of the same key.
    const proofs = fixture.mcpAuth.map((a) => a.proof!);
    expect(fixture.mcpAuth.every((a) => a.scheme === 'DPoP')).toBe(true);
    expect(new Set(proofs.map((p) => p.claims.jti)).size).toBe(proofs.length);
    expect(new Set(proofs.map((p) => jwkThumbprint(p.header.jwk))).size).toBe(1);
    // The nonce challenge was answered once, and the nonce kept for the next requests.
    expect(proofs[0]!.claims.nonce).toBeUndefined();
    expect(proofs.slice(1).every((p) => p.claims.nonce === 'rs-nonce-1')).toBe(true);
    const key = dpopKeyFile(home, 'lab');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(readFileSync(key, 'utf8')).toContain('BEGIN PRIVATE KEY');
    const stored = readFileSync(path.join(home, 'oauth', 'lab.json'), 'utf8');
    expect(JSON.parse(stored).tokens.token_type).toBe('DPoP');
    expect(stored).not.toContain(WORKLOAD_JWT);
    // The next command reuses the key and the bound token.
    await client!.close();
    fixture.mcpAuth.length = 0;
    await connect({ grant: 'jwt_bearer', clientId: 'ci-runner', assertionFile }, {}, home);
    expect(fixture.tokenForms).toHaveLength(2);
    expect(jwkThumbprint(fixture.mcpAuth[0]!.proof!.header.jwk)).toBe(jwkThumbprint(proofs[0]!.header.jwk));
    expect(forgetStoredAuth(home, 'lab')).toBe(true);
    expect(existsSync(key)).toBe(false);
  });

  it('dpop = false keeps to bearer tokens; a missing assertion variable is MCP014 naming it', async () => {
    fixture = await startFixture();
    const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-dpop-'));
    await connect({ grant: 'jwt_bearer', clientId: 'ci-runner', assertionEnv: 'CI_ID_JWT', dpop: false }, { CI_ID_JWT: WORKLOAD_JWT }, home);
    expect(fixture.mcpAuth.every((a) => a.scheme === 'Bearer')).toBe(true);
    expect(fixture.tokenForms).toHaveLength(1);
    expect(existsSync(dpopKeyFile(home, 'lab'))).toBe(false);
    await client!.close();
    const auth = new McpAuth({ name: 'other', url: fixture.url, oauth: { grant: 'jwt_bearer', clientId: 'ci', assertionEnv: 'UNSET_JWT' } }, { home, env: {}, clientInfo: { name: 'oxo-flow', version: '0' } });
    const err = (await auth.unauthorized(undefined).catch((e: unknown) => e)) as Error & { code: string };
    await auth.close();
    expect(err.code).toBe('MCP014');
    expect(err.message).toContain('UNSET_JWT');
  });
});

describe('a server that echoes the credentials', () => {
  it('in a tool result or an error body: the token and proof reach neither the caller nor the model', async () => {
    fixture = await startFixture();
    const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-dpop-echo-'));
    await connect({ grant: 'jwt_bearer', clientId: 'ci-runner', assertionEnv: 'CI_ID_JWT' }, { CI_ID_JWT: WORKLOAD_JWT }, home);
    const result = await client!.callTool('echo', {});
    const text = JSON.stringify(result);
    const token = JSON.parse(readFileSync(path.join(home, 'oauth', 'lab.json'), 'utf8')).tokens.access_token as string;
    expect(text).toContain('you sent *** with proof ***');
    expect(text).not.toContain(token);
    const err = (await client!.callTool('leak', {}).catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe('MCP004');
    expect(err.message).toContain('you sent *** with proof ***');
    expect(err.message).not.toContain(token);
  });
});

describe('refreshing a DPoP-bound token', () => {
  it('goes with a proof of the same key; the new token is bound to it too', async () => {
    fixture = await startFixture({ expiresIn: 30 });
    const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-dpop-refresh-'));
    const oauth: OAuthSettings = { grant: 'jwt_bearer', clientId: 'ci-runner', assertionEnv: 'CI_ID_JWT' };
    await connect(oauth, { CI_ID_JWT: WORKLOAD_JWT }, home);
    await client!.close();
    // 30 s left is inside the refresh margin: the next command refreshes before its first request.
    await connect(oauth, { CI_ID_JWT: WORKLOAD_JWT }, home);
    expect(fixture.problems).toEqual([]);
    const refresh = fixture.tokenForms.filter((f) => f.grant_type === 'refresh_token');
    expect(refresh.length).toBeGreaterThan(0);
    expect(refresh.at(-1)!.refresh_token).toMatch(/^refresh-canary-/);
    const stored = JSON.parse(readFileSync(path.join(home, 'oauth', 'lab.json'), 'utf8')).tokens;
    expect(stored.token_type).toBe('DPoP');
    expect(new Set(fixture.mcpAuth.map((a) => jwkThumbprint(a.proof!.header.jwk))).size).toBe(1);
  });
});

describe('a refused workload assertion', () => {
  it('is MCP016 naming the error code, tried once (no retry, no other grant), the assertion never shown; no client id is sent when none is set', async () => {
    fixture = await startFixture();
    const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-wif-'));
    const err = (await connect({ grant: 'jwt_bearer', assertionEnv: 'CI_ID_JWT' }, { CI_ID_JWT: 'expired.workload.jwt' }, home).catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe('MCP016');
    expect(err.message).toMatch(/refused the jwt-bearer token request \(HTTP 400: invalid_grant\)/);
    expect(err.message).not.toContain('expired.workload.jwt');
    expect(fixture.tokenForms.filter((f) => f.assertion !== undefined)).toHaveLength(1);
    expect(fixture.tokenForms.every((f) => f.grant_type === JWT_BEARER && f.client_id === undefined)).toBe(true);
  });
});

describe('enterprise-managed authorization (SEP-990)', () => {
  it('exchanges the ID token at the IdP for an ID-JAG, then gets a bound token with it as the client; no credential in the stored file', async () => {
    fixture = await startFixture();
    const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-ema-'));
    const oauth: OAuthSettings = { grant: 'enterprise', clientId: 'lab-app', clientSecretEnv: 'LAB_APP_SECRET', idpTokenEndpoint: `${fixture.origin}/idp/token`, idpClientId: 'idp-app', idTokenEnv: 'CORP_ID_TOKEN' };
    const env = { LAB_APP_SECRET: 'lab-app-secret-value', CORP_ID_TOKEN: ID_TOKEN };
    await connect(oauth, env, home);
    expect(fixture.problems).toEqual([]);
    expect(fixture.idpForms).toEqual([
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        audience: fixture.origin,
        resource: fixture.url,
        subject_token: ID_TOKEN,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        client_id: 'idp-app',
      },
    ]);
    expect(fixture.tokenForms.at(-1)).toMatchObject({ grant_type: JWT_BEARER, assertion: ID_JAG, resource: fixture.url });
    expect(fixture.tokenAuth.at(-1)).toBe(`Basic ${Buffer.from('lab-app:lab-app-secret-value').toString('base64')}`);
    const stored = readFileSync(path.join(home, 'oauth', 'lab.json'), 'utf8');
    for (const secret of [ID_TOKEN, ID_JAG, 'lab-app-secret-value']) expect(stored).not.toContain(secret);
    // Every variable the table names is a secret of the run, whatever it is called.
    expect(oauthSecrets(oauth, env).sort()).toEqual([ID_TOKEN, 'lab-app-secret-value'].sort());
  });
});
