// Where OAuth tokens of MCP servers live: $OXO_FLOW_HOME/oauth/<server>.json, one file per server
// name, mode 0600 in a 0700 directory, written whole through a temporary file and a rename. A file
// for another URL than the server's (the skill now points elsewhere) is ignored, so a token never
// goes to a server it was not issued for.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DpopKey } from './dpop.js';
import type { AuthServerMetadata } from './oauth.js';

export interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  /** Epoch milliseconds. */
  expires_at?: number;
  scope?: string;
}

export interface StoredAuth {
  server: string;
  url: string;
  resource: string;
  authServer: AuthServerMetadata;
  /** A registered client's id (and its secret when the server issued one; a configured secret is never stored). */
  client: { client_id: string; client_secret?: string };
  tokens?: StoredTokens;
  /** Scopes a server asked for beyond the token's (403 insufficient_scope): the next login requests them. */
  scope_needed?: string;
}

const fileOf = (home: string, server: string) => path.join(home, 'oauth', `${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);

export function readStoredAuth(home: string, server: string, url: string): StoredAuth | undefined {
  try {
    const stored = JSON.parse(readFileSync(fileOf(home, server), 'utf8')) as StoredAuth;
    return stored.url === url ? stored : undefined;
  } catch {
    return undefined;
  }
}

export function writeStoredAuth(home: string, server: string, auth: StoredAuth): void {
  const dir = path.join(home, 'oauth');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = fileOf(home, server);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(auth, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** `ai logout`: forget a server's tokens and client. True when there was something to forget. */
export function forgetStoredAuth(home: string, server: string): boolean {
  const file = fileOf(home, server);
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  // The DPoP key its tokens were bound to goes with them.
  DpopKey.forget(home, server);
  return true;
}
