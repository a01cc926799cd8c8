// `oxo-flow ai tools [WF] [--mcp URL]...`: every tool the model would get (built-in and MCP),
// with its annotations and whether it runs freely or needs a human's approval.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import type { Style } from '../style.js';
import { maskUrl, urlSecrets } from '../../ai/secrets.js';
import { noteSkillSecrets } from './ai-skills.js';
import { terminalSafeLine as safe } from '../terminal-safe.js';
import { resolveWorkflowPath } from '../workflow-path.js';
import type { ServerStatus, ToolRegistry } from '../../ai/tools/registry.js';
import type { ToolEntry } from '../../ai/tools/types.js';
import type { Skill } from '../../ai/skills/types.js';

export interface AiToolsOptions {
  workflow?: string;
  mcp?: string[];
  skill?: string[];
  project?: string;
}

interface LoadedTools {
  registry: ToolRegistry;
  active: Skill[];
  diagnostics: Diagnostic[];
  nonInteractiveReason: string | undefined;
}

/** Shared by `ai tools` and `ai call`: active skills, their servers and --mcp servers, opened. */
export async function loadTools(opts: AiToolsOptions, ctx: CliContext, command: string): Promise<{ usage: Diagnostic[] } | LoadedTools> {
  const { serversFromFlags, openToolRegistry } = await import('../../ai/tools/open-registry.js');
  const { nonInteractiveReason } = await import('../../ai/approval/policy.js');
  // A URL's password and key-like query values are secrets from the moment they are typed.
  for (const raw of opts.mcp ?? []) for (const v of urlSecrets(raw.replace(/^[A-Za-z0-9][A-Za-z0-9_.-]*=/, ''))) ctx.secrets.add(v);
  const flags = serversFromFlags(opts.mcp ?? []);
  if (flags.diagnostics.length > 0) return { usage: flags.diagnostics };
  const diagnostics: Diagnostic[] = [];
  let workflowPath: string | undefined;
  if (opts.workflow !== undefined) {
    const resolved = resolveWorkflowPath(opts.workflow, ctx.cwd);
    if (!resolved.ok) return { usage: [resolved.diagnostic] };
    workflowPath = resolved.path;
  } else {
    // Without an argument the workflow is optional: skills may come from ai.toml and --skill alone.
    const resolved = resolveWorkflowPath(undefined, ctx.cwd);
    if (resolved.ok) workflowPath = resolved.path;
  }
  const { loadSkillContext } = await import('../../ai/skills/index.js');
  const skills = await loadSkillContext({
    cwd: ctx.cwd,
    env: ctx.env,
    ...(workflowPath !== undefined ? { workflowPath } : {}),
    ...(opts.project !== undefined ? { project: opts.project } : {}),
    skillFlags: opts.skill ?? [],
    command,
  });
  noteSkillSecrets(skills.discovery.skills, ctx);
  diagnostics.push(...skills.diagnostics, ...skills.activation.warnings);
  const why = nonInteractiveReason(ctx);
  const { mcpInteraction } = await import('../../ai/mcp/interaction.js');
  const registry = await openToolRegistry({
    active: skills.activation.active,
    // read_skill reads builtin/NAME whatever is active, as the model's does.
    builtins: skills.discovery.skills.filter((s) => s.scope === 'builtin'),
    servers: flags.servers,
    env: ctx.env,
    clientInfo: { name: 'oxo-flow', version: ctx.version },
    interaction: mcpInteraction({ input: ctx.stdin, output: ctx.stderr, outputIsTTY: ctx.stderrIsTTY, person: why === undefined }),
  });
  return { registry, active: skills.activation.active, diagnostics, nonInteractiveReason: why };
}

/**
 * One line per server that could not be used. As an error (the command needed that server) it
 * carries the failure's own code; as a warning (another server, in `ai call`) it is TOOL006 and
 * names the failure's code in the text.
 */
export function serverDiagnostic(s: ServerStatus, severity: 'error' | 'warning'): Diagnostic {
  const e = s.error!;
  const hint = e.hint !== undefined ? { hint: e.hint } : {};
  if (severity === 'warning') return diagnostic('TOOL006', `MCP server ${s.name} (${maskUrl(s.url)}) skipped: ${e.code} ${e.message}`, hint);
  return diagnostic(e.code, `MCP server ${s.name} (${maskUrl(s.url)}) skipped: ${e.message}`, hint);
}

