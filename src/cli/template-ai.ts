// `oxo-flow template --ai "INTENT" [-o PATH] [--force] [--from-file F]... [--skill NAME]...`: the
// agent loop drafts a workflow; each draft is checked by the same validation as `oxo-flow validate`
// and its diagnostics go back to the model until a draft validates or max_rounds is spent. Only a
// valid workflow is written, and an existing file only with --force.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { runAgent } from '../ai/agent/loop.js';
import { assembleSkillPrompt, loadSkillBody, loadSkillContext, type Skill, type SkillContext } from '../ai/skills/index.js';
import { openToolRegistry } from '../ai/tools/open-registry.js';
import { formatFindings, validateWorkflowText } from '../ai/tools/validate-workflow.js';
import { openAiSession, providerDiagnostic } from './ai-session.js';
import { resolveTarget } from './commands/template.js';
import type { CliContext } from './context.js';
import { failure, type CommandResult } from './result.js';
import { terminalSafe } from './terminal-safe.js';
import { writeFileAtomic } from './write-file-atomic.js';

export const TEMPLATE_MAX_ROUNDS = 5;
const MAX_FROM_FILE = 256 * 1024;
/** Built-in skills added for the intent (the top of its knowledge lookup). */
const MAX_INTENT_SKILLS = 4;

export const TEMPLATE_SYSTEM_PROMPT = `You write oxo-flow workflows: .oxoflow files in TOML.
A workflow has a [workflow] table (name, description, author, version), optional [config] values,
[defaults] (threads, memory, environment), and [[rules]] with name, description, input, output, log,
shell (placeholders {input}, {output}, {log}, {threads}, {config.KEY}, {sample} and other wildcards),
threads, memory and [rules.environment]. Outputs of one rule feed the inputs of the next.
Use the tools: validate_workflow checks a draft with the oxo-flow engine (use it before you answer);
read_skill and read_skill_file read the active skills' guidance.
Give the complete workflow in one fenced \`\`\`toml block. Keep explanations short.`;

export interface TemplateAiOptions {
  ai: string;
  output?: string;
  force?: boolean;
  fromFile?: string[];
  skill?: string[];
}

/** The workflow TOML of an answer: the last fenced toml block holding [workflow], else a bare TOML answer. */
export function extractWorkflowToml(text: string): string | undefined {
  const fences = [...text.matchAll(/```[ \t]*(?:toml|oxoflow)?[ \t]*\r?\n([\s\S]*?)```/gi)].map((m) => m[1]!);
  const withWorkflow = fences.filter((f) => /^\s*\[workflow\]/m.test(f));
  if (withWorkflow.length > 0) return `${withWorkflow[withWorkflow.length - 1]!.replace(/\s+$/, '')}\n`;
  if (fences.length === 0 && /^\s*\[workflow\]/m.test(text)) return `${text.trim()}\n`;
  return undefined;
}

/**
 * Built-in skills the knowledge index ranks highest for the intent (the same search as `ai lookup
 * skill`), not already active, with their bodies read. No index (a build without it): none.
 */
export async function skillsForIntent(intent: string, sc: SkillContext): Promise<Skill[]> {
  const [{ loadKnowledgeIndex }, { searchSkills }] = await Promise.all([import('../ai/knowledge/load.js'), import('../ai/knowledge/search.js')]);
  let hits: string[];
  try {
    hits = searchSkills(loadKnowledgeIndex(), intent, MAX_INTENT_SKILLS).hits.map((h) => h.name);
  } catch {
    return [];
  }
  const active = new Set(sc.activation.active.map((s) => s.name));
  const builtins = new Map(sc.discovery.skills.filter((s) => s.scope === 'builtin' && s.status === 'ok' && s.type === 'knowledge').map((s) => [s.name, s]));
  return hits
    .filter((name) => !active.has(name))
    .map((name) => builtins.get(name))
    .filter((s): s is Skill => s !== undefined && loadSkillBody(s));
}

