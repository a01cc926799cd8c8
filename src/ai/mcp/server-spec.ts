// Where an MCP server comes from (an active tool skill or a --mcp flag) and how to reach it:
// URL mapping (mcp:// → http://), NAME=URL flags, ${ENV} expansion of header values.
import { maskUrl } from '../secrets.js';
import { McpFailure } from './failure.js';
import type { OAuthSettings } from './oauth.js';

export interface McpServerSpec {
  /** The user's alias: the skill name or the --mcp NAME (or one derived from the URL). */
  name: string;
  url: string;
  /** Raw header values, `${VAR}` not yet expanded. */
  headers: Record<string, string>;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** false: ask for every call, whatever the server's readOnlyHint says. */
  trustAnnotations: boolean;
  /** Only these tools are offered (exact names, `*` matches any text); every tool when absent. */
  allowTools?: string[];
  /** Never offered, even when allowed. */
  denyTools?: string[];
  /** OAuth settings of the skill; a server that answers 401 is logged in to with OAuth in any case. */
  oauth?: OAuthSettings;
  source: { kind: 'skill'; path: string } | { kind: 'flag' };
}

/** mcp:// means http://; only http and https are accepted. */
export function normaliseServerUrl(raw: string): string {
  const mapped = raw.replace(/^mcp:\/\//i, 'http://');
  let u: URL;
  try {
    u = new URL(mapped);
  } catch {
    throw new McpFailure('MCP001', `"${maskUrl(raw)}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new McpFailure('MCP001', `"${maskUrl(raw)}" uses ${u.protocol.replace(/:$/, '')}://; expected mcp://, http:// or https://`);
  }
  return u.toString();
}

/** `--mcp URL` or `--mcp NAME=URL`. A bare URL is named after its host and port. */
export function parseMcpFlag(value: string): McpServerSpec {
  const m = /^([A-Za-z0-9][A-Za-z0-9_.-]*)=(.+)$/.exec(value);
  const url = normaliseServerUrl(m ? m[2]! : value);
  const u = new URL(url);
  const name = m ? m[1]! : `${u.hostname.replace(/^\[|\]$/g, '')}-${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  return { name, url, headers: {}, trustAnnotations: true, source: { kind: 'flag' } };
}

const namePattern = (p: string) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** Whether a skill's allow_tools / deny_tools let a server tool through (deny wins). */
export function toolAllowed(spec: Pick<McpServerSpec, 'allowTools' | 'denyTools'>, rawName: string): boolean {
  if (spec.denyTools?.some((p) => namePattern(p).test(rawName))) return false;
  return spec.allowTools === undefined || spec.allowTools.some((p) => namePattern(p).test(rawName));
}

/**
 * Expand `${VAR}` in header values from env. A missing variable is an error naming the header and
 * the variable, never the value.
 */
export function expandHeaders(raw: Record<string, string>, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(raw)) {
    out[name] = template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, variable: string) => {
      const value = env[variable];
      if (value === undefined || value === '') {
        throw new McpFailure('MCP014', `header "${name}" uses \${${variable}}, which is not set`, `export ${variable} before running oxo-flow`);
      }
      return value;
    });
  }
  return out;
}
