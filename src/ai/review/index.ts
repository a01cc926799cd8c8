// The model's review on top of validate, lint and dry-run (`--ai`): the skills, the provider
// (resolved once), the prompt, the tools (the active skills' readers and MCP tools, the built-in
// library's readers and the lookup tools), the agent loop and the session record. It returns data:
// the `ai` section of the --json document and the diagnostics; in human mode the command line gets
// the model's text and what happens as it arrives (ReviewView) and does the printing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { runAgent, type AgentEvents, type AgentOutcome } from '../agent/loop.js';
import type { AiHost } from '../host.js';
import { resolveProjectProvider } from '../project-provider.js';
import type { ResolvedProvider } from '../providers/resolve.js';
import { openAiSession, providerDiagnostic } from '../session.js';
import { assembleSkillPrompt, loadSkillContext, type SkillContext } from '../skills/index.js';
import { builtinsByTool } from '../skills/suggest-builtins.js';
import { openToolRegistry } from '../tools/open-registry.js';
import type { AiReviewRequest } from './request.js';

export type { AiReviewRequest } from './request.js';

/** Answers the review may give; tool rounds come on top (the agent loop's own cap). */
const REVIEW_MAX_ROUNDS = 4;
/** Requests that end in tool calls, at most: a review reads a few skills, it does not research. */
const REVIEW_MAX_TOOL_ROUNDS = 6;
const MAX_WORKFLOW_CHARS = 200_000;

const REVIEW_SYSTEM_PROMPT = `You are a reviewer of oxo-flow bioinformatics workflows (.oxoflow files, TOML).
You get the workflow text and the findings of oxo-flow's own deterministic checks. Do not repeat those
findings; add what a careful bioinformatician would notice beyond them: wrong tool parameters, missing
quality control, reference or annotation mismatches, resource settings, reproducibility, risky shell.
The tools read skills (read_skill, builtin/NAME for the built-in library) and search the built-in
knowledge (lookup_skill, lookup_pipeline); use them when a tool's flags or a best practice matter.
Write each finding on its own line, exactly in this form:
[SEVERITY] rule: finding → fix
SEVERITY is ERROR, WARNING or INFO; rule is the rule name (or "workflow" for the whole file).
Finish with one short summary line. If you have nothing to add, say so in one line.`;

interface ReviewFinding {
  severity: 'error' | 'warning' | 'info';
  rule: string;
  finding: string;
  fix: string;
}

/** `[WARNING] align: no read-group → add --outSAMattrRGline` lines of the model's text. */
function parseFindings(text: string): ReviewFinding[] {
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

function reviewUserMessage(request: AiReviewRequest, findings: readonly Diagnostic[]): string {
  let workflowText = '(the workflow file could not be read)';
  if (request.workflowPath !== undefined) {
    try {
      workflowText = readFileSync(request.workflowPath, 'utf8');
      if (workflowText.length > MAX_WORKFLOW_CHARS) workflowText = `${workflowText.slice(0, MAX_WORKFLOW_CHARS)}\n… (cut)`;
    } catch {
      // keep the placeholder
    }
  }
  const lines = findings.map((d) => `- [${d.severity.toUpperCase()}] ${d.code}${d.line !== undefined ? ` at line ${d.line}` : ''}${d.rule ? ` (rule ${d.rule})` : ''}: ${d.message}`);
  return [
    `Command: oxo-flow ${request.command}`,
    `Workflow: ${request.workflowPath !== undefined ? path.basename(request.workflowPath) : '(none)'}`,
    '',
    'Deterministic findings:',
    lines.length > 0 ? lines.join('\n') : '- none',
    '',
    'Workflow text:',
    '```toml',
    workflowText.replace(/\n+$/, ''),
    '```',
  ].join('\n');
}

export type AiJson = Record<string, unknown>;

/** What the command line shows of a review as it runs (human mode). Texts are free of secrets. */
export interface ReviewView {
  /** Findings about the set-up (skills, provider), before the model is asked. */
  early?(diagnostics: Diagnostic[]): void;
  heading?(who: string, skills: string[]): void;
  /** A fragment of the model's answer (not yet terminal-safe). */
  text?(delta: string): void;
  /** A new request starts after a tool round. */
  roundBreak?(): void;
  /** A status line (retries, fallback). */
  say?(text: string): void;
  events?: AgentEvents;
}

export interface ReviewReport {
  ai: AiJson;
  cancelled: boolean;
  /** Diagnostics raised while running (after `early`). */
  late: Diagnostic[];
  summary?: { findings: number; inputTokens: number; outputTokens: number; session?: string };
}

export interface PreparedReview {
  /** Set when no provider is configured: the review is skipped with this notice (AI001). */
  disabled?: { ai: AiJson; diagnostics: Diagnostic[] };
  run(view?: ReviewView): Promise<ReviewReport>;
}

/** Load the skills and resolve the provider (once); `run` asks the model. */
export async function prepareReview(request: AiReviewRequest, findings: readonly Diagnostic[], host: AiHost): Promise<PreparedReview> {
  const sc = await loadSkillContext({
    cwd: host.cwd,
    env: host.env,
    ...(request.workflowPath !== undefined ? { workflowPath: request.workflowPath } : {}),
    ...(request.workflowAi !== undefined ? { workflowAi: request.workflowAi } : {}),
    skillFlags: request.skillFlags,
    command: request.command,
  });
  const skillsJson = sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null }));
  const early: Diagnostic[] = [...sc.diagnostics, ...sc.activation.warnings];
  const resolved = resolveProjectProvider(sc, host.env);
  early.push(...resolved.diagnostics);
  const run = (view?: ReviewView) => review(sc, resolved, request, findings, host, early, view);
  if (resolved.kind === 'disabled') {
    const notice = diagnostic('AI001', 'AI review skipped: no AI provider is configured', resolved.hint !== undefined ? { hint: resolved.hint } : {});
    const ai = { status: 'disabled', provider: 'disabled', model: null, skills: skillsJson, findings: [], text: null, usage: null, diagnostics: [...early, notice] };
    return { disabled: { ai, diagnostics: [...early, notice] }, run };
  }
  return { run };
}

