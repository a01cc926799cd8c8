// Parse a WWW-Authenticate challenge (RFC 9110 §11.6.1) into scheme and parameters, so a 401/403
// can say what the server wants: a bearer token, which scope, where its metadata lives.

export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses the first challenge of the header. Quoted strings may hold commas and escaped quotes. */
export function parseWwwAuthenticate(header: string | undefined): AuthChallenge | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*(.*)$/s.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const re = /\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/gy;
  const rest = m[2] ?? '';
  let match: RegExpExecArray | null;
  while ((match = re.exec(rest)) !== null && match[0] !== '') {
    params[match[1]!.toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return { scheme: m[1]!, params };
}

/** One line for an error message: the scheme and the parameters a user can act on. */
export function describeAuthChallenge(header: string | undefined): string | undefined {
  const c = parseWwwAuthenticate(header);
  if (c === undefined) return undefined;
  const parts = [`server wants ${c.scheme}`];
  for (const key of ['error', 'error_description', 'scope', 'resource_metadata', 'realm']) {
    const v = c.params[key];
    if (v !== undefined && v !== '') parts.push(`${key}="${v.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 200)}"`);
  }
  return parts.join(', ');
}
