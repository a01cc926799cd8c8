// OAuth 2.1 for MCP servers that require it (MCP authorization, 2025-06-18 and later): discover the
// protected-resource metadata (RFC 9728) and the authorization server (RFC 8414, or OpenID
// discovery), register a client dynamically (RFC 7591) unless one is configured, then either the
// authorization-code flow with PKCE through the user's browser and a loopback redirect (`ai login`),
// or client credentials for machines. Every token request names the MCP server as `resource`
// (RFC 8707). Tokens are refreshed without asking, stored by token-store.ts (mode 0600), and never
// printed: errors name the server and the step, not a token.
import { createHash, createHmac, createPrivateKey, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drain, HttpClient, readCapped, type Env } from '../../net/http.js';
import { McpFailure } from './failure.js';
import { type StoredAuth, type StoredTokens, readStoredAuth, writeStoredAuth } from './token-store.js';
import { parseWwwAuthenticate } from './www-authenticate.js';

export interface AuthServerMetadata {
  issuer?: string;
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  grant_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  /** RFC 9207: the authorization response carries `iss`. */
  authorization_response_iss_parameter_supported?: boolean;
}

/** How the client proves itself at the token endpoint (RFC 7591 names). */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt' | 'none';

/** What a tool skill says about OAuth ([mcp] oauth = { ... }); all optional. */
export interface OAuthSettings {
  clientId?: string;
  /** Name of the environment variable holding the client secret (never the secret itself). */
  clientSecretEnv?: string;
  /** private_key_jwt (RFC 7523): the PEM private key's file (absolute) or the variable holding it. */
  privateKeyFile?: string;
  privateKeyEnv?: string;
  /** Default: private_key_jwt with a key, else the secret by Basic (or post, if that is all the server takes), else none. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  scope?: string;
  /** client_credentials: a machine identity, no browser. Default: authorization_code via `ai login`. */
  grant?: 'authorization_code' | 'client_credentials';
}

export interface OAuthServer {
  name: string;
  url: string;
  oauth?: OAuthSettings;
}

export interface OAuthContext {
  /** $OXO_FLOW_HOME, where tokens are stored. */
  home: string;
  env: Env;
  clientInfo: { name: string; version: string };
}

const TIMEOUT_MS = 30_000;
/** A token this close to expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 60_000;
const LOGIN_WAIT_MS = 5 * 60_000;

const b64url = (buf: Buffer) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash('sha256').update(verifier).digest()) };
}

/** The MCP server's canonical URI, as the `resource` of token requests (no fragment, no query). */
export function canonicalResource(url: string): string {
  const u = new URL(url);
  u.hash = '';
  u.search = '';
  return u.toString().replace(/\/$/, '') || u.origin;
}

