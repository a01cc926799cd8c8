// JSON Web Signatures in compact form (RFC 7515), as the OAuth code signs them: client assertions
// (RFC 7523) and DPoP proofs (RFC 9449). base64url without padding, as both RFCs write it.

export const b64url = (buf: Buffer): string => buf.toString('base64url');

const part = (v: unknown) => b64url(Buffer.from(JSON.stringify(v)));

/** `header.claims.signature`, the signature made over `header.claims` by `signature`. */
export function compactJws(header: Readonly<Record<string, unknown>>, claims: Readonly<Record<string, unknown>>, signature: (input: string) => Buffer): string {
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${b64url(signature(input))}`;
}
