// `oxo-flow template --ai "INTENT" [-o PATH] [--force] [--from-file F]... [--skill NAME]...`: the
// options, the file and what is printed. The drafting itself (prompt, repair loop, validation) is
// src/ai/draft; only a workflow that validates reaches `write` here.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { draftWorkflow, type WriteDraft } from '../ai/draft/index.js';
import { aiActivity } from './ai-activity.js';
import { resolveTarget } from './commands/template.js';
import type { CliContext } from './context.js';
import { failure, type CommandResult } from './result.js';
import { makeStyle, plainStyle } from './style.js';
import { terminalSafe } from './terminal-safe.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

export interface TemplateAiOptions {
  ai: string;
  output?: string;
  force?: boolean;
  fromFile?: string[];
  skill?: string[];
}

export async function templateAi(opts: TemplateAiOptions, ctx: CliContext): Promise<CommandResult> {
  const intent = opts.ai.trim();
  if (intent === '') return failure('usage', [diagnostic('CLI001', '--ai needs a description of the workflow, e.g. --ai "paired-end RNA-seq, STAR + featureCounts"')]);
  const target = resolveTarget(opts.output, 'main', ctx.cwd);
  const shown = path.relative(ctx.cwd, target) || target;
  // Refused before any token is spent.
  if (existsSync(target) && !opts.force) {
    return failure('failed', [diagnostic('CLI004', `${shown} already exists; not overwriting it`, { file: shown, hint: 'pass --force to overwrite it, or choose another path with -o' })], { intent, path: target, written: false });
  }
  const write: WriteDraft = (text) => {
    const written = writeFileAtomic(target, text, { overwrite: Boolean(opts.force) });
    if (written.ok) return { ok: true };
    return {
      ok: false,
      diagnostic:
        written.reason === 'exists'
          ? diagnostic('CLI004', `${shown} already exists; not overwriting it`, { file: shown, hint: 'pass --force to overwrite it' })
          : diagnostic('CLI005', `cannot write ${shown}: ${written.message}`, { file: shown }),
    };
  };
  // Human mode: status lines, tool calls and (on a terminal) the spinner, on stderr as they happen.
  // Styles load chalk when colour is on: only human output needs them.
  const style = ctx.json ? plainStyle : makeStyle(ctx.color);
  const activity = ctx.json ? undefined : aiActivity({ write: (t) => ctx.stderr.write(t), style, terminal: ctx.stderrIsTTY, who: 'the model' });
  const drafted = await draftWorkflow(
    { intent, target, shown, fromFile: opts.fromFile ?? [], skillFlags: opts.skill ?? [] },
    ctx,
    write,
    activity
      ? {
          say: (t) => activity.line(terminalSafe(t)),
          events: activity.events,
          started: (who, builtins) => {
            activity.setWho(who);
            const named = builtins.length > 0 ? ` · built-in skills named: ${builtins.join(', ')}` : '';
            activity.line(style.dim(`Drafting with ${terminalSafe(who)}${named}`));
          },
        }
      : {},
  );
  activity?.pause();
  const done = drafted.written;
  return {
    outcome: drafted.outcome,
    json: drafted.json,
    diagnostics: drafted.diagnostics,
    ...(done
      ? {
          human: (style) =>
            `${style.green('✓')} wrote ${style.bold(shown)} (${done.rules} rule${done.rules === 1 ? '' : 's'}, validated) after ${done.rounds} request${done.rounds === 1 ? '' : 's'} · session ${done.session}\n` +
            `  next: read it, then ${style.bold(`oxo-flow dry-run ${shown}`)}`,
        }
      : {}),
  };
}
