// Drafting a workflow with the model (`template --ai "INTENT"`): the agent loop writes a draft; each
// draft is checked by the same validation as `oxo-flow validate` and its findings go back to the
// model until one validates or max_rounds drafts are spent (tool rounds do not count: looking
// things up is not a failed try). Only a valid workflow is handed to `write`; the command line
// parses the options, writes the file and prints.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { runAgent, type AgentEvents } from '../agent/loop.js';
import type { AiHost } from '../host.js';
import { resolveProjectProvider } from '../project-provider.js';
import { openAiSession, providerDiagnostic } from '../session.js';
import { assembleSkillPrompt, loadSkillContext } from '../skills/index.js';
import { requestSteps, suggestBuiltins, type BuiltinHint } from '../skills/suggest-builtins.js';
import { openToolRegistry } from '../tools/open-registry.js';
import { readFormatTool } from '../tools/read-format.js';
import { formatFindings, validateWorkflowText } from '../tools/validate-workflow.js';
import { extractWorkflowToml } from './extract.js';
import { FORMAT_REFERENCE } from './format-reference.js';

/** Drafts the model may give (tool rounds come on top). */
const TEMPLATE_MAX_ROUNDS = 5;
const MAX_FROM_FILE = 256 * 1024;

const TEMPLATE_SYSTEM_PROMPT = `You write oxo-flow workflows: .oxoflow files in TOML (not Snakemake).
Use the tools: validate_workflow checks a draft with the oxo-flow engine (use it before you answer);
read_format gives the JSON Schema ("schema") or a complete built-in template by name; read_skill
reads a skill (builtin/NAME for the built-in library), lookup_skill and lookup_pipeline search the
built-in knowledge.
Give the complete workflow in one fenced \`\`\`toml block. Keep explanations short.

${FORMAT_REFERENCE}`;

export interface DraftInput {
  intent: string;
  /** Absolute path the workflow will be written to, and how to show it. */
  target: string;
  shown: string;
  fromFile: string[];
  skillFlags: string[];
}

export type DraftOutcome = 'ok' | 'failed' | 'usage' | 'interrupted';

export interface DraftResult {
  outcome: DraftOutcome;
  json: Record<string, unknown>;
  diagnostics: Diagnostic[];
  /** Set when the workflow was written. */
  written?: { rules: number; rounds: number; session: string };
}

export interface DraftView {
  /** A status line (human mode; already free of secrets, not yet terminal-safe). */
  say?: (text: string) => void;
  /** What the agent loop reports while it works (spinner, tool calls). */
  events?: AgentEvents;
  /** The model is about to be asked: `who` is provider/model; the built-in skills the prompt names. */
  started?: (who: string, builtins: string[]) => void;
}

export type WriteDraft = (text: string) => { ok: true } | { ok: false; diagnostic: Diagnostic };

/** The built-in skills the prompt names for the intent: one per step of the route it describes. */
function builtinHintsForIntent(intent: string, builtins: Parameters<typeof suggestBuiltins>[1], exclude: ReadonlySet<string>): BuiltinHint[] {
  return suggestBuiltins(requestSteps(intent), builtins, exclude);
}

