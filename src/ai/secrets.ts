// Secrets never reach output, logs or session files. Two tools: URLs are shown with their user-info
// and query values masked (`http://***@host/mcp?key=***`), and any text about to be shown or recorded
// is scrubbed of every configured secret value (MCP headers and bearer tokens, keys read from the
// environment, `sensitive = true` config values), because a server may echo a header back in an error.

const MASK = '***';

// scheme://authority path ?query #fragment. The authority ends at the first `/`, `?` or `#`.
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/s;

function maskPairs(part: string): string {
  return part
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const eq = pair.indexOf('=');
      if (eq < 0) return MASK; // a bare `?token` is as secret as a value
      return eq === pair.length - 1 ? pair : `${pair.slice(0, eq + 1)}${MASK}`;
    })
    .join('&');
}

/** The URL with user-info and query (and fragment) values replaced by `***`; everything else as written. */
export function maskUrl(url: string): string {
  const m = URL_PARTS.exec(url);
  if (!m) return url;
  const [, scheme, authority = '', pathPart = '', query, fragment] = m;
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? `${MASK}@${authority.slice(at + 1)}` : authority;
  const q = query === undefined ? '' : `?${maskPairs(query.slice(1))}`;
  const f = fragment === undefined || fragment === '#' ? (fragment ?? '') : `#${maskPairs(fragment.slice(1))}`;
  return `${scheme}${host}${pathPart}${q}${f}`;
}

// A URL inside free text (an error message): stops at whitespace, quotes and brackets.
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>()[\]{}`]+/g;

/** Every URL inside free text masked as `maskUrl` does (error messages quote the URL they failed on). */
export function maskUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (u) => maskUrl(u));
}

/** Shorter values are not secrets worth hunting for, and replacing them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every occurrence of a configured secret value (length ≥ 4) replaced by `***`; also its
 * percent-encoded form, which is how it appears inside a URL, and its form inside a JSON string
 * (`"` and `\` escaped), which is how it appears in a JSON document, a session file or a run record
 * (the same escapes as a trace.tsv cell). Longer secrets are replaced first so a secret containing
 * another is masked whole.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  if (text === '') return text;
  return redactorFor(secrets)(text);
}

/** `redactSecrets` with the secrets fixed once: for a display that masks many short texts. */
export function redactorFor(secrets: readonly string[]): (text: string) => string {
  const forms = secretForms(secrets);
  if (forms.length === 0) return (text) => text;
  const pattern = formsPattern(forms);
  return (text) => text.replace(pattern, MASK);
}

/** Each secret (length ≥ 4), its percent-encoded form and its form inside a JSON string, longest first. */
function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function formsPattern(forms: readonly string[]): RegExp {
  return new RegExp(forms.map(escapeRegExp).join('|'), 'g');
}

/**
 * Redaction of a text that arrives in pieces (a streamed answer): a secret cut over several deltas
 * is masked whole. Whatever might still grow into a secret (an end of the text that is the start of
 * one) is held back until the next piece tells; so at most the longest secret's length waits.
 */
export class StreamRedactor {
  private readonly forms: string[];
  private readonly pattern: RegExp | undefined;
  private pending = '';
  constructor(secrets: readonly string[]) {
    this.forms = secretForms(secrets);
    this.pattern = this.forms.length > 0 ? formsPattern(this.forms) : undefined;
  }

  /** Add a piece; returns the text that is safe to show now (possibly empty). */
  push(delta: string): string {
    if (this.pattern === undefined) return delta;
    const text = this.pending + delta;
    let cut = text.length - this.heldBack(text);
    // Never cut through a secret that is already whole: hold it back with the rest.
    for (const m of text.matchAll(this.pattern)) {
      if (m.index < cut && m.index + m[0].length > cut) cut = m.index;
    }
    this.pending = text.slice(cut);
    return text.slice(0, cut).replace(this.pattern, MASK);
  }

  /** The end of the text: what was held back, masked. */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return this.pattern === undefined ? rest : rest.replace(this.pattern, MASK);
  }

  /** Length of the longest end of `text` that is the start (not the whole) of a secret. */
  private heldBack(text: string): number {
    let longest = 0;
    for (const form of this.forms) {
      for (let n = Math.min(form.length - 1, text.length); n > longest; n--) {
        if (text.endsWith(form.slice(0, n))) {
          longest = n;
          break;
        }
      }
    }
    return longest;
  }
}

