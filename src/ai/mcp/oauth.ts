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
import { forgetStoredAuth, type StoredAuth, type StoredTokens, readStoredAuth, writeStoredAuth } from './token-store.js';
import { authorizationValue, DpopKey, wantsDpop } from './dpop.js';
import { parseWwwAuthenticate } from './www-authenticate.js';
import { b64url, compactJws } from './jws.js';

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
  /** RFC 9449: the authorization server binds tokens to a DPoP key signed with these algorithms. */
  dpop_signing_alg_values_supported?: string[];
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
  /**
   * How a token is had. Default authorization_code (a person, `ai login`). Machines, no browser:
   * client_credentials (the client's own secret or key), jwt_bearer (RFC 7523: a workload's JWT,
   * e.g. a CI or Kubernetes identity token), enterprise (SEP-990: the person's ID token from the
   * company's identity provider, exchanged there for an ID-JAG (RFC 8693), then a jwt-bearer grant).
   */
  grant?: OAuthGrant;
  /** jwt_bearer: the assertion's variable, or its file (absolute; read anew for each token, since such tokens rotate). */
  assertionEnv?: string;
  assertionFile?: string;
  /** enterprise: the identity provider's token endpoint and this client's id there (and a secret's variable, if it needs one). */
  idpTokenEndpoint?: string;
  idpClientId?: string;
  idpClientSecretEnv?: string;
  /** enterprise: the ID token's variable, or its file (absolute). */
  idTokenEnv?: string;
  idTokenFile?: string;
  /** DPoP-bound tokens (RFC 9449). Default: when the authorization server offers ES256. */
  dpop?: boolean;
}

export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer' | 'enterprise';
/** Grants that need no person: a token is had whenever one is needed. */
export const isMachineGrant = (g: OAuthGrant | undefined) => g !== undefined && g !== 'authorization_code';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

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

async function fetchJson(client: HttpClient, url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<{ status: number; json: unknown; headers: Record<string, string | string[] | undefined> }> {
  const res = await client.request(new URL(url), { method: init.method, headers: { accept: 'application/json', ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}), signal: AbortSignal.timeout(TIMEOUT_MS) });
  const { text } = await readCapped(res, 256 * 1024);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, headers: res.headers };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 9728 metadata of the MCP server: at the challenge's resource_metadata, else the well-known paths. */
async function protectedResourceMetadata(client: HttpClient, serverUrl: string, wwwAuthenticate?: string): Promise<Record<string, unknown> | undefined> {
  const mcp = new URL(serverUrl);
  const path = mcp.pathname.replace(/\/$/, '');
  const urls = [parseWwwAuthenticate(wwwAuthenticate)?.params.resource_metadata, `${mcp.origin}/.well-known/oauth-protected-resource${path}`, `${mcp.origin}/.well-known/oauth-protected-resource`].filter(
    (u): u is string => u !== undefined && u !== '',
  );
  for (const u of [...new Set(urls)]) {
    const r = await fetchJson(client, u, { method: 'GET' }).catch(() => undefined);
    if (r?.status === 200 && isObject(r.json)) return r.json;
  }
  return undefined;
}

