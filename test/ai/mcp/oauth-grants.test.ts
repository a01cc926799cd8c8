// DPoP-bound tokens (RFC 9449) and the machine grants without a client secret of their own:
// jwt_bearer (RFC 7523, a workload's JWT) and enterprise (SEP-990: the ID token exchanged at the
// identity provider, RFC 8693, then a jwt-bearer grant). Against a real authorization server, identity
// provider and MCP server on 127.0.0.1 that check every proof with node:crypto and demand their nonces.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/ai/mcp/client.js';
import { dpopKeyFile, jwkThumbprint } from '../../../src/ai/mcp/dpop.js';
import { McpAuth, type OAuthSettings } from '../../../src/ai/mcp/oauth.js';
import { StreamableHttpTransport } from '../../../src/ai/mcp/streamable-http.js';
import { forgetStoredAuth } from '../../../src/ai/mcp/token-store.js';
import { oauthSecrets } from '../../../src/ai/secrets.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const WORKLOAD_JWT = `${b64('{"alg":"none"}')}.${b64('{"sub":"ci-runner-7"}')}.workload-signature-value`;
const ID_TOKEN = `${b64('{"alg":"none"}')}.${b64('{"sub":"ada@lab"}')}.id-token-signature-value`;
const ID_JAG = 'id-jag-assertion-value-0123';

interface Proof {
  header: { typ: string; alg: string; jwk: { kty: string; crv: string; x: string; y: string } };
  claims: { jti: string; htm: string; htu: string; iat: number; ath?: string; nonce?: string };
}

/** A DPoP proof's problem, or the proof (signature checked with the key it carries). */
function checkProof(value: string | undefined, method: string, url: string): Proof | string {
  if (value === undefined) return 'no proof';
  const [h, p, s] = value.split('.');
  const proof = { header: decode(h!), claims: decode(p!) } as Proof;
  if (proof.header.typ !== 'dpop+jwt' || proof.header.alg !== 'ES256') return 'header';
  if ('d' in proof.header.jwk) return 'private key in proof';
  const key = createPublicKey({ key: proof.header.jwk, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url'))) return 'signature';
  if (proof.claims.htm !== method || proof.claims.htu !== url) return 'htm/htu';
  if (Math.abs(proof.claims.iat - Date.now() / 1000) > 60) return 'iat';
  return proof;
}

interface Fixture {
  url: string;
  origin: string;
  tokenForms: Record<string, string>[];
  tokenAuth: (string | undefined)[];
  idpForms: Record<string, string>[];
  mcpAuth: { scheme: string; proof?: Proof }[];
  problems: string[];
  close(): Promise<void>;
}

/**
 * PRM + AS metadata (DPoP offered) + token endpoint (nonce demanded) + IdP token exchange + an MCP
 * endpoint that wants a DPoP-bound token with its own nonce, or a bearer token when not bound.
 */
async function startFixture(): Promise<Fixture> {
  const f = { tokenForms: [], tokenAuth: [], idpForms: [], mcpAuth: [], problems: [] } as unknown as Fixture;
  const bound = new Map<string, string | undefined>();
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const send = (status: number, value: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      const u = new URL(req.url ?? '/', f.origin);
      if (u.pathname === '/.well-known/oauth-protected-resource/mcp') return send(200, { resource: f.url, authorization_servers: [f.origin] });
      if (u.pathname === '/.well-known/oauth-authorization-server') {
        return send(200, { issuer: f.origin, token_endpoint: `${f.origin}/token`, grant_types_supported: [JWT_BEARER], dpop_signing_alg_values_supported: ['ES256'] });
      }
      if (u.pathname === '/idp/token') {
        const form = Object.fromEntries(new URLSearchParams(body));
        f.idpForms.push(form);
        return send(200, { access_token: ID_JAG, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
      }
      if (u.pathname === '/token') {
        const form = Object.fromEntries(new URLSearchParams(body));
        f.tokenForms.push(form);
        f.tokenAuth.push(req.headers.authorization);
        const dpop = req.headers.dpop as string | undefined;
        let jkt: string | undefined;
        if (dpop !== undefined) {
          const proof = checkProof(dpop, 'POST', `${f.origin}/token`);
          if (typeof proof === 'string') return f.problems.push(`token proof: ${proof}`), send(400, { error: 'invalid_dpop_proof' });
          if (proof.claims.nonce !== 'as-nonce-1') return send(400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': 'as-nonce-1' });
          jkt = jwkThumbprint(proof.header.jwk);
        }
        const token = `tok-${++n}`;
        bound.set(token, jkt);
        return send(200, { access_token: token, token_type: jkt !== undefined ? 'DPoP' : 'Bearer', expires_in: 3600 });
      }
      if (u.pathname === '/mcp') {
        const [scheme = '', token = ''] = (req.headers.authorization ?? '').split(' ');
        if (!bound.has(token)) return send(401, { error: 'invalid_token' }, { 'www-authenticate': `${scheme === 'DPoP' ? 'DPoP' : 'Bearer'} resource_metadata="${f.origin}/.well-known/oauth-protected-resource/mcp"` });
        const jkt = bound.get(token);
        if (jkt !== undefined) {
          const proof = checkProof(req.headers.dpop as string | undefined, req.method ?? '', f.url);
          if (typeof proof === 'string') return f.problems.push(`mcp proof: ${proof}`), send(401, { error: 'invalid_dpop_proof' });
          f.mcpAuth.push({ scheme, proof });
          if (scheme !== 'DPoP' || jwkThumbprint(proof.header.jwk) !== jkt || proof.claims.ath !== createHash('sha256').update(token).digest('base64url')) return f.problems.push('binding'), send(401, {});
          if (proof.claims.nonce !== 'rs-nonce-1') return send(401, { error: 'use_dpop_nonce' }, { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'rs-nonce-1' });
        } else f.mcpAuth.push({ scheme });
        if (req.method !== 'POST') return res.writeHead(405).end();
        const m = JSON.parse(body) as { id?: number; method: string };
        if (m.id === undefined) return res.writeHead(202).end();
        if (m.method === 'initialize') return send(200, { jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fixture' } } });
        return send(200, { jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'align', inputSchema: { type: 'object' } }] } });
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  f.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  f.url = `${f.origin}/mcp`;
  f.close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return f;
}

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
    expect(tools.map((t) => t.name)).toEqual(['align']);
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
