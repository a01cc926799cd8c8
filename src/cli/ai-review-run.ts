// The model's review on top of validate, lint and dry-run (`--ai`). The deterministic result has
// been built and is printed first, unchanged; the review follows: streamed as it arrives in human
// mode, or as the `ai` section of the --json document. The exit code stays the deterministic one
// (Ctrl-C during the review exits 130). Lives in the second bundle: the plain commands never load it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { runAgent, type AgentOutcome } from '../ai/agent/loop.js';
import { loadSkillContext, assembleSkillPrompt, type SkillContext } from '../ai/skills/index.js';
import { resolveProjectProvider } from '../ai/project-provider.js';
import { readSkillTools } from '../ai/tools/read-skill.js';
import type { AiReviewRequest } from './ai-review.js';
import { openAiSession, providerDiagnostic } from './ai-session.js';
import type { CliContext } from './context.js';
import { renderDiagnostics } from './render-diagnostics.js';
import { jsonFields, type CommandResult } from './result.js';
import type { TextSink } from './std-streams.js';
import type { Style } from './style.js';
import { terminalSafe } from './terminal-safe.js';

export const REVIEW_MAX_ROUNDS = 4;
const MAX_WORKFLOW_CHARS = 200_000;

export const REVIEW_SYSTEM_PROMPT = `You are a reviewer of oxo-flow bioinformatics workflows (.oxoflow files, TOML).
You get the workflow text and the findings of oxo-flow's own deterministic checks. Do not repeat those
findings; add what a careful bioinformatician would notice beyond them: wrong tool parameters, missing
quality control, reference or annotation mismatches, resource settings, reproducibility, risky shell.
Write each finding on its own line, exactly in this form:
[SEVERITY] rule: finding → fix
SEVERITY is ERROR, WARNING or INFO; rule is the rule name (or "workflow" for the whole file).
Finish with one short summary line. If you have nothing to add, say so in one line.`;

export interface ReviewFinding {
  severity: 'error' | 'warning' | 'info';
  rule: string;
  finding: string;
  fix: string;
}

/** `[WARNING] align: no read-group → add --outSAMattrRGline` lines of the model's text. */
export function parseFindings(text: string): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*\u2022]\s*|\d+[.)]\s*)?\**\[\s*(ERROR|WARNING|WARN|INFO|NOTE|HIGH|MEDIUM|LOW)\s*\]\**\s*`?([^:`]+?)`?\s*:\s*(.+?)\s*(?:\u2192|->|=>)\s*(.+?)\s*$/i.exec(line);
    if (!m) continue;
    const sev = m[1]!.toUpperCase();
    const severity = sev === 'ERROR' || sev === 'HIGH' ? 'error' : sev === 'INFO' || sev === 'NOTE' || sev === 'LOW' ? 'info' : 'warning';
    out.push({ severity, rule: m[2]!.trim(), finding: m[3]!.trim(), fix: m[4]!.trim() });
  }
  return out;
}

function reviewUserMessage(request: AiReviewRequest, result: CommandResult): string {
  let workflowText = '(the workflow file could not be read)';
  if (request.workflowPath !== undefined) {
    try {
      workflowText = readFileSync(request.workflowPath, 'utf8');
      if (workflowText.length > MAX_WORKFLOW_CHARS) workflowText = `${workflowText.slice(0, MAX_WORKFLOW_CHARS)}\n… (cut)`;
    } catch {
      // keep the placeholder
    }
  }
  const findings = (result.diagnostics ?? []).map((d) => `- [${d.severity.toUpperCase()}] ${d.code}${d.line !== undefined ? ` at line ${d.line}` : ''}${d.rule ? ` (rule ${d.rule})` : ''}: ${d.message}`);
  return [
    `Command: oxo-flow ${request.command}`,
    `Workflow: ${request.workflowPath !== undefined ? path.basename(request.workflowPath) : '(none)'}`,
    '',
    'Deterministic findings:',
    findings.length > 0 ? findings.join('\n') : '- none',
    '',
    'Workflow text:',
    '```toml',
    workflowText.replace(/\n+$/, ''),
    '```',
  ].join('\n');
}

type AiJson = Record<string, unknown>;

/** The `--ai` review: returns the command's result with `ai` added (JSON) or an `after` step (human). */
export async function runAiReview(result: CommandResult, request: AiReviewRequest, ctx: CliContext): Promise<CommandResult> {
  const sc = await loadSkillContext({
    cwd: ctx.cwd,
    env: ctx.env,
    ...(request.workflowPath !== undefined ? { workflowPath: request.workflowPath } : {}),
    ...(request.workflowAi !== undefined ? { workflowAi: request.workflowAi } : {}),
    skillFlags: request.skillFlags,
    command: request.command,
  });
  const skillsJson = sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null }));
  const early: Diagnostic[] = [...sc.diagnostics, ...sc.activation.warnings];
  const resolved = resolveProjectProvider(sc, ctx.env);
  early.push(...resolved.diagnostics);

  if (resolved.kind === 'disabled') {
    const notice = diagnostic('AI001', 'AI review skipped: no AI provider is configured', resolved.hint !== undefined ? { hint: resolved.hint } : {});
    const ai = { status: 'disabled', provider: 'disabled', model: null, skills: skillsJson, findings: [], text: null, usage: null, diagnostics: [...early, notice] };
    return attach(result, ai, ctx, async (out, style) => {
      out.write(`${renderDiagnostics([...early, notice], style, ctx.cwd)}\n`);
      return undefined;
    });
  }

  if (ctx.json) {
    const { ai } = await review(sc, request, result, ctx, early);
    return { ...attach(result, ai, ctx), ...(ai.status === 'cancelled' ? { outcome: 'interrupted' as const } : {}) };
  }
  return attach(result, {}, ctx, async (out, style) => {
    const { ai } = await review(sc, request, result, ctx, early, { out, style });
    return ai.status === 'cancelled' ? 'interrupted' : undefined;
  });
}