async function review(
  sc: SkillContext,
  resolved: ResolvedProvider,
  request: AiReviewRequest,
  findings: readonly Diagnostic[],
  host: AiHost,
  early: Diagnostic[],
  view: ReviewView = {},
): Promise<ReviewReport> {
  const session = openAiSession(request.command, sc, host, { resolved, ...(view.say ? { say: view.say } : {}) });
  const skillsJson = sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null }));
  const base = { provider: resolved.kind, model: session.provider?.model ?? resolved.model ?? null, skills: skillsJson };
  if (early.length > 0) view.early?.(early);

  if (session.provider === undefined) {
    const error = session.setupError!;
    const d = providerDiagnostic(error, session.redact, 'AI review not run');
    const done = await session.finish({ status: 'error', code: error.code, message: session.redact(error.message) });
    return {
      cancelled: false,
      late: [d],
      ai: { status: 'error', ...base, error: { class: error.errorClass, code: error.code, message: session.redact(error.message) }, findings: [], text: null, usage: null, session: done.id, diagnostics: [...early, d] },
    };
  }

  const builtins = sc.discovery.skills.filter((s) => s.scope === 'builtin');
  const active = new Set(sc.activation.active.map((s) => s.name));
  // By the tools the rules run: no knowledge index is read on the review's path.
  const hints = request.steps !== undefined ? builtinsByTool(request.steps, builtins, active) : [];
  const registry = await openToolRegistry({ active: sc.activation.active, builtins, servers: [], env: host.env, clientInfo: { name: 'oxo-flow', version: host.version } });
  const late: Diagnostic[] = [];
  for (const s of registry.servers.filter((x) => !x.ok)) late.push(diagnostic(s.error!.code, session.redact(`MCP server ${s.name} (${s.url}): ${s.error!.message}`), { severity: 'warning' }));
  session.offer(registry.tools);
  view.heading?.(
    `${session.provider.kind}/${session.provider.model}`,
    sc.activation.active.map((s) => s.name),
  );
  let outcome: AgentOutcome;
  try {
    outcome = await runAgent({
      system: assembleSkillPrompt(REVIEW_SYSTEM_PROMPT, sc.activation.active, hints),
      user: reviewUserMessage(request, findings),
      provider: session.provider,
      tools: registry,
      approver: session.approver,
      maxRounds: request.workflowAi?.maxRounds ?? sc.projectConfig.table.maxRounds ?? REVIEW_MAX_ROUNDS,
      maxToolRounds: REVIEW_MAX_TOOL_ROUNDS,
      stream: view.text !== undefined,
      ...(view.text ? { onText: (delta: string) => view.text!(session.redact(delta)) } : {}),
      ...(view.roundBreak ? { onRound: () => view.roundBreak!() } : {}),
      ...(view.events ? { events: session.redactEvents(view.events) } : {}),
      signal: session.signal,
      session: session.record,
    });
  } finally {
    await registry.close();
  }

  const text = session.redact(outcome.text);
  const parsed = parseFindings(text);
  const usage = { input_tokens: outcome.usage.inputTokens, output_tokens: outcome.usage.outputTokens };
  late.push(...session.notices);
  let status: string;
  let error: AiJson | undefined;
  if (outcome.status === 'error') {
    status = outcome.error.errorClass === 'cancelled' ? 'cancelled' : 'error';
    error = { class: outcome.error.errorClass, code: outcome.error.code, message: session.redact(outcome.error.message) };
    late.push(providerDiagnostic(outcome.error, session.redact, 'AI review failed'));
  } else if (outcome.status === 'round_limit') {
    status = 'incomplete';
    late.push(diagnostic('AI015', `the review made tool calls in ${outcome.rounds} requests without a final answer`, { hint: 'raise max_rounds in [ai] or ai.toml, or ask again' }));
  } else status = 'ok';
  const done = await session.finish({ status, ...(error ? { code: error.code as string, message: error.message as string } : {}) }, { text });
  if (done.diagnostic) late.push(done.diagnostic);
  return {
    cancelled: status === 'cancelled',
    late,
    summary: { findings: parsed.length, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, ...(done.file ? { session: done.id } : {}) },
    ai: {
      status,
      ...base,
      ...(outcome.answeredBy !== `${base.provider}/${base.model}` ? { answered_by: outcome.answeredBy } : {}),
      ...(error ? { error } : {}),
      builtin_skills_listed: hints.map((h) => h.name),
      // What the model asked to run and what the gate decided (a refusal is never silent).
      tool_calls: session.record.tool_calls.map((c) => ({ tool: c.tool, origin: c.origin, decision: c.decision, reason: c.reason })),
      findings: parsed,
      text: text === '' ? null : text,
      usage,
      session: done.id,
      diagnostics: [...early, ...late],
    },
  };
}