/** `redactSecrets` then `maskUrlsIn`: what every message about a remote service goes through before it is shown or recorded. */
export function scrubMessage(text: string, secrets: readonly string[]): string {
  return maskUrlsIn(redactSecrets(text, secrets));
}

/**
 * Environment variable names that hold credentials by convention (OPENAI_API_KEY, GITHUB_TOKEN, DB_PASSWORD...):
 * the name is one of these words, or ends with `_` and one of them, ASCII letters in any case. Compared
 * by character code rather than with a case-insensitive regular expression, whose compilation on
 * every start cost more than the whole scan (this runs for every command).
 */
const SECRET_NAME_WORDS = ['API_KEY', 'APIKEY', 'KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'PASS', 'CREDENTIALS', 'CREDENTIAL', 'AUTH'];

/** True when `name` ends with `word` (upper-case ASCII), ASCII letters compared in any case. */
function endsWithWord(name: string, word: string): boolean {
  const start = name.length - word.length;
  if (start < 0 || (start > 0 && name.charCodeAt(start - 1) !== 95)) return false; // 95: `_`
  for (let k = 0; k < word.length; k++) {
    let c = name.charCodeAt(start + k);
    if (c >= 97 && c <= 122) c -= 32; // a-z → A-Z
    if (c !== word.charCodeAt(k)) return false;
  }
  return true;
}

function isSecretEnvName(name: string): boolean {
  for (const word of SECRET_NAME_WORDS) if (endsWithWord(name, word)) return true;
  return false;
}

/** Values of credential-named environment variables: they may reach a message through a header or a server's echo. */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  // Names first: reading a value of process.env is a call into Node, and few names match.
  for (const name of Object.keys(env)) {
    if (!isSecretEnvName(name)) continue;
    const value = env[name];
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) out.push(value);
  }
  return out;
}

/**
 * The secret values configured in a set of HTTP headers: each value with `${VAR}` expanded from env,
 * the credential after an auth scheme (`Bearer <token>`), and each referenced variable's value.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const raw of Object.values(headers)) {
    const expanded = raw.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
      const value = env[name];
      if (value !== undefined) out.push(value);
      return value ?? '';
    });
    out.push(expanded);
    const credential = /^\s*[A-Za-z][A-Za-z0-9-]*\s+(\S.*)$/.exec(expanded)?.[1];
    if (credential !== undefined) out.push(credential);
  }
  return out.filter((s) => s.length >= MIN_SECRET_LENGTH);
}

/**
 * The values of the variables a skill's [mcp] oauth table names (client and identity-provider
 * secrets, private keys, workload assertions, ID tokens: every `*_env` setting), whatever the
 * variables are called.
 */
export function oauthSecrets(oauth: object | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [k, name] of Object.entries(oauth ?? {})) {
    if (!k.endsWith('Env') || typeof name !== 'string') continue;
    const value = env[name];
    if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
    out.push(value);
    // A PEM key's lines, too: a message may quote one line of it.
    if (value.includes('\n')) out.push(...value.split(/\r?\n/).filter((l) => l.length >= 16));
  }
  return out;
}

const SECRET_QUERY_NAME = /key|token|secret|pass|auth|sig|cred|code/i;

/** The password in a URL's user-info and the values of credential-named query parameters. */
export function urlSecrets(url: string): string[] {
  const m = URL_PARTS.exec(url);
  if (!m) return [];
  const out: string[] = [];
  const authority = m[2] ?? '';
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const userInfo = authority.slice(0, at);
    const colon = userInfo.indexOf(':');
    out.push(colon >= 0 ? userInfo.slice(colon + 1) : userInfo);
  }
  for (const pair of (m[4] ?? '').slice(1).split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && SECRET_QUERY_NAME.test(pair.slice(0, eq))) out.push(pair.slice(eq + 1));
  }
  return out.flatMap((s) => {
    let decoded = s;
    try {
      decoded = decodeURIComponent(s);
    } catch {
      // keep the raw form only
    }
    return decoded === s ? [s] : [s, decoded];
  }).filter((s) => s.length >= MIN_SECRET_LENGTH);
}