/** A server's status as --json shows it: the URL without credentials. */
export function shownServer(s: ServerStatus): ServerStatus {
  return { ...s, url: maskUrl(s.url) };
}

/** How `ai tools` shows the gate: the approval module's own decision, for an interactive session. */
async function gateOf(tool: ToolEntry): Promise<{ gate: 'auto' | 'approval'; reason: string }> {
  const { decideGate } = await import('../../ai/approval/policy.js');
  const decision = decideGate(tool.gate, undefined);
  return { gate: decision.action === 'run' ? 'auto' : 'approval', reason: decision.reason };
}

function annotationText(a: Record<string, unknown>): string {
  const parts = Object.entries(a)
    .filter(([k, v]) => k !== 'title' && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  return parts.length > 0 ? parts.join(' ') : 'none';
}

export async function aiTools(opts: AiToolsOptions, ctx: CliContext): Promise<CommandResult> {
  const loaded = await loadTools(opts, ctx, 'tools');
  if ('usage' in loaded) return { outcome: 'usage', json: {}, diagnostics: loaded.usage };
  const { registry, diagnostics, nonInteractiveReason } = loaded;
  try {
    const failed = registry.servers.filter((s) => !s.ok);
    diagnostics.push(...failed.map((s) => serverDiagnostic(s, 'error')));
    for (const r of registry.renamed) {
      diagnostics.push(
        diagnostic('TOOL004', `${r.server}'s tool ${JSON.stringify(r.rawName)} is exposed as ${r.exposed} (${r.why === 'collision' ? 'its plain name was already taken' : 'the name was over 64 characters'})`),
      );
    }
    for (const s of registry.servers) for (const r of s.rejectedTools ?? []) diagnostics.push(diagnostic('TOOL005', `${s.name}'s tool ${JSON.stringify(r.name)} is left out: ${r.reason} (SEP-2243)`));
    const rows = await Promise.all(registry.tools.map(async (t) => ({ tool: t, ...(await gateOf(t)) })));
    const json = {
      interactive: nonInteractiveReason === undefined,
      ...(nonInteractiveReason !== undefined ? { non_interactive_reason: nonInteractiveReason } : {}),
      skills: loaded.active.map((s) => `${s.scope}/${s.name}`),
      tools: rows.map(({ tool, gate, reason }) => ({
        name: tool.name,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        description: tool.description,
        origin: tool.origin,
        annotations: tool.annotations,
        gate,
        gate_reason: reason,
        callable: tool.callable,
        input_schema: tool.inputSchema,
      })),
      servers: registry.servers.map(shownServer),
    };
    const human = (style: Style): string => {
      const width = Math.max(...rows.map((r) => safe(r.tool.name).length));
      const lines = [style.bold(`Tools the model would get (${rows.length}):`)];
      for (const { tool, gate, reason } of rows) {
        const from = tool.origin.kind === 'builtin' ? 'built-in' : `MCP ${safe(tool.origin.server)} → ${safe(tool.origin.rawName)}`;
        const gateText = gate === 'auto' ? style.green('runs freely') : style.yellow('needs approval');
        lines.push(`  ${safe(tool.name).padEnd(width)}  ${gateText} (${reason})${tool.callable ? '' : style.red(' [not callable: needs task support]')}`);
        lines.push(`  ${' '.repeat(width)}  ${from}; annotations: ${safe(annotationText(tool.annotations))}`);
      }
      if (registry.servers.length > 0) {
        lines.push('', style.bold('MCP servers:'));
        for (const s of registry.servers) {
          const state = s.ok ? style.green(`ok, ${s.toolCount} tool(s), ${safe(String(s.serverName))} speaking ${safe(String(s.protocolVersion))}`) : style.red(`skipped (${s.error!.code})`);
          lines.push(`  ${safe(s.name)}  ${safe(maskUrl(s.url))}  ${state}`);
          // The server's own words, for the person: models do not get them (docs/mcp.md).
          if (s.instructions !== undefined) {
            lines.push(`    instructions from the server (not given to models):`);
            for (const l of s.instructions.split('\n')) lines.push(`      ${safe(l)}`);
          }
        }
      }
      if (nonInteractiveReason !== undefined) lines.push('', `Here, calls that need approval would be refused: ${nonInteractiveReason}.`);
      return lines.join('\n');
    };
    return { outcome: failed.length > 0 ? 'failed' : 'ok', json, diagnostics, human };
  } finally {
    await registry.close();
  }
}
