// The tool registry: built-in read-only tools plus the tools of every reachable MCP server, under
// unique exposed names. An unreachable or broken server is recorded once and skipped; the others
// still serve.
import { assignToolNames, openServer, refreshTools, type McpInteraction, type OpenServer, type ServerTool } from '../mcp/bridge.js';
import { McpFailure, displayUrl } from '../mcp/failure.js';
import { capText, resultText } from '../mcp/result.js';
import type { McpServerSpec } from '../mcp/server-spec.js';
import type { Code } from '../../diagnostics/registry.js';
import type { ToolEntry, ToolOutput } from './types.js';

export interface ServerStatus {
  name: string;
  /** Shown without credentials. */
  url: string;
  source: McpServerSpec['source'];
  ok: boolean;
  protocolVersion?: string;
  serverName?: string;
  toolCount?: number;
  /** The server's instructions (bounded): for the person; not given to models. */
  instructions?: string;
  error?: { code: Code; message: string; hint?: string };
  /** Tools the server offers that this client refuses, and why (invalid x-mcp-header marks). */
  rejectedTools?: readonly { name: string; reason: string }[];
}

export interface RenamedTool {
  exposed: string;
  server: string;
  rawName: string;
  why: 'shortened' | 'collision';
}

export interface ToolRegistry {
  tools: ToolEntry[];
  servers: ServerStatus[];
  renamed: RenamedTool[];
  find(name: string): ToolEntry | undefined;
  /** Cancel what is in flight and close every MCP session (DELETE), once however often called. Never throws. */
  close(reason?: string): Promise<void>;
}

export interface RegistryOptions {
  builtins: ToolEntry[];
  servers: McpServerSpec[];
  env: Readonly<Record<string, string | undefined>>;
  clientInfo: { name: string; version: string };
  interaction?: McpInteraction;
}

export function failureInfo(err: unknown): { code: Code; message: string; hint?: string } {
  if (err instanceof McpFailure) return { code: err.code, message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) };
  return { code: 'MCP002', message: (err as Error)?.message ?? String(err) };
}

export async function buildToolRegistry(options: RegistryOptions): Promise<ToolRegistry> {
  const settled = await Promise.allSettled(options.servers.map((spec) => openServer(spec, { env: options.env, clientInfo: options.clientInfo, ...(options.interaction !== undefined ? { interaction: options.interaction } : {}) })));
  const open: OpenServer[] = [];
  const servers: ServerStatus[] = options.servers.map((spec, i) => {
    const outcome = settled[i]!;
    const base = { name: spec.name, url: displayUrl(spec.url), source: spec.source };
    if (outcome.status === 'rejected') return { ...base, ok: false, error: failureInfo(outcome.reason) };
    open.push(outcome.value);
    const { protocolVersion, serverName, tools, instructions } = outcome.value;
    const rejected = outcome.value.client.rejectedTools;
    return { ...base, ok: true, protocolVersion, serverName, toolCount: tools.length, ...(instructions !== undefined ? { instructions } : {}), ...(rejected.length > 0 ? { rejectedTools: rejected } : {}) };
  });

  const pairs = open.flatMap((server) => server.tools.map((tool) => ({ server, tool })));
  const names = assignToolNames(
    pairs.map((p) => ({ server: p.server.spec.name, tool: p.tool.rawName })),
    options.builtins.map((t) => t.name),
  );
  const renamed: RenamedTool[] = [];
  const mcpTools = pairs.map(({ server, tool }, i) => {
    const named = names[i]!;
    if (named.renamed !== undefined) renamed.push({ exposed: named.exposed, server: server.spec.name, rawName: tool.rawName, why: named.renamed });
    return mcpToolEntry(named.exposed, server, tool);
  });
  const tools = [...options.builtins, ...mcpTools];
  const byName = new Map(tools.map((t) => [t.name, t]));
  let closing: Promise<void> | undefined;
  return {
    tools,
    servers,
    renamed,
    find: (name) => byName.get(name),
    close: (reason) => {
      closing ??= Promise.all(open.map((s) => s.client.close(reason))).then(() => undefined);
      return closing;
    },
  };
}

function mcpToolEntry(exposed: string, server: OpenServer, tool: ServerTool): ToolEntry {
  const entry: ToolEntry = {
    name: exposed,
    description: `[MCP: ${server.spec.name}] ${tool.description ?? tool.title ?? tool.rawName}`,
    inputSchema: tool.inputSchema,
    origin: { kind: 'mcp', server: server.spec.name, url: displayUrl(server.spec.url), rawName: tool.rawName },
    annotations: tool.annotations,
    gate: gateFor(tool, server),
    callable: tool.callable,
    invoke: (args) => invokeMcpTool(server, tool.rawName, args),
    // After notifications/tools/list_changed, re-list so the gate judges today's annotations.
    // Always judged against the server's current list (which an earlier refresh may have replaced).
    refresh: async () => {
      await refreshTools(server);
      const now = server.tools.find((t) => t.rawName === tool.rawName);
      if (now === undefined) return undefined;
      return now === tool ? entry : mcpToolEntry(exposed, server, now);
    },
  };
  if (tool.title !== undefined) entry.title = tool.title;
  return entry;
}

function gateFor(tool: ServerTool, server: OpenServer): ToolEntry['gate'] {
  const gate: ToolEntry['gate'] = { builtinReadOnly: false, trustAnnotations: server.spec.trustAnnotations };
  if (tool.annotations.readOnlyHint !== undefined) gate.readOnlyHint = tool.annotations.readOnlyHint;
  return gate;
}

async function invokeMcpTool(server: OpenServer, rawName: string, args: Record<string, unknown>): Promise<ToolOutput> {
  try {
    const view = server.progress;
    const result = await server.client.callTool(rawName, args, view !== undefined ? { onprogress: (p) => view.show(server.spec.name, rawName, p) } : {}).finally(() => view?.done());
    return { isError: result.isError === true, text: capText(resultText(result)) };
  } catch (err) {
    const info = failureInfo(err);
    return { isError: true, text: capText(info.message), code: info.code, ...(info.hint !== undefined ? { hint: info.hint } : {}) };
  }
}