function attach(result: CommandResult, ai: AiJson, ctx: CliContext, after?: CommandResult['after']): CommandResult {
  if (ctx.json) return { ...result, json: { ...jsonFields(result), ai } };
  return after ? { ...result, after } : result;
}

async function review(
  sc: SkillContext,
  request: AiReviewRequest,
  result: CommandResult,
  ctx: CliContext,
  early: Diagnostic[],
  human?: { out: TextSink; style: Style },
): Promise<{ ai: AiJson }> {
  const session = openAiSession(request.command, sc, ctx, human ? { say: (t) => human.out.write(`${human.style.dim(terminalSafe(t))}\n`) } : {});
  const skillsJson = sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null }));
  const base = { provider: session.resolved.kind, model: session.provider?.model ?? session.resolved.model ?? null, skills: skillsJson };
  if (human && early.length > 0) human.out.write(`${renderDiagnostics(early, human.style, ctx.cwd)}\n`);

  if (session.provider === undefined) {
    const error = session.setupError!;
    const d = providerDiagnostic(error, session.redact, 'AI review not run');
    const done = await session.finish({ status: 'error', code: error.code, message: session.redact(error.message) });
    if (human) human.out.write(`${renderDiagnostics([d], human.style, ctx.cwd)}\n`);
    return { ai: { status: 'error', ...base, error: { class: error.errorClass, code: error.code, message: session.redact(error.message) }, findings: [], text: null, usage: null, session: done.id, diagnostics: [...early, d] } };
  }

  const tools = readSkillTools(sc.activation.active);
  session.offer(tools);
  const skillNames = sc.activation.active.map((s) => s.name);
  if (human) {
    const who = `${session.provider.kind}/${session.provider.model}`;
    human.out.write(`\n${human.style.bold('AI review')} ${human.style.dim(`· ${terminalSafe(who)}${skillNames.length > 0 ? ` · skills: ${skillNames.join(', ')}` : ''}`)}\n`);
  }
  let endedWithNewline = true;
  const outcome: AgentOutcome = await runAgent({
    system: assembleSkillPrompt(REVIEW_SYSTEM_PROMPT, sc.activation.active),
    user: reviewUserMessage(request, result),
    provider: session.provider,
    tools: { tools, find: (n) => tools.find((t) => t.name === n) },
    approver: session.approver,
    maxRounds: request.workflowAi?.maxRounds ?? sc.projectConfig.table.maxRounds ?? REVIEW_MAX_ROUNDS,
    stream: human !== undefined,
    ...(human
      ? {
          onText: (delta: string) => {
            const safe = terminalSafe(session.redact(delta));
            if (safe === '') return;
            human.out.write(safe);
            endedWithNewline = safe.endsWith('\n');
          },
          onRound: () => {
            if (!endedWithNewline) human.out.write('\n');
            endedWithNewline = true;
          },
        }
      : {}),
    signal: session.signal,
    session: session.record,
  });
  if (human && !endedWithNewline) human.out.write('\n');

  const text = session.redact(outcome.text);
  const findings = parseFindings(text);
  const usage = { input_tokens: outcome.usage.inputTokens, output_tokens: outcome.usage.outputTokens };
  const diagnostics: Diagnostic[] = [...early, ...session.notices];
  let status: string;
  let error: AiJson | undefined;
  if (outcome.status === 'error') {
    status = outcome.error.errorClass === 'cancelled' ? 'cancelled' : 'error';
    error = { class: outcome.error.errorClass, code: outcome.error.code, message: session.redact(outcome.error.message) };
    diagnostics.push(providerDiagnostic(outcome.error, session.redact, 'AI review failed'));
  } else if (outcome.status === 'round_limit') {
    status = 'incomplete';
    diagnostics.push(diagnostic('AI015', `the review used all ${outcome.rounds} rounds without a final answer`, { hint: 'raise max_rounds in [ai] or ai.toml' }));
  } else status = 'ok';
  const done = await session.finish({ status, ...(error ? { code: error.code as string, message: error.message as string } : {}) }, { text });
  if (done.diagnostic) diagnostics.push(done.diagnostic);

  if (human) {
    const late = diagnostics.slice(early.length);
    if (late.length > 0) human.out.write(`${renderDiagnostics(late, human.style, ctx.cwd)}\n`);
    const parts = [
      `${findings.length} finding${findings.length === 1 ? '' : 's'}`,
      `${usage.input_tokens} tokens in, ${usage.output_tokens} out`,
      ...(done.file ? [`session ${done.id}`] : []),
    ];
    human.out.write(`${human.style.dim(`── ${parts.join(' · ')}`)}\n`);
  }
  return {
    ai: {
      status,
      ...base,
      ...(outcome.answeredBy !== `${base.provider}/${base.model}` ? { answered_by: outcome.answeredBy } : {}),
      ...(error ? { error } : {}),
      findings,
      text: text === '' ? null : text,
      usage,
      session: done.id,
      diagnostics,
    },
  };
}
