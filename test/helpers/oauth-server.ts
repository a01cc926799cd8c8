// A small OAuth 2.1 authorization server and an MCP server it protects, both on 127.0.0.1:0, for the
// client's OAuth tests: metadata (RFC 8414), protected-resource metadata (RFC 9728), dynamic
// registration (RFC 7591), authorization code with PKCE S256 (the authorization step consents at
// once, standing in for the person), refresh, client credentials. It checks what a real server
// checks (PKCE, redirect URI, resource indicator, client secret) and records what it saw.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, startRawServer, type RawServer } from './mcp-raw-server.js';

export interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  /** Every token issued (access tokens), in order. */
  issued: string[];
  /** The resource indicator of every token request. */
  resources: string[];
  grants: string[];
  /** Registered clients (client credentials ones get a secret). */
  clients: Map<string, { redirectUris: string[]; secret?: string }>;
  /** Make every access token issued so far invalid (as if it expired at the server). */
  expireAccessTokens(): void;
  /** A machine client with a secret, for client credentials. */
  addClient(id: string, secret: string): void;
  mcp: RawServer;
  close(): Promise<void>;
}

const b64url = (buf: Buffer) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export async function startOAuthFixture(options: { expiresIn?: number } = {}): Promise<OAuthFixture> {
  const valid = new Set<string>();
  const refresh = new Map<string, string>(); // refresh token → client id
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; resource: string }>();
  const state = { issued: [] as string[], resources: [] as string[], grants: [] as string[], clients: new Map<string, { redirectUris: string[]; secret?: string }>() };
  const issue = (clientId: string, withRefresh: boolean) => {
    const access = b64url(randomBytes(18));
    valid.add(access);
    state.issued.push(access);
    const body: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600 };
    if (withRefresh) {
      const r = b64url(randomBytes(18));
      refresh.set(r, clientId);
      body.refresh_token = r;
    }
    return body;
  };
  let base = '';
  const as = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      return void json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      });
    }
    if (req.method === 'POST' && url.pathname === '/register') {
      const r = JSON.parse(body) as { redirect_uris?: string[]; grant_types?: string[] };
      const id = `client-${state.clients.size + 1}`;
      const machine = r.grant_types?.includes('client_credentials') === true;
      const secret = machine ? b64url(randomBytes(12)) : undefined;
      state.clients.set(id, { redirectUris: r.redirect_uris ?? [], ...(secret ? { secret } : {}) });
      return void json(res, 201, { client_id: id, ...(secret ? { client_secret: secret } : {}), redirect_uris: r.redirect_uris ?? [] });
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const p = url.searchParams;
      const client = state.clients.get(p.get('client_id') ?? '');
      const redirectUri = p.get('redirect_uri') ?? '';
      if (client === undefined || !client.redirectUris.includes(redirectUri) || p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge') || !p.get('resource')) {
        return void json(res, 400, { error: 'invalid_request' });
      }
      const code = b64url(randomBytes(12));
      codes.set(code, { clientId: p.get('client_id')!, redirectUri, challenge: p.get('code_challenge')!, resource: p.get('resource')! });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', p.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const f = new URLSearchParams(body);
      const grant = f.get('grant_type') ?? '';
      state.grants.push(grant);
      state.resources.push(f.get('resource') ?? '');
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const [basicId, basicSecret] = basic ? Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent) : [];
      const clientId = basicId ?? f.get('client_id') ?? '';
      if (grant === 'authorization_code') {
        const c = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        const verifier = f.get('code_verifier') ?? '';
        if (c === undefined || c.clientId !== clientId || c.redirectUri !== f.get('redirect_uri') || b64url(createHash('sha256').update(verifier).digest()) !== c.challenge || c.resource !== f.get('resource')) {
          return void json(res, 400, { error: 'invalid_grant' });
        }
        return void json(res, 200, issue(clientId, true));
      }
      if (grant === 'refresh_token') {
        const owner = refresh.get(f.get('refresh_token') ?? '');
        if (owner === undefined || owner !== clientId) return void json(res, 400, { error: 'invalid_grant' });
        return void json(res, 200, issue(clientId, false));
      }
      if (grant === 'client_credentials') {
        const client = state.clients.get(clientId);
        if (client?.secret === undefined || client.secret !== basicSecret) return void json(res, 401, { error: 'invalid_client' });
        return void json(res, 200, issue(clientId, false));
      }
      return void json(res, 400, { error: 'unsupported_grant_type' });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => as.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;

  let mcpBase = '';
  const mcp = await startRawServer(
    ({ req, res }) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (token === undefined || !valid.has(token)) {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${mcpBase}/.well-known/oauth-protected-resource/mcp", scope="tools.read"` }).end();
        return true;
      }
      return undefined;
    },
    {
      onGet: (req, res) => {
        if ((req.url ?? '').startsWith('/.well-known/oauth-protected-resource')) {
          json(res, 200, { resource: `${mcpBase}/mcp`, authorization_servers: [base], scopes_supported: ['tools.read'] });
        } else res.writeHead(405).end();
      },
    },
  );
  mcpBase = mcp.origin;

  return Object.assign(state, {
    issuer: base,
    mcpUrl: mcp.url,
    mcp,
    expireAccessTokens: () => valid.clear(),
    addClient: (id: string, secret: string) => void state.clients.set(id, { redirectUris: [], secret }),
    close: async () => {
      await mcp.close();
      as.closeAllConnections();
      await new Promise<void>((resolve) => as.close(() => resolve()));
    },
  });
}

/** Stands in for the person's browser: follows the authorization URL to the loopback redirect. */
export async function followInBrowser(url: string): Promise<void> {
  const first = await fetch(url, { redirect: 'manual' });
  const location = first.headers.get('location');
  if (location === null) throw new Error(`no redirect from the authorization server (HTTP ${first.status})`);
  await (await fetch(location)).text();
}
