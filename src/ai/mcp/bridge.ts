// The bridge from an MCP server's tools to the names a model sees: `mcp_<server>_<tool>`,
// sanitised to [A-Za-z0-9_-], at most 64 characters (hash suffix when shortened or colliding),
// with the raw name kept for tools/call. Also opens a server: connect, list, bridge.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { McpClient } from './client.js';
import { McpFailure } from './failure.js';
import { McpAuth } from './oauth.js';
import type { ElicitResult } from './elicit.js';
import type { Tool, ToolAnnotations } from './messages.js';
import type { ProgressView } from './progress-view.js';
import { expandHeaders, toolAllowed, type McpServerSpec } from './server-spec.js';
import { StreamableHttpTransport } from './streamable-http.js';

export const MAX_TOOL_NAME_LENGTH = 64;

export function sanitiseNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

function shortHash(server: string, tool: string, salt = 0): string {
  return createHash('sha256').update(`${server}\u0000${tool}\u0000${salt}`).digest('hex').slice(0, 8);
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;
}

/** What every exposed name of a server's tools starts with (before any shortening). */
export function serverToolPrefix(server: string): string {
  return `mcp_${sanitiseNamePart(server)}_`;
}

/** The name alone, before collisions with other tools are considered. */
export function exposedToolName(server: string, tool: string): string {
  const full = `${serverToolPrefix(server)}${sanitiseNamePart(tool)}`;
  return full.length <= MAX_TOOL_NAME_LENGTH ? full : withSuffix(full, shortHash(server, tool));
}

export interface NamedTool {
  server: string;
  tool: string;
  exposed: string;
  /** Why the name is not simply mcp_<server>_<tool>, if it is not. */
  renamed?: 'shortened' | 'collision';
}

/**
 * Names for a list of (server, tool) pairs, unique among themselves and against `taken` (built-in
 * tool names). The first pair keeps the plain name; later colliding pairs get a hash suffix.
 */
export function assignToolNames(pairs: readonly { server: string; tool: string }[], taken: Iterable<string> = []): NamedTool[] {
  const used = new Set(taken);
  return pairs.map(({ server, tool }) => {
    let exposed = exposedToolName(server, tool);
    const named: NamedTool = { server, tool, exposed };
    if (exposed !== `mcp_${sanitiseNamePart(server)}_${sanitiseNamePart(tool)}`) named.renamed = 'shortened';
    for (let salt = 0; used.has(exposed); salt++) {
      exposed = withSuffix(`mcp_${sanitiseNamePart(server)}_${sanitiseNamePart(tool)}`, shortHash(server, tool, salt));
      named.renamed = 'collision';
    }
    named.exposed = exposed;
    used.add(exposed);
    return named;
  });
}

/** A tool as the server described it, with the annotations the gate reads. */
export interface ServerTool {
  rawName: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** Tools that require task augmentation cannot be called with a plain tools/call. */
  callable: boolean;
}

export function toServerTool(tool: Tool): ServerTool {
  const t: ServerTool = {
    rawName: tool.name,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    annotations: { ...tool.annotations },
    callable: tool.execution?.taskSupport !== 'required',
  };
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) t.title = title;
  if (tool.description !== undefined) t.description = tool.description;
  return t;
}

export interface OpenServer {
  spec: McpServerSpec;
  /** Where progress of this server's calls is shown, if anywhere. */
  progress?: ProgressView;
  client: McpClient;
  protocolVersion: string;
  serverName: string;
  /** The server's `instructions` (its own text, bounded): shown to the person, never given to a model. */
  instructions?: string;
  tools: ServerTool[];
}

/** Instructions longer than this are cut, saying so. */
export const MAX_INSTRUCTIONS = 2_000;

export function boundedInstructions(text: string | undefined): string | undefined {
  const t = text?.trim();
  if (t === undefined || t === '') return undefined;
  return t.length > MAX_INSTRUCTIONS ? `${t.slice(0, MAX_INSTRUCTIONS)} … (${t.length - MAX_INSTRUCTIONS} more characters not shown)` : t;
}

/** What a person at the terminal can do while calls run: answer a server's questions, see progress. */
export interface McpInteraction {
  elicit?: (server: string, params: Record<string, unknown> | undefined) => Promise<ElicitResult>;
  progress?: ProgressView;
}

export interface OpenServerOptions {
  env: Readonly<Record<string, string | undefined>>;
  interaction?: McpInteraction;
  clientInfo: { name: string; version: string };
  /** $OXO_FLOW_HOME, where OAuth tokens are kept (default: from env). */
  home?: string;
}

/** $OXO_FLOW_HOME, else ~/.oxo-flow (the same rule as skills and provider settings). */
function homeOf(env: Readonly<Record<string, string | undefined>>): string {
  const home = env.OXO_FLOW_HOME;
  return home !== undefined && home !== '' ? path.resolve(home) : path.join(env.HOME || os.homedir(), '.oxo-flow');
}

/** Connect to one server and list its tools. Rejects with McpFailure; the connection is closed on failure. */
export async function openServer(spec: McpServerSpec, options: OpenServerOptions): Promise<OpenServer> {
  const headers = expandHeaders(spec.headers, options.env);
  // A skill that sets its own Authorization header manages its credentials; otherwise a 401 is met
  // with OAuth (a stored or refreshed token, or client credentials).
  const ownAuth = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
  const auth = ownAuth ? undefined : new McpAuth({ name: spec.name, url: spec.url, ...(spec.oauth !== undefined ? { oauth: spec.oauth } : {}) }, { home: options.home ?? homeOf(options.env), env: options.env, clientInfo: options.clientInfo });
  const transport = new StreamableHttpTransport({
    ...(auth !== undefined ? { auth } : {}),
    url: spec.url,
    // Servers and their operators see who is calling; a skill's own User-Agent header wins.
    headers: { 'user-agent': `${options.clientInfo.name}/${options.clientInfo.version}`, ...headers },
    ...(spec.connectTimeoutMs !== undefined ? { connectTimeoutMs: spec.connectTimeoutMs } : {}),
  });
  const client = new McpClient(transport, {
    clientInfo: options.clientInfo,
    ...(spec.connectTimeoutMs !== undefined ? { handshakeTimeoutMs: spec.connectTimeoutMs } : {}),
    ...(spec.callTimeoutMs !== undefined ? { callTimeoutMs: spec.callTimeoutMs } : {}),
    ...(options.interaction?.elicit !== undefined ? { elicit: (params: Record<string, unknown> | undefined) => options.interaction!.elicit!(spec.name, params) } : {}),
  });
  try {
    const init = await client.connect();
    const tools = (await client.listTools()).filter((t) => toolAllowed(spec, t.name)).map(toServerTool);
    const instructions = boundedInstructions(init.instructions);
    return { spec, client, protocolVersion: init.protocolVersion, serverName: init.serverInfo.name, tools, ...(instructions !== undefined ? { instructions } : {}), ...(options.interaction?.progress !== undefined ? { progress: options.interaction.progress } : {}) };
  } catch (err) {
    await client.close();
    if (err instanceof McpFailure) throw err;
    throw new McpFailure('MCP002', `cannot use MCP server ${spec.name}: ${(err as Error).message}`);
  }
}

/** Re-list after notifications/tools/list_changed, so the gate sees current annotations. */
export async function refreshTools(server: OpenServer): Promise<void> {
  if (!server.client.toolsChanged) return;
  server.tools = (await server.client.listTools()).filter((t) => toolAllowed(server.spec, t.name)).map(toServerTool);
}
