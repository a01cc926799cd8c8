// `oxo-flow ai sessions` lists the AI session records of a project (newest first);
// `ai sessions show ID` prints one: provider, skills, tools offered, each tool call with its
// approval decision and reason, token usage, timings and outcome.
import path from 'node:path';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { listSessions, readSession, sessionsDir, type SessionRecord } from '../../ai/sessions/record.js';
import type { CliContext } from '../context.js';
import { failure, type CommandResult } from '../result.js';
import type { Style } from '../style.js';
import { terminalSafe } from '../terminal-safe.js';

export interface AiSessionsOptions {
  project?: string;
  id?: string;
}

const projectOf = (opts: AiSessionsOptions, ctx: CliContext) => path.resolve(ctx.cwd, opts.project ?? '.');

export async function sessionsList(opts: AiSessionsOptions, ctx: CliContext): Promise<CommandResult> {
  const dir = projectOf(opts, ctx);
  const { sessions, unreadable } = listSessions(dir);
  const diagnostics = unreadable.map((f) => diagnostic('SES003', `${f} is not a readable session record; skipped`, { file: f }));
  return {
    outcome: 'ok',
    json: { directory: sessionsDir(dir), sessions },
    diagnostics,
    human: (style) => {
      if (sessions.length === 0) return `no AI sessions recorded in ${sessionsDir(dir)} yet`;
      const lines = [style.bold(`${sessions.length} AI session${sessions.length === 1 ? '' : 's'}`) + style.dim(` in ${sessionsDir(dir)}`)];
      const width = Math.max(...sessions.map((s) => s.id.length));
      for (const s of sessions) {
        const tokens = `${s.input_tokens}/${s.output_tokens} tokens`;
        lines.push(`  ${style.cyan(s.id.padEnd(width))}  ${terminalSafe(`${s.provider}/${s.model}`)}  ${statusText(s.status, style)}  ${s.tool_calls} tool call${s.tool_calls === 1 ? '' : 's'}  ${style.dim(tokens)}`);
      }
      lines.push('', `Show one with ${style.bold('oxo-flow ai sessions show ID')}.`);
      return lines.join('\n');
    },
  };
}

export async function sessionsShow(opts: AiSessionsOptions & { id: string }, ctx: CliContext): Promise<CommandResult> {
  const dir = projectOf(opts, ctx);
  const record = readSession(dir, opts.id);
  if (record === undefined) {
    return failure('failed', [diagnostic('SES001', `no AI session ${opts.id} in ${sessionsDir(dir)}`, { hint: 'list them with `oxo-flow ai sessions` (add --project DIR for another project)' })], { id: opts.id });
  }
  return { outcome: 'ok', json: { session: record }, human: (style) => renderSession(record, style) };
}

function statusText(status: string, style: Style): string {
  return status === 'ok' || status === 'written' ? style.green(status) : status === 'error' || status === 'no_valid_draft' ? style.red(status) : style.yellow(status);
}

function renderSession(r: SessionRecord, style: Style): string {
  const safe = terminalSafe;
  const lines = [
    `${style.bold('AI session')} ${r.id}`,
    `  command:   ${r.command}${r.workflow ? ` ${safe(r.workflow)}` : ''}`,
    `  started:   ${r.started_at} (${r.duration_ms ?? '?'} ms)`,
    `  provider:  ${safe(`${r.provider.kind}/${r.provider.model}`)}${r.provider.endpoint ? style.dim(` at ${safe(r.provider.endpoint)}`) : ''}`,
    `  outcome:   ${statusText(r.outcome.status, style)}${r.outcome.code ? ` ${r.outcome.code}` : ''}${r.outcome.message ? `: ${safe(r.outcome.message)}` : ''}`,
    `  usage:     ${r.usage.input_tokens} tokens in, ${r.usage.output_tokens} out, ${r.rounds.length} round${r.rounds.length === 1 ? '' : 's'}`,
  ];
  if (r.written) lines.push(`  written:   ${safe(r.written)}`);
  lines.push(`  skills:    ${r.skills.length === 0 ? 'none' : ''}`);
  for (const s of r.skills) lines.push(`    ${s.scope}/${safe(s.name)}  ${style.dim(`${safe(s.path)} sha256:${s.sha256.slice(0, 12)}`)}`);
  lines.push(`  tools offered: ${r.tools_offered.map((t) => safe(t.name)).join(', ') || 'none'}`);
  lines.push(`  tool calls: ${r.tool_calls.length === 0 ? 'none' : ''}`);
  for (const c of r.tool_calls) {
    const args = JSON.stringify(c.args);
    lines.push(`    round ${c.round} ${safe(c.tool)} ${style.dim(safe(args.length > 200 ? `${args.slice(0, 200)}…` : args))}`);
    lines.push(`      ${c.decision === 'refused' ? style.red('refused') : c.decision}: ${safe(c.reason)}${c.is_error ? style.dim(' (the tool reported an error)') : ''}`);
  }
  return lines.join('\n');
}
