// An authorization server, identity provider and MCP server in one node:http server on
// 127.0.0.1, strict about DPoP (RFC 9449): every proof is checked with node:crypto, the token
// endpoint and the MCP endpoint each demand their nonce, tokens are bound to the proof's key. The
// token endpoint takes jwt-bearer assertions; /idp/token exchanges ID tokens for an ID-JAG. A
// tools/call of the tool "leak" answers HTTP 500 echoing the request's Authorization and DPoP
// headers, as a careless server might; the tool "echo" puts them in its result (an SSE reply).
import { createHash, createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwkThumbprint } from '../../src/ai/mcp/dpop.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const b64 = (s: string) => Buffer.from(s).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
export const WORKLOAD_JWT = `${b64('{"alg":"none"}')}.${b64('{"sub":"ci-runner-7"}')}.workload-signature-value`;
export const ID_TOKEN = `${b64('{"alg":"none"}')}.${b64('{"sub":"ada@lab"}')}.id-token-signature-value`;
export const ID_JAG = 'id-jag-assertion-value-0123';

export interface Proof {
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

export interface Fixture {
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
export async function startFixture(options: { expiresIn?: number } = {}): Promise<Fixture> {
  const f = { tokenForms: [], tokenAuth: [], idpForms: [], mcpAuth: [], problems: [] } as unknown as Fixture;
  const bound = new Map<string, string | undefined>();
  const refreshBound = new Map<string, string | undefined>();
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
        // A workload JWT that has expired: refused with the error code, and a description that echoes it.
        if (form.assertion === 'expired.workload.jwt') return send(400, { error: 'invalid_grant', error_description: `expired: ${form.assertion}` });
        const dpop = req.headers.dpop as string | undefined;
        let jkt: string | undefined;
        if (dpop !== undefined) {
          const proof = checkProof(dpop, 'POST', `${f.origin}/token`);
          if (typeof proof === 'string') return f.problems.push(`token proof: ${proof}`), send(400, { error: 'invalid_dpop_proof' });
          if (proof.claims.nonce !== 'as-nonce-1') return send(400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': 'as-nonce-1' });
          jkt = jwkThumbprint(proof.header.jwk);
        }
        // A refresh token is bound like the access token (RFC 9449 §5): refreshed only with the same key.
        if (form.grant_type === 'refresh_token' && refreshBound.get(form.refresh_token ?? '') !== jkt) return f.problems.push('refresh with another key'), send(400, { error: 'invalid_grant' });
        const token = `access-token-canary-${++n}`;
        bound.set(token, jkt);
        const refresh = `refresh-canary-${n}`;
        refreshBound.set(refresh, jkt);
        return send(200, { access_token: token, refresh_token: refresh, token_type: jkt !== undefined ? 'DPoP' : 'Bearer', expires_in: options.expiresIn ?? 3600 });
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
        const echoed = `you sent ${req.headers.authorization} with proof ${req.headers.dpop}`;
        if (m.method === 'tools/call' && (m as { params?: { name?: string } }).params?.name === 'echo') {
          // As an event stream, the way many servers answer a call.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.end(`id: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: echoed }] } })}\n\n`);
        }
        if (m.method === 'tools/call') return send(500, { error: `cannot run; ${echoed}` });
        return send(200, { jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'leak', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
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

