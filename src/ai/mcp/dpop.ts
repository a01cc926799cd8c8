// DPoP (RFC 9449): sender-constrained OAuth tokens. A P-256 key per MCP server, kept in
// $OXO_FLOW_HOME/oauth/<server>.dpop.pem (mode 0600, in the 0700 folder of the tokens) so a bound
// token outlives the command; a fresh proof (a JWT signed with that key, naming the HTTP method and
// address) on every token request and every request that carries the token; the server's nonce
// (`use_dpop_nonce`) kept per address and answered with exactly one retry. Neither the key nor a
// proof is ever printed.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpFailure } from './failure.js';
import { b64url, compactJws } from './jws.js';

/** The key file of a server (next to its token file, same name rule). */
export const dpopKeyFile = (home: string, server: string) => path.join(home, 'oauth', `${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.dpop.pem`);

/** `htu`: the request address without query and fragment (RFC 9449 §4.2). */
export function proofTarget(url: string | URL): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** RFC 7638 thumbprint of a P-256 public JWK: SHA-256 of its required members in lexicographic order. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  return b64url(createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest());
}

export class DpopKey {
  /** Server nonces by address (RFC 9449 §8, §9): the token endpoint's and the MCP server's. */
  private readonly nonces = new Map<string, string>();
  private readonly jwk: { kty: string; crv: string; x: string; y: string };

  constructor(private readonly key: KeyObject) {
    const pub = createPublicKey(key).export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y: string };
    this.jwk = { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y };
  }

  /** The server's key, made (and written, 0600) the first time it is needed. */
  static forServer(home: string, server: string): DpopKey {
    const file = dpopKeyFile(home, server);
    let pem: string | undefined;
    try {
      pem = readFileSync(file, 'utf8');
    } catch {
      pem = undefined;
    }
    if (pem !== undefined) {
      try {
        const key = createPrivateKey(pem);
        if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return new DpopKey(key);
      } catch {
        // Unreadable: replaced below (tokens bound to it are then refused and renewed).
      }
    }
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const dir = path.dirname(file);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, file);
    } catch (err) {
      // A key that cannot be kept would bind tokens to nothing the next command has.
      throw new McpFailure('MCP016', `cannot keep the DPoP key in ${dir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'make $OXO_FLOW_HOME writable, or set [mcp] oauth dpop = false in the skill');
    }
    return new DpopKey(privateKey);
  }

  /** Remove a server's key; true when there was one. */
  static forget(home: string, server: string): boolean {
    const file = dpopKeyFile(home, server);
    if (!existsSync(file)) return false;
    rmSync(file, { force: true });
    return true;
  }

  get thumbprint(): string {
    return jwkThumbprint(this.jwk);
  }

  /** A fresh proof for one request; with the access token it carries `ath` (its SHA-256). */
  proof(method: string, url: string | URL, accessToken?: string, now = Date.now()): string {
    const nonce = this.nonces.get(proofTarget(url));
    const claims = {
      jti: b64url(randomBytes(16)),
      htm: method.toUpperCase(),
      htu: proofTarget(url),
      iat: Math.floor(now / 1000),
      ...(accessToken !== undefined ? { ath: b64url(createHash('sha256').update(accessToken, 'ascii').digest()) } : {}),
      ...(nonce !== undefined ? { nonce } : {}),
    };
    return compactJws({ typ: 'dpop+jwt', alg: 'ES256', jwk: this.jwk }, claims, (input) => sign('sha256', Buffer.from(input), { key: this.key, dsaEncoding: 'ieee-p1363' }));
  }

  /**
   * Remember a nonce the server sent (`DPoP-Nonce`). True when it is new, so a request refused
   * with `use_dpop_nonce` is worth one retry; a server repeating the nonce we sent is not.
   */
  takeNonce(url: string | URL, header: string | string[] | undefined): boolean {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value === '' || !/^[\x21-\x7e]+$/.test(value)) return false;
    const target = proofTarget(url);
    if (this.nonces.get(target) === value) return false;
    this.nonces.set(target, value);
    return true;
  }
}

/** Whether to bind tokens: the skill's `dpop`, else when the authorization server offers ES256. */
export function wantsDpop(setting: boolean | undefined, algs: unknown): boolean {
  if (setting !== undefined) return setting;
  return Array.isArray(algs) && algs.includes('ES256');
}

/** A DPoP-bound token's Authorization header value, or a bearer token's. */
export function authorizationValue(tokenType: string, accessToken: string): string {
  return tokenType.toLowerCase() === 'dpop' ? `DPoP ${accessToken}` : `Bearer ${accessToken}`;
}
