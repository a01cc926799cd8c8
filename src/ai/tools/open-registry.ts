// Everything `ai tools`, `ai call` and the agent loop need to get the tool list: the active skills
// (through the skills module), their MCP servers plus any --mcp servers, and the built-in tools.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { McpInteraction } from '../mcp/bridge.js';
import { McpFailure, displayUrl } from '../mcp/failure.js';
import { parseMcpFlag, type McpServerSpec } from '../mcp/server-spec.js';
import type { Skill } from '../skills/types.js';
import { lookupTools } from './lookup.js';
import { readSkillTools } from './read-skill.js';
import { buildToolRegistry, type ServerStatus, type ToolRegistry } from './registry.js';
import type { ToolEntry } from './types.js';
import { validateWorkflowTool } from './validate-workflow.js';

export interface OpenRegistryInput {
  active: readonly Skill[];
  /** The built-in library as discovered: read_skill reads any of them as builtin/NAME. */
  builtins?: readonly Skill[];
  /** Servers from --mcp flags (see serversFromFlags), after those of the active tool skills. */
  servers: McpServerSpec[];
  env: Readonly<Record<string, string | undefined>>;
  clientInfo: { name: string; version: string };
  /** A person at the terminal: MCP servers may ask them questions, and call progress is shown to them. */
  interaction?: McpInteraction;
  /** More built-in read-only tools (template --ai adds read_format). */
  extraTools?: ToolEntry[];
}

/** The MCP servers of active tool skills, in activation order. */
export function serversFromSkills(active: readonly Skill[]): McpServerSpec[] {
  return active
    .filter((s) => s.type === 'tool' && s.mcp !== undefined)
    .map((s) => {
      const m = s.mcp!;
      const spec: McpServerSpec = { name: s.name, url: m.url, headers: { ...m.headers }, trustAnnotations: m.trustAnnotations, source: { kind: 'skill', path: s.path } };
      if (m.connectTimeoutMs !== undefined) spec.connectTimeoutMs = m.connectTimeoutMs;
      if (m.callTimeoutMs !== undefined) spec.callTimeoutMs = m.callTimeoutMs;
      if (m.allowTools !== undefined) spec.allowTools = m.allowTools;
      if (m.denyTools !== undefined) spec.denyTools = m.denyTools;
      // Key, assertion and ID-token files are named relative to the skill's own directory.
      if (m.oauth !== undefined) {
        const o = { ...m.oauth };
        for (const k of ['privateKeyFile', 'assertionFile', 'idTokenFile'] as const) if (o[k] !== undefined) o[k] = path.resolve(path.dirname(s.path), o[k]);
        spec.oauth = o;
      }
      return spec;
    });
}

/** Parse --mcp values; bad ones are usage errors (MCP001). */
export function serversFromFlags(flags: readonly string[]): { servers: McpServerSpec[]; diagnostics: Diagnostic[] } {
  const servers: McpServerSpec[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const flag of flags) {
    try {
      servers.push(parseMcpFlag(flag));
    } catch (err) {
      if (!(err instanceof McpFailure)) throw err;
      diagnostics.push(diagnostic(err.code, `--mcp ${flag}: ${err.message}`));
    }
  }
  return { servers, diagnostics };
}

export async function openToolRegistry(input: OpenRegistryInput): Promise<ToolRegistry> {
  // Two servers under one name would share a tool prefix: the first keeps it, the other is reported.
  const seen = new Set<string>();
  const servers: McpServerSpec[] = [];
  const duplicates: McpServerSpec[] = [];
  for (const s of [...serversFromSkills(input.active), ...input.servers]) {
    if (seen.has(s.name)) duplicates.push(s);
    else (seen.add(s.name), servers.push(s));
  }
  const registry = await buildToolRegistry({
    builtins: [...readSkillTools(input.active, input.builtins ?? []), validateWorkflowTool(), ...lookupTools(), ...(input.extraTools ?? [])],
    servers,
    env: input.env,
    clientInfo: input.clientInfo,
    ...(input.interaction !== undefined ? { interaction: input.interaction } : {}),
  });
  for (const d of duplicates) {
    registry.servers.push({
      name: d.name,
      url: displayUrl(d.url),
      source: d.source,
      ok: false,
      error: { code: 'MCP001', message: `another MCP server is already named ${d.name}`, hint: 'give this one another name with --mcp NAME=URL' },
    });
  }
  return registry;
}

/**
 * Connect to each active tool skill's server (with its own timeouts), list its tools, and close:
 * one status per server (ok with tool count and protocol version, or the failure's code and
 * message). For `ai status --check`.
 */
export async function checkMcpServers(input: Omit<OpenRegistryInput, 'servers'>): Promise<ServerStatus[]> {
  const registry = await buildToolRegistry({ builtins: [], servers: serversFromSkills(input.active), env: input.env, clientInfo: input.clientInfo });
  await registry.close();
  return registry.servers;
}
