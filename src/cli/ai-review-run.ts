// The `--ai` review as the command line shows it. The deterministic result has been built and is
// printed first, unchanged; the review (src/ai/review) follows: streamed as it arrives in human mode,
// with a spinner while the model thinks and each tool call as it runs, or as the `ai` section of the
// --json document. The exit code stays the deterministic one (Ctrl-C during the review exits 130).
// Lives in its own bundle: the plain commands never load it.
import { prepareReview, type AiReviewRequest, type ReviewView } from '../ai/review/index.js';
import { aiActivity } from './ai-activity.js';
import type { CliContext } from './context.js';
import { renderDiagnostics } from './render-diagnostics.js';
import { jsonFields, type CommandResult } from './result.js';
import type { TextSink } from './std-streams.js';
import type { Style } from './style.js';
import { terminalSafe } from './terminal-safe.js';

/** The `--ai` review: returns the command's result with `ai` added (JSON) or an `after` step (human). */
export async function runAiReview(result: CommandResult, request: AiReviewRequest, ctx: CliContext): Promise<CommandResult> {
  const prepared = await prepareReview(request, result.diagnostics ?? [], ctx);
  if (prepared.disabled) {
    const { ai, diagnostics } = prepared.disabled;
    return attach(result, ai, ctx, async (out, style) => {
      out.write(`${renderDiagnostics(diagnostics, style, ctx.cwd)}\n`);
      return undefined;
    });
  }
  if (ctx.json) {
    const report = await prepared.run();
    return { ...attach(result, report.ai, ctx), ...(report.cancelled ? { outcome: 'interrupted' as const } : {}) };
  }
  return attach(result, {}, ctx, async (out, style) => {
    const report = await prepared.run(humanView(out, style, ctx));
    if (report.late.length > 0) out.write(`${renderDiagnostics(report.late, style, ctx.cwd)}\n`);
    const s = report.summary;
    if (s) {
      const parts = [`${s.findings} finding${s.findings === 1 ? '' : 's'}`, `${s.inputTokens} tokens in, ${s.outputTokens} out`, ...(s.session ? [`session ${s.session}`] : [])];
      out.write(`${style.dim(`── ${parts.join(' · ')}`)}\n`);
    }
    return report.cancelled ? 'interrupted' : undefined;
  });
}

/** The review on stderr: heading, the model's text as it streams, tool calls, the spinner between. */
function humanView(out: TextSink, style: Style, ctx: CliContext): ReviewView {
  let endedWithNewline = true;
  const activity = aiActivity({ write: (t) => out.write(t), style, terminal: ctx.stderrIsTTY, who: 'the model' });
  const breakLine = () => {
    if (!endedWithNewline) out.write('\n');
    endedWithNewline = true;
  };
  const events = activity.events;
  return {
    early: (diagnostics) => out.write(`${renderDiagnostics(diagnostics, style, ctx.cwd)}\n`),
    heading: (who, skills) => {
      activity.setWho(who);
      out.write(`\n${style.bold('AI review')} ${style.dim(`· ${terminalSafe(who)}${skills.length > 0 ? ` · skills: ${skills.map(terminalSafe).join(', ')}` : ''}`)}\n`);
    },
    text: (delta) => {
      const safe = terminalSafe(delta);
      if (safe === '') return;
      activity.pause();
      out.write(safe);
      endedWithNewline = safe.endsWith('\n');
    },
    roundBreak: breakLine,
    say: (t) => {
      breakLine();
      activity.line(style.dim(terminalSafe(t)));
    },
    events: {
      ...events,
      onResponse: (round, usage) => {
        events.onResponse?.(round, usage);
        breakLine();
      },
      onToolCall: (call) => {
        breakLine();
        events.onToolCall?.(call);
      },
    },
  };
}

function attach(result: CommandResult, ai: Record<string, unknown>, ctx: CliContext, after?: CommandResult['after']): CommandResult {
  if (ctx.json) return { ...result, json: { ...jsonFields(result), ai } };
  return after ? { ...result, after } : result;
}
