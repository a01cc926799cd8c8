// `--ai` on validate, lint and dry-run: whether the review was asked for (flag, workflow [ai],
// ai.toml), and the hand-over to the review itself (ai-review-run.ts), which loads lazily, only
// when AI is on, so the plain commands never pay for it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { AiReviewRequest } from '../ai/review/request.js';
import type { AiTable } from '../workflow/model.js';
import type { CliContext } from './context.js';
import { renderDiagnostics } from './render-diagnostics.js';
import { jsonFields, type CommandResult } from './result.js';

export type { AiReviewRequest } from '../ai/review/request.js';

type RuleLike = { name: string; description?: string; shell?: string };

/** One line per rule for matching built-in skills: name, description and the first command word. */
function ruleSteps(rules: readonly RuleLike[]): string[] {
  return rules.map((r) => {
    const command = r.shell?.split(/[\n;|&]/).map((l) => l.trim()).find((l) => l !== '' && !/^(mkdir|cd|set|echo|export|cat|rm|mv|cp)\b/.test(l));
    return [r.name.replace(/[_:-]+/g, ' '), r.description ?? '', command?.split(/\s+/)[0] ?? ''].join(' ').trim();
  });
}

/** The request from a command's options and its loaded workflow. */
export function aiRequest(
  command: AiReviewRequest['command'],
  opts: { ai?: boolean; skill?: string[] },
  workflowPath: string | undefined,
  workflow: { ai?: AiTable; rules?: readonly RuleLike[] } | undefined,
  skipped?: string,
): AiReviewRequest {
  // A loaded workflow without [ai] passes an empty table, so the review does not read and parse the
  // file a second time to look for one.
  const workflowAi = workflow !== undefined ? (workflow.ai ?? { skills: [], commands: {} }) : undefined;
  return {
    command,
    flag: opts.ai,
    skillFlags: opts.skill ?? [],
    ...(workflowPath !== undefined ? { workflowPath } : {}),
    ...(workflowAi !== undefined ? { workflowAi } : {}),
    ...(workflow?.rules !== undefined ? { steps: ruleSteps(workflow.rules) } : {}),
    ...(skipped !== undefined ? { skipped } : {}),
  };
}

export async function addAiReview(result: CommandResult, request: AiReviewRequest, ctx: CliContext): Promise<CommandResult> {
  if (!(await aiRequested(request, ctx))) return result;
  if (request.skipped !== undefined) return skippedReview(result, request.skipped, ctx);
  // The review (skills, provider client, agent loop) lives in its own bundle (scripts/bundle.mjs).
  const { runAiReview } = await import('./ai-review-run.js');
  return runAiReview(result, request, ctx);
}

async function aiRequested(request: AiReviewRequest, ctx: CliContext): Promise<boolean> {
  if (request.flag !== undefined) return request.flag;
  if (request.workflowAi?.enabled !== undefined) return request.workflowAi.enabled;
  // `[ai] enabled` in the project's ai.toml: only read when the file exists (one stat on the plain path).
  const projectDir = request.workflowPath !== undefined ? path.dirname(request.workflowPath) : ctx.cwd;
  if (!existsSync(path.join(projectDir, '.oxo-flow', 'ai.toml'))) return false;
  const { readProjectAiConfig } = await import('../ai/project.js');
  return readProjectAiConfig(projectDir).table.enabled === true;
}

/** Asked for, but nothing to review: say so (never skip silently), leaving the exit code alone. */
function skippedReview(result: CommandResult, why: string, ctx: CliContext): CommandResult {
  const notice = diagnostic('AI041', `AI review skipped: ${why}`, { hint: 'fix the errors above, then run the command with --ai again' });
  if (ctx.json) return { ...result, json: { ...jsonFields(result), ai: { status: 'skipped', reason: why, diagnostics: [notice] } } };
  return {
    ...result,
    after: async (out, style) => {
      out.write(`${renderDiagnostics([notice], style, ctx.cwd)}\n`);
      return undefined;
    },
  };
}