/** Where the server's authorization is described: the challenge's resource_metadata, then the well-known paths. */
export async function discoverAuthorization(
  client: HttpClient,
  serverUrl: string,
  wwwAuthenticate?: string,
): Promise<{ resource: string; authServer: AuthServerMetadata; scopes?: string[] }> {
  const mcp = new URL(serverUrl);
  const challenge = parseWwwAuthenticate(wwwAuthenticate);
  const prm = await protectedResourceMetadata(client, serverUrl, wwwAuthenticate);
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
async function registerClient(client: HttpClient, as: AuthServerMetadata, redirectUris: string[], grant: 'authorization_code' | 'client_credentials', ctx: OAuthContext, dpop = false) {
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
    // RFC 9449 §5.2: this client always binds its tokens (when it uses DPoP with this server).
    ...(dpop ? { dpop_bound_access_tokens: true } : {}),
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

/** A grant type as a person reads it in a message. */
const grantName = (g: string | undefined) => (g === JWT_BEARER_GRANT ? 'jwt-bearer' : g === TOKEN_EXCHANGE_GRANT ? 'token-exchange' : (g ?? 'token'));

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
  if (method === 'client_secret_jwt') {
    const secret = auth.client_secret;
    if (secret === undefined) throw new McpFailure('MCP016', 'client_secret_jwt needs a client secret', 'set [mcp] oauth client_secret_env in the skill');
    return compactJws({ alg: 'HS256', typ: 'JWT' }, claims, (input) => createHmac('sha256', secret).update(input).digest());
  }
  if (auth.privateKey === undefined) throw new McpFailure('MCP016', 'private_key_jwt needs a private key', 'set [mcp] oauth private_key_file or private_key_env in the skill');
  const key = auth.privateKey;
  const { alg, hash, p1363 } = keyAlgorithm(key);
  return compactJws({ alg, typ: 'JWT' }, claims, (input) => sign(hash, Buffer.from(input), p1363 ? { key, dsaEncoding: 'ieee-p1363' } : key));
}

async function tokenRequest(client: HttpClient, as: AuthServerMetadata, form: Record<string, string>, auth: ClientAuth, dpop?: DpopKey, who = 'authorization server'): Promise<StoredTokens> {
  const endpoint = as.token_endpoint;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const fields = { ...form };
  // The client proves itself the way it is configured to, or the way the server says it takes it.
  const method = authMethod(auth, as);
  if (method === 'client_secret_basic') {
    if (auth.client_secret === undefined) throw new McpFailure('MCP016', 'client_secret_basic needs a client secret', 'set [mcp] oauth client_secret_env in the skill');
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(auth.client_id)}:${encodeURIComponent(auth.client_secret)}`).toString('base64')}`;
  } else {
    // A workload's assertion may be all the identity there is (RFC 7523 §3.1): no client id then.
    if (auth.client_id !== '') fields.client_id = auth.client_id;
    if (method === 'client_secret_post') {
      if (auth.client_secret === undefined) throw new McpFailure('MCP016', 'client_secret_post needs a client secret', 'set [mcp] oauth client_secret_env in the skill');
      fields.client_secret = auth.client_secret;
    } else if (method === 'private_key_jwt' || method === 'client_secret_jwt') {
      fields.client_assertion_type = JWT_ASSERTION_TYPE;
      fields.client_assertion = clientAssertion(auth, as, method);
    }
  }
  const body = new URLSearchParams(fields).toString();
  const post = () => fetchJson(client, endpoint, { method: 'POST', headers: dpop === undefined ? headers : { ...headers, dpop: dpop.proof('POST', endpoint) }, body });
  let r = await post();
  // RFC 9449 §8: the server wants its nonce in the proof; one retry with it, never a loop.
  if (dpop !== undefined && r.status === 400 && isObject(r.json) && r.json.error === 'use_dpop_nonce' && dpop.takeNonce(endpoint, r.headers['dpop-nonce'])) r = await post();
  if (r.status !== 200 || !isObject(r.json) || typeof r.json.access_token !== 'string') {
    // Only an error code as RFC 6749 §5.2 spells them (a server may put anything in the body, an echo of the assertion too).
    const err = isObject(r.json) && typeof r.json.error === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(r.json.error) ? `: ${r.json.error}` : '';
    throw new McpFailure('MCP016', `the ${who} refused the ${grantName(form.grant_type)} token request (HTTP ${r.status}${err})`);
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

function requiredEnv(env: Env, name: string, what: string): string {
  const v = env[name];
  if (v === undefined || v === '') throw new McpFailure('MCP014', `[mcp] oauth names ${name} for ${what}, which is not set`, `export ${name} before running oxo-flow`);
  return v;
}

/**
 * A credential the skill points at: the value of a variable, or a file's text (read each time: a
 * workload's identity token is rotated by its platform). Never shown.
 */
function readCredential(env: Env, envName: string | undefined, file: string | undefined, what: string, key: string): string {
  if (envName !== undefined) return requiredEnv(env, envName, `the ${what}`).trim();
  if (file === undefined) throw new McpFailure('MCP016', `the grant needs the ${what}`, `set [mcp] oauth ${key}_env (a variable) or ${key}_file (a file) in the skill`);
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (text !== '') return text;
  } catch (err) {
    throw new McpFailure('MCP016', `cannot read the ${what} file ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, `check [mcp] oauth ${key}_file in the skill (relative paths are from the skill's directory)`);
  }
  throw new McpFailure('MCP016', `the ${what} file ${file} is empty`, 'the platform that writes it may not have yet; check its setup');
}

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
 * or for a machine grant a new one. `unauthorized` runs after a 401 and says whether a retry can
 * succeed without a person.
 */
export class McpAuth {
  private readonly client: HttpClient;
  private key: DpopKey | undefined;
  constructor(
    private readonly server: OAuthServer,
    private readonly ctx: OAuthContext,
  ) {
    this.client = new HttpClient({ connectTimeoutMs: TIMEOUT_MS }, ctx.env);
  }

  /** What to tell a person when no token can be had here. */
  get hint(): string {
    return isMachineGrant(this.server.oauth?.grant)
      ? `check [mcp] oauth of the ${this.server.name} skill (${this.server.oauth?.grant === 'client_credentials' ? 'client id and secret' : this.server.oauth?.grant === 'jwt_bearer' ? 'client id and assertion' : 'identity provider, ID token and client'})`
      : this.movedTo !== undefined
        ? `${this.server.name} now uses another authorization server (${this.movedTo}); run \`oxo-flow ai login ${this.server.name}\` again`
        : `run \`oxo-flow ai login ${this.server.name}\` once in a terminal; tokens are then refreshed without asking`;
  }

  /** The server's DPoP key (made once, kept in $OXO_FLOW_HOME). */
  private dpopKey(): DpopKey {
    this.key ??= DpopKey.forServer(this.ctx.home, this.server.name);
    return this.key;
  }

  /** The key to bind new tokens with, when the skill and the authorization server agree on DPoP. */
  private dpopFor(as: AuthServerMetadata): DpopKey | undefined {
    return wantsDpop(this.server.oauth?.dpop, as.dpop_signing_alg_values_supported) ? this.dpopKey() : undefined;
  }

  private async token(): Promise<StoredTokens | undefined> {
    const stored = readStoredAuth(this.ctx.home, this.server.name, this.server.url);
    if (stored?.tokens === undefined) return undefined;
    if (stored.tokens.expires_at === undefined || stored.tokens.expires_at - EXPIRY_MARGIN_MS > Date.now()) return stored.tokens;
    return this.renew(stored).catch(() => undefined);
  }

  async headers(method: string, url: URL): Promise<Record<string, string>> {
    const tokens = await this.token();
    if (tokens === undefined) return {};
    const authorization = authorizationValue(tokens.token_type, tokens.access_token);
    // A DPoP-bound token goes with a fresh proof of the key for this request (RFC 9449 §7).
    return tokens.token_type.toLowerCase() === 'dpop' ? { authorization, dpop: this.dpopKey().proof(method, url, tokens.access_token) } : { authorization };
  }

  /**
   * 403 insufficient_scope: the scopes wanted are those of the token plus those the challenge
   * names. Machine grants get a new token for them at once; for a person they are kept, so the
   * next `ai login` asks for them (a command never opens a browser on its own).
   */
  async insufficientScope(wwwAuthenticate: string | undefined): Promise<boolean> {
    const wanted = parseWwwAuthenticate(wwwAuthenticate)?.params.scope;
    const stored = readStoredAuth(this.ctx.home, this.server.name, this.server.url);
    if (wanted === undefined || wanted.trim() === '' || stored === undefined) return false;
    const scope = unionScopes(stored.tokens?.scope, stored.scope_needed, wanted);
    if (isMachineGrant(this.server.oauth?.grant)) {
      await this.machineToken(wwwAuthenticate, scope);
      return true;
    }
    writeStoredAuth(this.ctx.home, this.server.name, { ...stored, scope_needed: scope });
    return false;
  }

  scopeHint(wwwAuthenticate: string | undefined): string | undefined {
    if (isMachineGrant(this.server.oauth?.grant)) return `the ${this.server.oauth?.grant?.replace('_', '-')} token of ${this.server.name} was not granted the scope; ask the authorization server's administrator`;
    const wanted = parseWwwAuthenticate(wwwAuthenticate)?.params.scope;
    return `run \`oxo-flow ai login ${this.server.name}\` again to grant the larger scope${wanted ? ` (${wanted})` : ''}`;
  }

  async unauthorized(wwwAuthenticate: string | undefined, dpopNonce?: string): Promise<boolean> {
    // RFC 9449 §9: the token is fine, the server wants its nonce in the proof.
    const challenge = parseWwwAuthenticate(wwwAuthenticate);
    if (challenge?.scheme.toLowerCase() === 'dpop' && challenge.params.error === 'use_dpop_nonce') return this.dpopKey().takeNonce(this.server.url, dpopNonce);
    let stored = readStoredAuth(this.ctx.home, this.server.name, this.server.url);
    // SEP-2352: a server that now names another authorization server gets nothing of the old one
    // (not its client registration, not a token refreshed there): forgotten, and had anew.
    if (stored?.tokens !== undefined && (await this.authServerMoved(stored, wwwAuthenticate))) stored = undefined;
    if (stored?.tokens?.refresh_token !== undefined) {
      if ((await this.renew(stored).catch(() => undefined)) !== undefined) return true;
    }
    if (isMachineGrant(this.server.oauth?.grant)) {
      await this.machineToken(wwwAuthenticate);
      return true;
    }
    return false;
  }

  /** The issuer the server names now, when it is not the one its stored tokens come from. */
  private movedTo: string | undefined;

  private async authServerMoved(stored: StoredAuth, wwwAuthenticate: string | undefined): Promise<boolean> {
    const prm = await protectedResourceMetadata(this.client, this.server.url, wwwAuthenticate).catch(() => undefined);
    const named = Array.isArray(prm?.authorization_servers) ? prm!.authorization_servers[0] : undefined;
    if (typeof named !== 'string' || stored.authServer.issuer === undefined || named === stored.authServer.issuer) return false;
    this.movedTo = named;
    forgetStoredAuth(this.ctx.home, this.server.name);
    this.key = undefined;
    return true;
  }

  /** The stored client, with a configured secret or key read from the environment (never stored). */
  private clientAuth(stored: StoredAuth): ClientAuth {
    const configured = configuredClient(this.server, this.ctx.env);
    return configured !== undefined && configured.client_id === stored.client.client_id ? configured : stored.client;
  }

  private async renew(stored: StoredAuth): Promise<StoredTokens | undefined> {
    if (stored.tokens?.refresh_token === undefined) {
      if (isMachineGrant(this.server.oauth?.grant)) return (await this.machineToken(undefined)).tokens;
      return undefined;
    }
    // A bound token is refreshed with a proof of the same key (RFC 9449 §5).
    const dpop = stored.tokens.token_type.toLowerCase() === 'dpop' ? this.dpopKey() : this.dpopFor(stored.authServer);
    const tokens = await tokenRequest(this.client, stored.authServer, { grant_type: 'refresh_token', refresh_token: stored.tokens.refresh_token, resource: stored.resource }, this.clientAuth(stored), dpop);
    // Servers may rotate the refresh token; keep the old one when they do not send a new one.
    const next = { ...stored, tokens: { ...tokens, ...(tokens.refresh_token === undefined ? { refresh_token: stored.tokens.refresh_token } : {}) } };
    writeStoredAuth(this.ctx.home, this.server.name, next);
    return next.tokens;
  }

  /** `ai login` for a machine grant: a token now, so the settings are known to work (no browser). */
  async obtain(): Promise<StoredAuth> {
    return this.machineToken(undefined);
  }

  /** A token by the skill's machine grant: client credentials, a workload's JWT, or an enterprise ID token. */
  private async machineToken(wwwAuthenticate: string | undefined, wantedScope?: string): Promise<StoredAuth> {
    const found = await discoverAuthorization(this.client, this.server.url, wwwAuthenticate);
    const o = this.server.oauth ?? {};
    const secret = clientSecret(this.server, this.ctx.env);
    const grant = o.grant ?? 'client_credentials';
    const scope = wantedScope ?? o.scope ?? found.scopes?.join(' ');
    const dpop = this.dpopFor(found.authServer);
    let registered: ClientAuth;
    let form: Record<string, string>;
    if (grant === 'client_credentials') {
      registered = configuredClient(this.server, this.ctx.env) ?? (await registerClient(this.client, found.authServer, [], 'client_credentials', this.ctx, dpop !== undefined));
      form = { grant_type: 'client_credentials' };
    } else {
      registered = configuredClient(this.server, this.ctx.env) ?? { client_id: '' };
      if (registered.client_id === '' && grant === 'enterprise') throw new McpFailure('MCP016', `the ${grant.replace('_', '-')} grant needs the client id the authorization server knows this client by`, 'set [mcp] oauth client_id in the skill');
      const assertion = grant === 'jwt_bearer' ? readCredential(this.ctx.env, o.assertionEnv, o.assertionFile, 'assertion', 'assertion') : await this.idJag(found);
      form = { grant_type: JWT_BEARER_GRANT, assertion };
    }
    const tokens = await tokenRequest(this.client, found.authServer, { ...form, resource: found.resource, ...(scope ? { scope } : {}) }, registered, dpop);
    const stored: StoredAuth = { server: this.server.name, url: this.server.url, resource: found.resource, authServer: found.authServer, client: storable(registered, secret), tokens };
    writeStoredAuth(this.ctx.home, this.server.name, stored);
    return stored;
  }

  /**
   * SEP-990, step one: the person's ID token exchanged at the company's identity provider (RFC
   * 8693) for an identity assertion JWT authorization grant (ID-JAG) for this authorization server
   * and this MCP server.
   */
  private async idJag(found: { resource: string; authServer: AuthServerMetadata }): Promise<string> {
    const o = this.server.oauth ?? {};
    if (o.idpTokenEndpoint === undefined || o.idpClientId === undefined) {
      throw new McpFailure('MCP016', 'the enterprise grant needs the identity provider\'s token endpoint and this client\'s id there', 'set [mcp] oauth idp_token_endpoint and idp_client_id in the skill');
    }
    const idToken = readCredential(this.ctx.env, o.idTokenEnv, o.idTokenFile, 'ID token', 'id_token');
    const idpSecret = o.idpClientSecretEnv === undefined ? undefined : requiredEnv(this.ctx.env, o.idpClientSecretEnv, 'the identity provider\'s client secret');
    const idp: AuthServerMetadata = { issuer: new URL(o.idpTokenEndpoint).origin, token_endpoint: o.idpTokenEndpoint };
    const audience = found.authServer.issuer ?? new URL(found.authServer.token_endpoint).origin;
    const jag = await tokenRequest(
      this.client,
      idp,
      { grant_type: TOKEN_EXCHANGE_GRANT, requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag', audience, resource: found.resource, subject_token: idToken, subject_token_type: 'urn:ietf:params:oauth:token-type:id_token', ...(o.scope ? { scope: o.scope } : {}) },
      { client_id: o.idpClientId, ...(idpSecret !== undefined ? { client_secret: idpSecret } : {}) },
      undefined,
      'identity provider',
    );
    return jag.access_token;
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
  // A machine grant needs no browser: the token is got (and kept) as any command would get it.
  if (isMachineGrant(server.oauth?.grant)) {
    const auth = new McpAuth(server, ctx);
    try {
      return await auth.obtain();
    } finally {
      await auth.close();
    }
  }
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
    // DPoP: the code is bound to the key too (RFC 9449 §10), so only this client can redeem it.
    const dpop = wantsDpop(server.oauth?.dpop, found.authServer.dpop_signing_alg_values_supported) ? DpopKey.forServer(ctx.home, server.name) : undefined;
    const registered = configuredClient(server, ctx.env) ?? (await registerClient(client, found.authServer, [redirectUri], 'authorization_code', ctx, dpop !== undefined));
    const { verifier, challenge: codeChallenge } = pkcePair();
    const state = b64url(randomBytes(16));
    // A scope the server asked for since the last login (403 insufficient_scope) is asked for too.
    const before = readStoredAuth(ctx.home, server.name, server.url);
    const scope = unionScopes(server.oauth?.scope ?? found.scopes?.join(' '), before?.scope_needed);
    const authorize = new URL(found.authServer.authorization_endpoint);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: registered.client_id, redirect_uri: redirectUri, code_challenge: codeChallenge, code_challenge_method: 'S256', state, resource: found.resource, ...(scope ? { scope } : {}), ...(dpop !== undefined ? { dpop_jkt: dpop.thumbprint } : {}) })) {
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
    const tokens = await tokenRequest(client, found.authServer, { grant_type: 'authorization_code', code: await code, redirect_uri: redirectUri, code_verifier: verifier, resource: found.resource }, registered, dpop);
    const stored: StoredAuth = { server: server.name, url: server.url, resource: found.resource, authServer: found.authServer, client: storable(registered, secret), tokens };
    writeStoredAuth(ctx.home, server.name, stored);
    return stored;
  } finally {
    listener.close();
    listener.closeAllConnections?.();
    await client.close();
  }
}