function readAttachments(files: readonly string[], cwd: string): { texts: string[] } | { error: Diagnostic } {
  const texts: string[] = [];
  for (const file of files) {
    const full = path.resolve(cwd, file);
    try {
      if (statSync(full).size > MAX_FROM_FILE) throw new Error(`larger than ${MAX_FROM_FILE} bytes`);
      texts.push(`File ${file}:\n\`\`\`\n${readFileSync(full, 'utf8').replace(/\n+$/, '')}\n\`\`\``);
    } catch (err) {
      return { error: diagnostic('AI022', `--from-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file }) };
    }
  }
  return { texts };
}

export async function draftWorkflow(input: DraftInput, host: AiHost, write: WriteDraft, view: DraftView = {}): Promise<DraftResult> {
  const { intent, target, shown } = input;
  const base = { intent, path: target, written: false };
  const attached = readAttachments(input.fromFile, host.cwd);
  if ('error' in attached) return { outcome: 'usage', json: base, diagnostics: [attached.error] };

  const sc = await loadSkillContext({ cwd: host.cwd, env: host.env, skillFlags: input.skillFlags, command: 'template' });
  const builtins = sc.discovery.skills.filter((s) => s.scope === 'builtin');
  const hints = builtinHintsForIntent(intent, builtins, new Set(sc.activation.active.map((s) => s.name)));
  const diagnostics: Diagnostic[] = [...sc.diagnostics, ...sc.activation.warnings];
  const resolved = resolveProjectProvider(sc, host.env);
  const session = openAiSession('template', sc, host, { resolved, ...(view.say ? { say: view.say } : {}) });
  diagnostics.push(...resolved.diagnostics);
  const skills = sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null }));
  const json = (more: Record<string, unknown>) => ({
    ...base,
    provider: resolved.kind,
    model: session.provider?.model ?? resolved.model ?? null,
    skills,
    builtin_skills_listed: hints.map((h) => h.name),
    ...more,
  });

  if (session.provider === undefined) {
    const error = session.setupError!;
    const done = await session.finish({ status: 'error', code: error.code, message: session.redact(error.message) });
    const d = resolved.kind === 'disabled' ? diagnostic('AI013', 'template --ai needs an AI provider; none is configured', resolved.hint ? { hint: resolved.hint } : {}) : providerDiagnostic(error, session.redact);
    return { outcome: 'failed', json: json({ status: 'error', session: done.id }), diagnostics: [...diagnostics, d] };
  }

  const registry = await openToolRegistry({ active: sc.activation.active, builtins, servers: [], env: host.env, clientInfo: { name: 'oxo-flow', version: host.version }, extraTools: [readFormatTool()] });
  for (const s of registry.servers.filter((x) => !x.ok)) diagnostics.push(diagnostic(s.error!.code, session.redact(`MCP server ${s.name} (${s.url}): ${s.error!.message}`), { severity: 'warning' }));
  session.offer(registry.tools);
  view.started?.(`${session.provider.kind}/${session.provider.model}`, hints.map((h) => h.name));
  let draft: string | undefined;
  let lastDiagnostics: Diagnostic[] = [];
  let lastProblem = 'the model gave no answer';
  const user = [`Write an oxo-flow workflow for: ${intent}`, ...attached.texts].join('\n\n');
  const say = view.say;
  const maxRounds = sc.projectConfig.table.maxRounds ?? TEMPLATE_MAX_ROUNDS;
  // The last draft gets no "asking again": nothing more is asked.
  const next = (answer: number, what: string) => (answer < maxRounds ? `; ${what}` : '');
  const outcome = await (async () => {
    try {
      return await runAgent({
        system: assembleSkillPrompt(TEMPLATE_SYSTEM_PROMPT, sc.activation.active, hints),
        user,
        provider: session.provider!,
        tools: registry,
        approver: session.approver,
        maxRounds,
        stream: !host.json,
        signal: session.signal,
        session: session.record,
        ...(view.events ? { events: session.redactEvents(view.events) } : {}),
        judge: async (text, answer) => {
          const extracted = extractWorkflowToml(text);
          if (extracted.kind === 'none') {
            lastProblem = 'the answer held no workflow TOML';
            say?.(`  draft ${answer}: no workflow TOML in the answer${next(answer, 'asking again')}`);
            return { accept: false, feedback: 'Your answer holds no oxo-flow workflow. Give the complete workflow (TOML, starting with [workflow]) in one ```toml block.' };
          }
          const checked = await validateWorkflowText(extracted.toml, path.basename(target), path.dirname(target));
          if (checked.valid) {
            draft = extracted.toml;
            return { accept: true };
          }
          lastDiagnostics = checked.diagnostics;
          const errors = checked.diagnostics.filter((d) => d.severity === 'error');
          lastProblem = `the last draft has ${errors.length} error${errors.length === 1 ? '' : 's'}`;
          say?.(`  draft ${answer}: ${errors.length} validation error${errors.length === 1 ? '' : 's'} (${[...new Set(errors.map((d) => d.code))].join(', ')})${next(answer, 'sending them back')}`);
          return { accept: false, feedback: `oxo-flow validate found these problems in your workflow:\n${formatFindings(checked.diagnostics)}\nFix them and give the complete corrected workflow in one \`\`\`toml block.` };
        },
      });
    } finally {
      await registry.close();
    }
  })();
  diagnostics.push(...session.notices);
  const refused = session.record.tool_calls.filter((c) => c.decision === 'refused').length;
  // What the model asked to run and what the gate decided, as in the review's JSON.
  const toolCalls = session.record.tool_calls.map((c) => ({ tool: c.tool, origin: c.origin, decision: c.decision, reason: c.reason }));
  const tally = { rounds: outcome.rounds, drafts: outcome.answers, tool_calls: toolCalls };

  if (outcome.status === 'error') {
    const e = outcome.error;
    const done = await session.finish({ status: e.errorClass === 'cancelled' ? 'cancelled' : 'error', code: e.code, message: session.redact(e.message) });
    return {
      outcome: e.errorClass === 'cancelled' ? 'interrupted' : 'failed',
      json: json({ status: 'error', error: { class: e.errorClass, code: e.code, message: session.redact(e.message) }, ...tally, session: done.id }),
      diagnostics: [...diagnostics, providerDiagnostic(e, session.redact, 'template --ai')],
    };
  }
  if (draft === undefined) {
    const done = await session.finish({ status: 'no_valid_draft', code: 'AI020', message: lastProblem });
    const located = lastDiagnostics.map((d) => ({ ...d, file: `draft of ${shown}` }));
    const spent =
      outcome.status === 'round_limit' && outcome.limit === 'tool_rounds'
        ? `the model made tool calls in ${outcome.rounds - outcome.answers} requests without a valid draft`
        : `no draft validated in ${outcome.answers} draft${outcome.answers === 1 ? '' : 's'}`;
    return {
      outcome: 'failed',
      json: json({ status: 'no_valid_draft', ...tally, tool_calls_refused: refused, session: done.id, last_diagnostics: lastDiagnostics }),
      diagnostics: [...diagnostics, ...located, diagnostic('AI020', `${spent} (${lastProblem}); nothing was written`, { hint: 'rephrase the intent, add a skill with --skill, or raise max_rounds in .oxo-flow/ai.toml' })],
    };
  }
  const written = write(draft);
  if (!written.ok) {
    const done = await session.finish({ status: 'error', message: written.diagnostic.message });
    return { outcome: 'failed', json: json({ status: 'error', session: done.id }), diagnostics: [...diagnostics, written.diagnostic] };
  }
  const done = await session.finish({ status: 'written' }, { written: target });
  const rules = (draft.match(/^\s*\[\[rules\]\]/gm) ?? []).length;
  return {
    outcome: 'ok',
    json: json({ status: 'written', written: true, rules, ...tally, tool_calls_refused: refused, session: done.id }),
    diagnostics,
    written: { rules, rounds: outcome.rounds, session: done.id },
  };
}
