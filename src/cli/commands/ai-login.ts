// `oxo-flow ai login SERVER` and `ai logout SERVER`: OAuth for an MCP server that asks for it. The
// server is a tool skill's name (active or not) or NAME=URL. Login opens the authorization URL in
// the user's browser ($BROWSER, else the platform's opener) and prints it, waits for the loopback
// redirect, and stores the tokens under $OXO_FLOW_HOME/oauth/ with mode 0600. No token is printed.
import { spawn } from 'node:child_process';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import { terminalSafeLine as safe } from '../terminal-safe.js';

export interface AiLoginOptions {
  server: string;
  project?: string;
}

const inCi = (env: Readonly<Record<string, string | undefined>>) => env.CI !== undefined && env.CI !== 'false' && env.CI !== '0';

/** The server named on the command line: NAME=URL or a URL, else a tool skill of that name. */
async function resolveServer(opts: AiLoginOptions, ctx: CliContext) {
  const { parseMcpFlag } = await import('../../ai/mcp/server-spec.js');
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]*=|^(mcp|https?):\/\//i.test(opts.server)) return { spec: parseMcpFlag(opts.server) };
  const { loadSkillContext } = await import('../../ai/skills/index.js');
  const skills = await loadSkillContext({ cwd: ctx.cwd, env: ctx.env, ...(opts.project !== undefined ? { project: opts.project } : {}), skillFlags: [], command: 'ai login' });
  const skill = skills.discovery.skills.find((s) => s.name === opts.server && s.type === 'tool' && s.mcp !== undefined);
  if (skill === undefined) return { missing: skills.discovery.skills.filter((s) => s.type === 'tool').map((s) => s.name) };
  return { spec: { name: skill.name, url: skill.mcp!.url, ...(skill.mcp!.oauth !== undefined ? { oauth: skill.mcp!.oauth } : {}) } };
}

function unknownServer(name: string, known: string[]): CommandResult {
  return {
    outcome: 'usage',
    json: { server: name },
    diagnostics: [diagnostic('MCP016', `no tool skill named ${name}`, { hint: known.length > 0 ? `tool skills here: ${known.join(', ')}; or give NAME=URL` : 'give the server as NAME=URL, or write a tool skill for it (docs/mcp.md)' })],
  };
}

export async function aiLogin(opts: AiLoginOptions, ctx: CliContext): Promise<CommandResult> {
  const found = await resolveServer(opts, ctx);
  if (found.spec === undefined) return unknownServer(opts.server, found.missing);
  const spec = found.spec;
  // A machine grant (client credentials, jwt_bearer, enterprise) needs no person: fine in CI too.
  const machine = spec.oauth?.grant !== undefined && spec.oauth.grant !== 'authorization_code';
  if (inCi(ctx.env) && !machine) {
    return {
      outcome: 'failed',
      json: { server: spec.name },
      diagnostics: [diagnostic('MCP016', 'ai login needs a person at a browser, and CI is set', { hint: `run \`oxo-flow ai login ${spec.name}\` on your own machine, or give the skill a machine grant ([mcp] oauth = { grant = "client_credentials" | "jwt_bearer" | "enterprise", … }, docs/mcp.md)` })],
    };
  }
  const [{ login, browserCommand }, { oxoFlowHome }, { maskUrl }] = await Promise.all([import('../../ai/mcp/oauth.js'), import('../../ai/skills/load-context.js'), import('../../ai/secrets.js')]);
  const home = oxoFlowHome(ctx.env);
  const open = async (url: string) => {
    ctx.stderr.write(`Open this address to log in to ${safe(spec.name)}:\n  ${url}\n`);
    const browser = browserCommand(ctx.env);
    if (browser === undefined) return;
    try {
      const child = spawn(browser.command, [...browser.args, url], { stdio: 'ignore', detached: true, env: { ...ctx.env } as NodeJS.ProcessEnv });
      child.on('error', () => undefined);
      child.unref();
    } catch {
      // The printed address is enough.
    }
  };
  const controller = new AbortController();
  const release = ctx.onInterrupt(() => controller.abort(new Error('cancelled with Ctrl-C')));
  try {
    const stored = await login(spec, { home, env: ctx.env, clientInfo: { name: 'oxo-flow', version: ctx.version } }, open, controller.signal);
    const json = {
      server: spec.name,
      url: maskUrl(spec.url),
      authorization_server: stored.authServer.issuer ?? null,
      client_id: stored.client.client_id,
      expires_at: stored.tokens?.expires_at !== undefined ? new Date(stored.tokens.expires_at).toISOString() : null,
      refreshable: stored.tokens?.refresh_token !== undefined,
    };
    return { outcome: 'ok', json, human: (style) => style.dim(`Logged in to ${safe(spec.name)}; tokens are kept in ${safe(home)}/oauth/ (mode 0600) and refreshed without asking.`) };
  } catch (err) {
    if (controller.signal.aborted) return { outcome: 'interrupted', json: { server: spec.name }, diagnostics: [diagnostic('CLI130', 'login cancelled with Ctrl-C')] };
    const e = err as { code?: string; message?: string; hint?: string };
    return { outcome: 'failed', json: { server: spec.name }, diagnostics: [diagnostic(e.code === 'MCP014' ? 'MCP014' : 'MCP016', e.message ?? String(err), e.hint ? { hint: e.hint } : {})] };
  } finally {
    release();
  }
}

export async function aiLogout(opts: AiLoginOptions, ctx: CliContext): Promise<CommandResult> {
  const found = await resolveServer(opts, ctx);
  if (found.spec === undefined) return unknownServer(opts.server, found.missing);
  const [{ forgetStoredAuth }, { oxoFlowHome }] = await Promise.all([import('../../ai/mcp/token-store.js'), import('../../ai/skills/load-context.js')]);
  const forgotten = forgetStoredAuth(oxoFlowHome(ctx.env), found.spec.name);
  return { outcome: 'ok', json: { server: found.spec.name, forgotten }, human: (style) => style.dim(forgotten ? `Forgot the tokens of ${safe(found.spec.name)}.` : `No tokens were stored for ${safe(found.spec.name)}.`) };
}
