// `oxo-flow ai call TOOL [--args JSON] [WF] [--mcp URL]...`: call one tool through the same
// approval gate the model's calls go through. A refusal, a tool error or a transport failure
// exits 1; the decision and its reason are in the result (and the --json document).
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import type { Style } from '../style.js';
import { terminalSafeLine } from '../terminal-safe.js';
import { loadTools, serverDiagnostic, shownServer, type AiToolsOptions } from './ai-tools.js';

export interface AiCallOptions extends AiToolsOptions {
  tool: string;
  args?: string;
}

function parseArgs(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; diagnostic: Diagnostic } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, diagnostic: diagnostic('TOOL002', `--args is not valid JSON: ${(err as Error).message}`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, diagnostic: diagnostic('TOOL002', `--args must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export async function aiCall(opts: AiCallOptions, ctx: CliContext): Promise<CommandResult> {
  const args = parseArgs(opts.args ?? '{}');
  if (!args.ok) return { outcome: 'usage', json: { tool: opts.tool }, diagnostics: [args.diagnostic] };
  const loaded = await loadTools(opts, ctx, 'call');
  if ('usage' in loaded) return { outcome: 'usage', json: { tool: opts.tool }, diagnostics: loaded.usage };
  const { registry, diagnostics } = loaded;
  // Ctrl-C during the call: tell the server (notifications/cancelled for what is in flight, then
  // DELETE for the session) before exiting 130, so its work stops too. A second Ctrl-C ends at once.
  let interrupted = false;
  const release = ctx.onInterrupt((again) => {
    if (again === true) return;
    interrupted = true;
    void registry.close('the user interrupted oxo-flow (Ctrl-C)');
  });
  try {
    const { callThroughGate } = await import('../../ai/tools/call.js');
    const { askApproval } = await import('../../ai/approval/prompt.js');
    const servers = registry.servers.map(shownServer);

    if (registry.find(opts.tool) === undefined) {
      // A tool of a server that could not be reached: say why the server failed, not "unknown tool".
      const { serverToolPrefix } = await import('../../ai/mcp/bridge.js');
      const owner = servers.find((s) => !s.ok && opts.tool.startsWith(serverToolPrefix(s.name)));
      if (owner !== undefined) {
        diagnostics.push(serverDiagnostic(owner, 'error'));
        return { outcome: 'failed', json: { tool: opts.tool, decision: 'refused', reason: 'its MCP server could not be used', servers }, diagnostics };
      }
      diagnostics.push(...servers.filter((s) => !s.ok).map((s) => serverDiagnostic(s, 'warning')));
      const names = registry.tools.map((t) => t.name);
      const close = names.filter((n) => n.includes(opts.tool) || opts.tool.includes(n)).slice(0, 3);
      diagnostics.push(
        diagnostic('TOOL001', `no tool named ${opts.tool}`, {
          hint: close.length > 0 ? `did you mean ${close.join(' or ')}? (\`oxo-flow ai tools\` lists them)` : 'run `oxo-flow ai tools` to list the tools and their names',
        }),
      );
      return { outcome: 'usage', json: { tool: opts.tool, servers }, diagnostics };
    }
    diagnostics.push(...servers.filter((s) => !s.ok).map((s) => serverDiagnostic(s, 'warning')));

    const record = await callThroughGate(registry, opts.tool, args.value, {
      nonInteractiveReason: loaded.nonInteractiveReason,
      ask: (request) => askApproval(request, { input: ctx.stdin, output: ctx.stderr }),
    });
    if (interrupted) {
      diagnostics.push(diagnostic('CLI130', `\`oxo-flow ai call ${opts.tool}\` was interrupted; the server was told to cancel the call and the session was ended`));
      return { outcome: 'interrupted', json: { tool: record.tool, origin: record.origin, arguments: record.args, decision: record.decision, reason: record.reason, interrupted: true, servers }, diagnostics };
    }
    const json = {
      tool: record.tool,
      origin: record.origin,
      arguments: record.args,
      decision: record.decision,
      reason: record.reason,
      result: { is_error: record.output.isError, text: record.output.text, ...(record.output.code !== undefined ? { code: record.output.code } : {}) },
      servers,
    };
    if (record.decision === 'refused') {
      diagnostics.push(diagnostic(record.output.code ?? 'APR002', `${record.tool}: ${record.output.text}`));
      return { outcome: 'failed', json, diagnostics };
    }
    if (record.output.isError && record.output.code !== undefined) {
      diagnostics.push(diagnostic(record.output.code, `${record.tool}: ${record.output.text}`, record.output.hint !== undefined ? { hint: record.output.hint } : {}));
      return { outcome: 'failed', json, diagnostics };
    }
    if (record.output.isError) diagnostics.push(diagnostic('MCP021', `${record.tool} reported an error: ${record.output.text.split('\n')[0]!.slice(0, 300)}`));
    const human = (style: Style) => style.dim(`${terminalSafeLine(record.tool)}: ${record.decision === 'auto' ? 'ran without asking' : 'ran after approval'} (${record.reason})`);
    const text = record.output.text;
    return { outcome: record.output.isError ? 'failed' : 'ok', json, diagnostics, human, stdout: text.endsWith('\n') || text === '' ? text : `${text}\n` };
  } finally {
    release();
    await registry.close();
  }
}