export async function templateAi(opts: TemplateAiOptions, ctx: CliContext): Promise<CommandResult> {
  const intent = opts.ai.trim();
  if (intent === '') return failure('usage', [diagnostic('CLI001', '--ai needs a description of the workflow, e.g. --ai "paired-end RNA-seq, STAR + featureCounts"')]);
  const target = resolveTarget(opts.output, 'main', ctx.cwd);
  const shown = path.relative(ctx.cwd, target) || target;
  const base = { intent, path: target, written: false };
  // Refused before any token is spent.
  if (existsSync(target) && !opts.force) {
    return failure('failed', [diagnostic('CLI004', `${shown} already exists; not overwriting it`, { file: shown, hint: 'pass --force to overwrite it, or choose another path with -o' })], base);
  }
  const attachments: string[] = [];
  for (const file of opts.fromFile ?? []) {
    const full = path.resolve(ctx.cwd, file);
    try {
      if (statSync(full).size > MAX_FROM_FILE) throw new Error(`larger than ${MAX_FROM_FILE} bytes`);
      attachments.push(`File ${file}:\n\`\`\`\n${readFileSync(full, 'utf8').replace(/\n+$/, '')}\n\`\`\``);
    } catch (err) {
      return failure('usage', [diagnostic('AI022', `--from-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file })], base);
    }
  }

  const loaded = await loadSkillContext({ cwd: ctx.cwd, env: ctx.env, skillFlags: opts.skill ?? [], command: 'template' });
  const extra = await skillsForIntent(intent, loaded);
  const sc: SkillContext = { ...loaded, activation: { ...loaded.activation, active: [...loaded.activation.active, ...extra] } };
  const diagnostics: Diagnostic[] = [...sc.diagnostics, ...sc.activation.warnings];
  const say = ctx.json ? undefined : (t: string) => ctx.stderr.write(`${terminalSafe(t)}\n`);
  const session = openAiSession('template', sc, ctx, say ? { say } : {});
  diagnostics.push(...session.resolved.diagnostics);
  const skills = sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null }));
  const json = (more: Record<string, unknown>) => ({ ...base, provider: session.resolved.kind, model: session.provider?.model ?? session.resolved.model ?? null, skills, ...more });

  if (session.provider === undefined) {
    const error = session.setupError!;
    const done = await session.finish({ status: 'error', code: error.code, message: session.redact(error.message) });
    const d = session.resolved.kind === 'disabled' ? diagnostic('AI013', 'template --ai needs an AI provider; none is configured', session.resolved.hint ? { hint: session.resolved.hint } : {}) : providerDiagnostic(error, session.redact);
    return failure('failed', [...diagnostics, d], json({ status: 'error', session: done.id }));
  }

  const registry = await openToolRegistry({ active: sc.activation.active, servers: [], env: ctx.env, clientInfo: { name: 'oxo-flow', version: ctx.version } });
  for (const s of registry.servers.filter((x) => !x.ok)) diagnostics.push(diagnostic(s.error!.code, session.redact(`MCP server ${s.name} (${s.url}): ${s.error!.message}`), { severity: 'warning' }));
  session.offer(registry.tools);
  let draft: string | undefined;
  let lastDiagnostics: Diagnostic[] = [];
  let lastProblem = 'the model gave no answer';
  const user = [`Write an oxo-flow workflow for: ${intent}`, ...attachments].join('\n\n');
  const outcome = await (async () => {
    try {
      return await runAgent({
        system: assembleSkillPrompt(TEMPLATE_SYSTEM_PROMPT, sc.activation.active),
        user,
        provider: session.provider!,
        tools: registry,
        approver: session.approver,
        maxRounds: sc.projectConfig.table.maxRounds ?? TEMPLATE_MAX_ROUNDS,
        stream: !ctx.json,
        signal: session.signal,
        session: session.record,
        judge: async (text, round) => {
          const toml = extractWorkflowToml(text);
          if (toml === undefined) {
            lastProblem = 'the answer held no workflow TOML';
            say?.(`  round ${round}: no workflow in the answer; asking again`);
            return { accept: false, feedback: 'Your answer holds no workflow. Give the complete workflow in one ```toml block.' };
          }
          const checked = await validateWorkflowText(toml, path.basename(target), path.dirname(target));
          if (checked.valid) {
            draft = toml;
            return { accept: true };
          }
          lastDiagnostics = checked.diagnostics;
          const errors = checked.diagnostics.filter((d) => d.severity === 'error');
          lastProblem = `the last draft has ${errors.length} error${errors.length === 1 ? '' : 's'}`;
          say?.(`  round ${round}: the draft has ${errors.length} validation error${errors.length === 1 ? '' : 's'}; sending them back`);
          return { accept: false, feedback: `oxo-flow validate found these problems in your workflow:\n${formatFindings(checked.diagnostics)}\nFix them and give the complete corrected workflow in one \`\`\`toml block.` };
        },
      });
    } finally {
      await registry.close();
    }
  })();
  diagnostics.push(...session.notices);
  const refused = session.record.tool_calls.filter((c) => c.decision === 'refused').length;

  if (outcome.status === 'error') {
    const e = outcome.error;
    const done = await session.finish({ status: e.errorClass === 'cancelled' ? 'cancelled' : 'error', code: e.code, message: session.redact(e.message) });
    return {
      outcome: e.errorClass === 'cancelled' ? 'interrupted' : 'failed',
      json: json({ status: 'error', error: { class: e.errorClass, code: e.code, message: session.redact(e.message) }, rounds: outcome.rounds, session: done.id }),
      diagnostics: [...diagnostics, providerDiagnostic(e, session.redact, 'template --ai')],
    };
  }
  if (draft === undefined) {
    const done = await session.finish({ status: 'no_valid_draft', code: 'AI020', message: lastProblem });
    const located = lastDiagnostics.map((d) => ({ ...d, file: `draft of ${shown}` }));
    return {
      outcome: 'failed',
      json: json({ status: 'no_valid_draft', rounds: outcome.rounds, tool_calls_refused: refused, session: done.id, last_diagnostics: lastDiagnostics }),
      diagnostics: [...diagnostics, ...located, diagnostic('AI020', `no draft validated in ${outcome.rounds} round${outcome.rounds === 1 ? '' : 's'} (${lastProblem}); nothing was written`, { hint: 'rephrase the intent, add a skill with --skill, or raise max_rounds in .oxo-flow/ai.toml' })],
    };
  }
  const written = writeFileAtomic(target, draft, { overwrite: Boolean(opts.force) });
  if (!written.ok) {
    const done = await session.finish({ status: 'error', message: written.reason });
    const d =
      written.reason === 'exists'
        ? diagnostic('CLI004', `${shown} already exists; not overwriting it`, { file: shown, hint: 'pass --force to overwrite it' })
        : diagnostic('CLI005', `cannot write ${shown}: ${written.message}`, { file: shown });
    return failure('failed', [...diagnostics, d], json({ status: 'error', session: done.id }));
  }
  const done = await session.finish({ status: 'written' }, { written: target });
  const rules = (draft.match(/^\s*\[\[rules\]\]/gm) ?? []).length;
  return {
    outcome: 'ok',
    json: json({ status: 'written', written: true, rules, rounds: outcome.rounds, tool_calls_refused: refused, session: done.id }),
    diagnostics,
    human: (style) =>
      `${style.green('✓')} wrote ${style.bold(shown)} (${rules} rule${rules === 1 ? '' : 's'}, validated) after ${outcome.rounds} round${outcome.rounds === 1 ? '' : 's'} · session ${done.id}\n` +
      `  next: read it, then ${style.bold(`oxo-flow dry-run ${shown}`)}`,
  };
}