async function fetchJson(client: HttpClient, url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<{ status: number; json: unknown }> {
  const res = await client.request(new URL(url), { method: init.method, headers: { accept: 'application/json', ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}), signal: AbortSignal.timeout(TIMEOUT_MS) });
  const { text } = await readCapped(res, 256 * 1024);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where the server's authorization is described: the challenge's resource_metadata, then the well-known paths. */
export async function discoverAuthorization(
  client: HttpClient,
  serverUrl: string,
  wwwAuthenticate?: string,
): Promise<{ resource: string; authServer: AuthServerMetadata; scopes?: string[] }> {
  const mcp = new URL(serverUrl);
  const challenge = parseWwwAuthenticate(wwwAuthenticate);
  const path = mcp.pathname.replace(/\/$/, '');
  const prmUrls = [challenge?.params.resource_metadata, `${mcp.origin}/.well-known/oauth-protected-resource${path}`, `${mcp.origin}/.well-known/oauth-protected-resource`].filter(
    (u): u is string => u !== undefined && u !== '',
  );
  let prm: Record<string, unknown> | undefined;
  for (const u of [...new Set(prmUrls)]) {
    const r = await fetchJson(client, u, { method: 'GET' }).catch(() => undefined);
    if (r?.status === 200 && isObject(r.json)) {
      prm = r.json;
      break;
    }
  }
  // The metadata must describe this server: same origin, and a resource path the server's URL lies under.
  if (typeof prm?.resource === 'string' && !resourceCovers(prm.resource, serverUrl)) {
    throw new McpFailure('MCP016', `the protected-resource metadata of ${mcp.origin} is for another resource (${prm.resource}); not logging in`, 'the server\'s OAuth metadata is misconfigured, or someone else\'s; tell its operators');
  }
  // A server without protected-resource metadata (the 2025-03-26 rule): its own origin is the issuer.
  const servers = Array.isArray(prm?.authorization_servers) ? (prm!.authorization_servers as unknown[]).filter((s): s is string => typeof s === 'string') : [];
  const issuer = new URL(servers[0] ?? mcp.origin);
  const ipath = issuer.pathname.replace(/\/$/, '');
  const asUrls = [
    `${issuer.origin}/.well-known/oauth-authorization-server${ipath}`,
    `${issuer.origin}/.well-known/openid-configuration${ipath}`,
    ...(ipath !== '' ? [`${issuer.origin}${ipath}/.well-known/openid-configuration`] : []),
  ];
  for (const u of asUrls) {
    const r = await fetchJson(client, u, { method: 'GET' }).catch(() => undefined);
    if (r?.status === 200 && isObject(r.json) && typeof r.json.token_endpoint === 'string') {
      // RFC 8414 §3.3: metadata for another issuer than the one named must not be used (a mix-up).
      if (servers[0] !== undefined && r.json.issuer !== servers[0]) {
        throw new McpFailure('MCP016', `the authorization server metadata at ${u} is for issuer ${JSON.stringify(r.json.issuer)}, not ${servers[0]}; not logging in`, 'the server\'s OAuth metadata is misconfigured, or someone else\'s; tell its operators');
      }
      const scope = challenge?.params.scope;
      const prmScopes = Array.isArray(prm?.scopes_supported) ? (prm!.scopes_supported as unknown[]).filter((s): s is string => typeof s === 'string') : undefined;
      const scopes = scope !== undefined && scope !== '' ? scope.split(/\s+/) : prmScopes;
      return {
        resource: typeof prm?.resource === 'string' ? prm.resource : canonicalResource(serverUrl),
        authServer: r.json as unknown as AuthServerMetadata,
        ...(scopes !== undefined && scopes.length > 0 ? { scopes } : {}),
      };
    }
  }
  // 2025-03-26 servers without any metadata: the default endpoints at the server's origin.
  if (prm === undefined) {
    return { resource: canonicalResource(serverUrl), authServer: { issuer: mcp.origin, authorization_endpoint: `${mcp.origin}/authorize`, token_endpoint: `${mcp.origin}/token`, registration_endpoint: `${mcp.origin}/register` } };
  }
  throw new McpFailure('MCP016', `cannot find the authorization server of ${mcp.origin} (no OAuth metadata at ${asUrls[0]})`, 'the server asks for authentication but publishes no OAuth metadata; set a header with a token in the skill instead');
}

/** Whether a protected-resource identifier covers the server URL (same origin, path prefix). */
function resourceCovers(resource: string, serverUrl: string): boolean {
  try {
    const r = new URL(resource);
    const s = new URL(serverUrl);
    // The loopback names are one host: a server on this machine may call itself localhost.
    const host = (u: URL) => (['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) ? 'loopback' : u.hostname);
    if (r.protocol !== s.protocol || r.port !== s.port || host(r) !== host(s)) return false;
    const rp = r.pathname.endsWith('/') ? r.pathname : `${r.pathname}/`;
    const sp = s.pathname.endsWith('/') ? s.pathname : `${s.pathname}/`;
    return sp.startsWith(rp);
  } catch {
    return false;
  }
}

/** RFC 7591 dynamic client registration. */
async function registerClient(client: HttpClient, as: AuthServerMetadata, redirectUris: string[], grant: 'authorization_code' | 'client_credentials', ctx: OAuthContext) {
  if (as.registration_endpoint === undefined) {
    throw new McpFailure('MCP016', 'the authorization server offers no dynamic client registration', 'register oxo-flow with the server\'s administrator and set [mcp] oauth = { client_id = "…" } in the skill');
  }
  const body = {
    client_name: `${ctx.clientInfo.name} ${ctx.clientInfo.version}`,
    // A command-line program on the user's machine (SEP-837; OpenID Connect registration).
    application_type: 'native',
    redirect_uris: redirectUris,
    grant_types: grant === 'client_credentials' ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
    response_types: grant === 'client_credentials' ? [] : ['code'],
    token_endpoint_auth_method: grant === 'client_credentials' ? 'client_secret_basic' : 'none',
  };
  const r = await fetchJson(client, as.registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if ((r.status !== 201 && r.status !== 200) || !isObject(r.json) || typeof r.json.client_id !== 'string') {
    throw new McpFailure('MCP016', `client registration at the authorization server failed (HTTP ${r.status})`);
  }
  return { client_id: r.json.client_id, ...(typeof r.json.client_secret === 'string' ? { client_secret: r.json.client_secret } : {}) };
}

/** A client at the token endpoint: its id, and a secret or a private key (from the environment, never stored). */
export interface ClientAuth {
  client_id: string;
  client_secret?: string;
  privateKey?: KeyObject;
  method?: TokenEndpointAuthMethod;
}

/** The method actually used: the configured one, else what the credentials and the server allow. */
function authMethod(auth: ClientAuth, as: AuthServerMetadata): TokenEndpointAuthMethod {
  if (auth.method !== undefined) return auth.method;
  if (auth.privateKey !== undefined) return 'private_key_jwt';
  if (auth.client_secret === undefined) return 'none';
  const methods = as.token_endpoint_auth_methods_supported;
  return methods !== undefined && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

const JWT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The JWS algorithm for a private key, and how Node signs with it. */
function keyAlgorithm(key: KeyObject): { alg: string; hash: string | null; p1363: boolean } {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return { alg: 'RS256', hash: 'sha256', p1363: false };
  if (type === 'ed25519') return { alg: 'EdDSA', hash: null, p1363: false };
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return { alg: 'ES256', hash: 'sha256', p1363: true };
    if (curve === 'secp384r1') return { alg: 'ES384', hash: 'sha384', p1363: true };
    if (curve === 'secp521r1') return { alg: 'ES512', hash: 'sha512', p1363: true };
  }
  throw new McpFailure('MCP016', `the private key for the JWT client assertion is of a kind this client cannot sign with (${type ?? 'unknown'}${type === 'ec' ? ` ${key.asymmetricKeyDetails?.namedCurve}` : ''})`, 'use an RSA, P-256, P-384, P-521 or Ed25519 key in PEM');
}

/**
 * An RFC 7523 client assertion: iss = sub = client id, aud = the authorization server's issuer
 * (the token endpoint when it names none), a fresh jti, five minutes of validity. Signed with the
 * private key (private_key_jwt) or HMAC with the client secret (client_secret_jwt).
 */
export function clientAssertion(auth: ClientAuth, as: AuthServerMetadata, method: 'private_key_jwt' | 'client_secret_jwt', now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const claims = { iss: auth.client_id, sub: auth.client_id, aud: as.issuer ?? as.token_endpoint, jti: randomUUID(), iat, exp: iat + 300 };
  const part = (v: unknown) => b64url(Buffer.from(JSON.stringify(v)));
  if (method === 'client_secret_jwt') {
    if (auth.client_secret === undefined) throw new McpFailure('MCP016', 'client_secret_jwt needs a client secret', 'set [mcp] oauth client_secret_env in the skill');
    const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
    return `${input}.${b64url(createHmac('sha256', auth.client_secret).update(input).digest())}`;
  }
  if (auth.privateKey === undefined) throw new McpFailure('MCP016', 'private_key_jwt needs a private key', 'set [mcp] oauth private_key_file or private_key_env in the skill');
  const { alg, hash, p1363 } = keyAlgorithm(auth.privateKey);
  const input = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  const signature = sign(hash, Buffer.from(input), p1363 ? { key: auth.privateKey, dsaEncoding: 'ieee-p1363' } : auth.privateKey);
  return `${input}.${b64url(signature)}`;
}

async function tokenRequest(client: HttpClient, as: AuthServerMetadata, form: Record<string, string>, auth: ClientAuth): Promise<StoredTokens> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const fields = { ...form };
  // The client proves itself the way it is configured to, or the way the server says it takes it.
  const method = authMethod(auth, as);
  if (method === 'client_secret_basic') {
    if (auth.client_secret === undefined) throw new McpFailure('MCP016', 'client_secret_basic needs a client secret', 'set [mcp] oauth client_secret_env in the skill');
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(auth.client_id)}:${encodeURIComponent(auth.client_secret)}`).toString('base64')}`;
  } else {
    fields.client_id = auth.client_id;
    if (method === 'client_secret_post') {
      if (auth.client_secret === undefined) throw new McpFailure('MCP016', 'client_secret_post needs a client secret', 'set [mcp] oauth client_secret_env in the skill');
      fields.client_secret = auth.client_secret;
    } else if (method === 'private_key_jwt' || method === 'client_secret_jwt') {
      fields.client_assertion_type = JWT_ASSERTION_TYPE;
      fields.client_assertion = clientAssertion(auth, as, method);
    }
  }
  const r = await fetchJson(client, as.token_endpoint, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
  if (r.status !== 200 || !isObject(r.json) || typeof r.json.access_token !== 'string') {
    const err = isObject(r.json) && typeof r.json.error === 'string' ? `: ${r.json.error}` : '';
    throw new McpFailure('MCP016', `the authorization server refused the ${form.grant_type} token request (HTTP ${r.status}${err})`);
  }
  const j = r.json;
  return {
    access_token: j.access_token as string,
    token_type: typeof j.token_type === 'string' ? j.token_type : 'Bearer',
    ...(typeof j.refresh_token === 'string' ? { refresh_token: j.refresh_token } : {}),
    ...(typeof j.expires_in === 'number' ? { expires_at: Date.now() + j.expires_in * 1000 } : {}),
    ...(typeof j.scope === 'string' ? { scope: j.scope } : {}),
  };
}

/** A client as stored: a secret the server issued is kept; one configured through the environment, and any key, are not. */
const storable = (c: ClientAuth, configured: string | undefined): { client_id: string; client_secret?: string } =>
  configured !== undefined && c.client_secret === configured ? { client_id: c.client_id } : { client_id: c.client_id, ...(c.client_secret !== undefined ? { client_secret: c.client_secret } : {}) };

function clientSecret(server: OAuthServer, env: Env): string | undefined {
  const name = server.oauth?.clientSecretEnv;
  if (name === undefined) return undefined;
  const v = env[name];
  if (v === undefined || v === '') throw new McpFailure('MCP014', `[mcp] oauth names ${name} for the client secret, which is not set`, `export ${name} before running oxo-flow`);
  return v;
}

/** The private key of [mcp] oauth, read from its variable or file each time (never stored, never shown). */
function privateKey(server: OAuthServer, env: Env): KeyObject | undefined {
  const o = server.oauth;
  if (o?.privateKeyEnv === undefined && o?.privateKeyFile === undefined) return undefined;
  let pem: string;
  let from: string;
  if (o.privateKeyEnv !== undefined) {
    const v = env[o.privateKeyEnv];
    if (v === undefined || v === '') throw new McpFailure('MCP014', `[mcp] oauth names ${o.privateKeyEnv} for the private key, which is not set`, `export ${o.privateKeyEnv} (the PEM text) before running oxo-flow`);
    pem = v;
    from = `the variable ${o.privateKeyEnv}`;
  } else {
    from = o.privateKeyFile!;
    try {
      pem = readFileSync(o.privateKeyFile!, 'utf8');
    } catch (err) {
      throw new McpFailure('MCP016', `cannot read the private key file ${from} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'check [mcp] oauth private_key_file in the skill (relative paths are from the skill\'s directory)');
    }
  }
  try {
    return createPrivateKey(pem);
  } catch {
    // Never echo the text: it may be a key after all.
    throw new McpFailure('MCP016', `${from} does not hold a private key in PEM (PKCS#8, PKCS#1 or SEC1)`, 'give the key as PEM text, -----BEGIN PRIVATE KEY----- …');
  }
}

/** The configured client's credentials (id from the skill, secret and key from the environment). */
function configuredClient(server: OAuthServer, env: Env): ClientAuth | undefined {
  const o = server.oauth;
  if (o?.clientId === undefined) return undefined;
  const secret = clientSecret(server, env);
  const key = privateKey(server, env);
  return { client_id: o.clientId, ...(secret !== undefined ? { client_secret: secret } : {}), ...(key !== undefined ? { privateKey: key } : {}), ...(o.tokenEndpointAuthMethod !== undefined ? { method: o.tokenEndpointAuthMethod } : {}) };
}

/**
 * The token source of one server for the transport: a stored token (refreshed when near expiry),
 * or for client credentials a new one. `unauthorized` runs after a 401 and says whether a retry can
 * succeed without a person.
 */
export class McpAuth {
  private readonly client: HttpClient;
  constructor(
    private readonly server: OAuthServer,
    private readonly ctx: OAuthContext,
  ) {
    this.client = new HttpClient({ connectTimeoutMs: TIMEOUT_MS }, ctx.env);
  }

  /** What to tell a person when no token can be had here. */
  get hint(): string {
    return this.server.oauth?.grant === 'client_credentials'
      ? `check [mcp] oauth of the ${this.server.name} skill (client id and secret)`
      : `run \`oxo-flow ai login ${this.server.name}\` once in a terminal; tokens are then refreshed without asking`;
  }

  async token(): Promise<string | undefined> {
    const stored = readStoredAuth(this.ctx.home, this.server.name, this.server.url);
    if (stored?.tokens === undefined) return undefined;
    if (stored.tokens.expires_at === undefined || stored.tokens.expires_at - EXPIRY_MARGIN_MS > Date.now()) return stored.tokens.access_token;
    return (await this.renew(stored).catch(() => undefined))?.access_token;
  }

  /**
   * 403 insufficient_scope: the scopes wanted are those of the token plus those the challenge
   * names. Client credentials get a new token for them at once; for a person they are kept, so
   * the next `ai login` asks for them (a command never opens a browser on its own).
   */
  async insufficientScope(wwwAuthenticate: string | undefined): Promise<boolean> {
    const wanted = parseWwwAuthenticate(wwwAuthenticate)?.params.scope;
    const stored = readStoredAuth(this.ctx.home, this.server.name, this.server.url);
    if (wanted === undefined || wanted.trim() === '' || stored === undefined) return false;
    const scope = unionScopes(stored.tokens?.scope, stored.scope_needed, wanted);
    if (this.server.oauth?.grant === 'client_credentials') {
      await this.clientCredentials(wwwAuthenticate, scope);
      return true;
    }
    writeStoredAuth(this.ctx.home, this.server.name, { ...stored, scope_needed: scope });
    return false;
  }

  scopeHint(wwwAuthenticate: string | undefined): string | undefined {
    if (this.server.oauth?.grant === 'client_credentials') return `the client-credentials token of ${this.server.name} was not granted the scope; ask the authorization server's administrator`;
    const wanted = parseWwwAuthenticate(wwwAuthenticate)?.params.scope;
    return `run \`oxo-flow ai login ${this.server.name}\` again to grant the larger scope${wanted ? ` (${wanted})` : ''}`;
  }

  async unauthorized(wwwAuthenticate: string | undefined): Promise<boolean> {
    const stored = readStoredAuth(this.ctx.home, this.server.name, this.server.url);
    if (stored?.tokens?.refresh_token !== undefined) {
      if ((await this.renew(stored).catch(() => undefined)) !== undefined) return true;
    }
    if (this.server.oauth?.grant === 'client_credentials') {
      await this.clientCredentials(wwwAuthenticate);
      return true;
    }
    return false;
  }

  /** The stored client, with a configured secret or key read from the environment (never stored). */
  private clientAuth(stored: StoredAuth): ClientAuth {
    const configured = configuredClient(this.server, this.ctx.env);
    return configured !== undefined && configured.client_id === stored.client.client_id ? configured : stored.client;
  }

  private async renew(stored: StoredAuth): Promise<StoredTokens | undefined> {
    if (stored.tokens?.refresh_token === undefined) {
      if (this.server.oauth?.grant === 'client_credentials') return (await this.clientCredentials(undefined)).tokens;
      return undefined;
    }
    const tokens = await tokenRequest(this.client, stored.authServer, { grant_type: 'refresh_token', refresh_token: stored.tokens.refresh_token, resource: stored.resource }, this.clientAuth(stored));
    // Servers may rotate the refresh token; keep the old one when they do not send a new one.
    const next = { ...stored, tokens: { ...tokens, ...(tokens.refresh_token === undefined ? { refresh_token: stored.tokens.refresh_token } : {}) } };
    writeStoredAuth(this.ctx.home, this.server.name, next);
    return next.tokens;
  }

  private async clientCredentials(wwwAuthenticate: string | undefined, wantedScope?: string): Promise<StoredAuth> {
    const found = await discoverAuthorization(this.client, this.server.url, wwwAuthenticate);
    const secret = clientSecret(this.server, this.ctx.env);
    const registered = configuredClient(this.server, this.ctx.env) ?? (await registerClient(this.client, found.authServer, [], 'client_credentials', this.ctx));
    const scope = wantedScope ?? this.server.oauth?.scope ?? found.scopes?.join(' ');
    const tokens = await tokenRequest(this.client, found.authServer, { grant_type: 'client_credentials', resource: found.resource, ...(scope ? { scope } : {}) }, registered);
    const stored: StoredAuth = { server: this.server.name, url: this.server.url, resource: found.resource, authServer: found.authServer, client: storable(registered, secret), tokens };
    writeStoredAuth(this.ctx.home, this.server.name, stored);
    return stored;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * RFC 9207: an authorization response's `iss` must be the authorization server's issuer, compared
 * as the exact string; a server that says it sends `iss` must send it. A problem, or undefined.
 */
export function checkIssuer(iss: string | null, as: AuthServerMetadata): string | undefined {
  if (iss === null) return as.authorization_response_iss_parameter_supported === true ? 'the authorization answer has no iss, though the authorization server says it sends one (RFC 9207)' : undefined;
  if (as.issuer === undefined || iss !== as.issuer) return `the authorization answer names issuer ${JSON.stringify(iss)}, not ${JSON.stringify(as.issuer ?? '(none known)')} (RFC 9207)`;
  return undefined;
}

/** Space-separated scope lists merged, in first-seen order; undefined when empty. */
export function unionScopes(...lists: (string | undefined)[]): string | undefined {
  const all = [...new Set(lists.flatMap((l) => (l ?? '').split(/\s+/)).filter((s) => s !== ''))];
  return all.length > 0 ? all.join(' ') : undefined;
}

/** Open a URL the way the user's system does: $BROWSER (the common convention), else the platform's opener. */
export function browserCommand(env: Env, platform = process.platform): { command: string; args: string[] } | undefined {
  const browser = env.BROWSER;
  if (browser !== undefined && browser.trim() !== '') return { command: 'sh', args: ['-c', browser.includes('%s') ? browser.replace(/%s/g, '"$1"') : `${browser} "$1"`, 'browser'] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { command: 'xdg-open', args: [] };
  return undefined;
}

/**
 * `ai login`: the authorization-code flow with PKCE. A loopback listener on 127.0.0.1 receives the
 * redirect; `open` shows the authorization URL to the person (a browser, and the URL printed).
 */
export async function login(server: OAuthServer, ctx: OAuthContext, open: (url: string) => Promise<void>, signal?: AbortSignal): Promise<StoredAuth> {
  const client = new HttpClient({ connectTimeoutMs: TIMEOUT_MS }, ctx.env);
  const listener = http.createServer();
  try {
    const probe = await client.request(new URL(server.url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":0,"method":"ping"}', signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined);
    const challenge = probe?.headers['www-authenticate'];
    if (probe !== undefined) await drain(probe).catch(() => undefined);
    const found = await discoverAuthorization(client, server.url, Array.isArray(challenge) ? challenge[0] : challenge);
    if (found.authServer.authorization_endpoint === undefined) throw new McpFailure('MCP016', 'the authorization server has no authorization endpoint for a browser login');
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const secret = clientSecret(server, ctx.env);
    const registered = configuredClient(server, ctx.env) ?? (await registerClient(client, found.authServer, [redirectUri], 'authorization_code', ctx));
    const { verifier, challenge: codeChallenge } = pkcePair();
    const state = b64url(randomBytes(16));
    // A scope the server asked for since the last login (403 insufficient_scope) is asked for too.
    const before = readStoredAuth(ctx.home, server.name, server.url);
    const scope = unionScopes(server.oauth?.scope ?? found.scopes?.join(' '), before?.scope_needed);
    const authorize = new URL(found.authServer.authorization_endpoint);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: registered.client_id, redirect_uri: redirectUri, code_challenge: codeChallenge, code_challenge_method: 'S256', state, resource: found.resource, ...(scope ? { scope } : {}) })) {
      authorize.searchParams.set(k, v);
    }
    const code = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new McpFailure('MCP016', `no answer from the browser within ${LOGIN_WAIT_MS / 60_000} minutes`)), LOGIN_WAIT_MS);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new McpFailure('MCP016', 'login cancelled'));
      });
      listener.on('request', (req, res) => {
        const u = new URL(req.url ?? '/', redirectUri);
        if (u.pathname !== '/callback') return void res.writeHead(404).end();
        const finish = (ok: boolean, text: string) => {
          res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
          clearTimeout(timer);
        };
        if (u.searchParams.get('state') !== state) return void (finish(false, 'This login link does not belong to this oxo-flow login.'), reject(new McpFailure('MCP016', 'the authorization answer carried another state (not this login)')));
        const issProblem = checkIssuer(u.searchParams.get('iss'), found.authServer);
        if (issProblem !== undefined) return void (finish(false, 'This login answer did not come from the expected authorization server.'), reject(new McpFailure('MCP016', issProblem, 'someone may be mixing up authorization servers; do not retry until the server\'s operators confirm its setup')));
        const got = u.searchParams.get('code');
        if (got === null) return void (finish(false, 'Login refused.'), reject(new McpFailure('MCP016', `the authorization server refused the login: ${u.searchParams.get('error') ?? 'no code'}`)));
        finish(true, 'oxo-flow is logged in. You can close this window.');
        resolve(got);
      });
    });
    await open(authorize.toString());
    const tokens = await tokenRequest(client, found.authServer, { grant_type: 'authorization_code', code: await code, redirect_uri: redirectUri, code_verifier: verifier, resource: found.resource }, registered);
    const stored: StoredAuth = { server: server.name, url: server.url, resource: found.resource, authServer: found.authServer, client: storable(registered, secret), tokens };
    writeStoredAuth(ctx.home, server.name, stored);
    return stored;
  } finally {
    listener.close();
    listener.closeAllConnections?.();
    await client.close();
  }
}
