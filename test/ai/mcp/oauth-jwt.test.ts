// JWT client assertions (RFC 7523) for the token endpoint: each key kind signs a token that
// node:crypto verifies against the public key, with the claims the authorization server checks.
import { createHmac, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientAssertion } from '../../../src/ai/mcp/oauth.js';

const as = { issuer: 'https://auth.example.org', token_endpoint: 'https://auth.example.org/token' };
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

function check(jwt: string, publicKey: KeyObject, hash: string | null, p1363: boolean) {
  const [h, p, s] = jwt.split('.');
  expect(verify(hash, Buffer.from(`${h}.${p}`), p1363 ? { key: publicKey, dsaEncoding: 'ieee-p1363' } : publicKey, Buffer.from(s!, 'base64url'))).toBe(true);
  return { header: decode(h!), claims: decode(p!) };
}

describe('clientAssertion', () => {
  const cases = [
    { kind: 'ES256', pair: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }), hash: 'sha256', p1363: true },
    { kind: 'ES384', pair: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }), hash: 'sha384', p1363: true },
    { kind: 'RS256', pair: () => generateKeyPairSync('rsa', { modulusLength: 2048 }), hash: 'sha256', p1363: false },
    { kind: 'EdDSA', pair: () => generateKeyPairSync('ed25519'), hash: null, p1363: false },
  ] as const;
  for (const c of cases) {
    it(`private_key_jwt with ${c.kind}: verifiable, iss = sub = client id, aud = issuer, short-lived`, () => {
      const { privateKey, publicKey } = c.pair();
      const jwt = clientAssertion({ client_id: 'lab-robot', privateKey }, as, 'private_key_jwt', 1_800_000_000_000);
      const { header, claims } = check(jwt, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), c.hash, c.p1363);
      expect(header).toEqual({ alg: c.kind, typ: 'JWT' });
      expect(claims).toMatchObject({ iss: 'lab-robot', sub: 'lab-robot', aud: 'https://auth.example.org', iat: 1_800_000_000, exp: 1_800_000_300 });
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    });
  }

  it('client_secret_jwt: HS256 with the secret; aud falls back to the token endpoint without an issuer', () => {
    const jwt = clientAssertion({ client_id: 'c', client_secret: 's3cret' }, { token_endpoint: as.token_endpoint }, 'client_secret_jwt');
    const [h, p, s] = jwt.split('.');
    expect(s).toBe(createHmac('sha256', 's3cret').update(`${h}.${p}`).digest('base64url'));
    expect(decode(p!).aud).toBe(as.token_endpoint);
    expect(jwt).not.toContain('s3cret');
  });

  it('a key it cannot sign with, or no key, is a clear MCP016', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    expect(() => clientAssertion({ client_id: 'c', privateKey }, as, 'private_key_jwt')).toThrow(/cannot sign with \(ec secp256k1\)/);
    expect(() => clientAssertion({ client_id: 'c' }, as, 'private_key_jwt')).toThrow(/needs a private key/);
  });
});

describe('the private key of [mcp] oauth', () => {
  it('from a file or a variable signs the client-credentials token request; a bad one is MCP016 without its text', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { McpAuth } = await import('../../../src/ai/mcp/oauth.js');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-jwt-'));
    const bad = path.join(dir, 'bad.pem');
    writeFileSync(bad, 'SECRET-LOOKING-TEXT');
    const server = (oauth: Record<string, string>) => ({ name: 'lab', url: 'http://127.0.0.1:9/mcp', oauth: { clientId: 'robot', grant: 'client_credentials' as const, ...oauth } });
    const ctx = { home: dir, env: { KEY: 'also-not-a-key' }, clientInfo: { name: 'oxo-flow', version: '0' } };
    // A 401 makes the client get a token: reading the key comes first, and fails clearly.
    for (const [oauth, message] of [
      [{ privateKeyFile: bad }, `${bad} does not hold a private key in PEM`],
      [{ privateKeyFile: path.join(dir, 'missing.pem') }, 'cannot read the private key file'],
      [{ privateKeyEnv: 'KEY' }, 'the variable KEY does not hold a private key in PEM'],
      [{ privateKeyEnv: 'UNSET' }, '[mcp] oauth names UNSET for the private key, which is not set'],
    ] as const) {
      const auth = new McpAuth(server(oauth), ctx);
      const err = await auth.unauthorized(undefined).then(() => undefined, (e: Error & { code?: string }) => e);
      await auth.close();
      expect(err?.message).toContain(message);
      expect(err?.message).not.toContain('SECRET-LOOKING-TEXT');
      expect(err?.message).not.toContain('also-not-a-key');
    }
  });
});
