// Secrets never reach output, logs or session records. Two masks: a URL's user-info and query
// values, and every occurrence of a configured secret value (API keys, header values).

/** The URL with its user-info and query values replaced by `***`; unparsable text is returned masked whole. */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '***';
  }
  if (u.username !== '') u.username = '***';
  if (u.password !== '') u.password = '***';
  for (const key of [...new Set(u.searchParams.keys())]) u.searchParams.set(key, '***');
  return u.toString().replaceAll('%2A%2A%2A', '***');
}

/** Every occurrence of each secret of length ≥ 4 in `text` → `***` (longest first, so overlaps stay masked). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const list = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 4))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of list) if (out.includes(s)) out = out.split(s).join('***');
  return out;
}
