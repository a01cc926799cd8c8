// `--ai` on validate, lint and dry-run: whether the review was asked for (flag, workflow [ai],
// ai.toml), and the hand-over to the review itself (ai-review-run.ts), which loads lazily, only
// when AI is on, so the plain commands never pay for it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AiTable } from '../workflow/model.js';
import type { CliContext } from './context.js';
import type { CommandResult } from './result.js';

export interface AiReviewRequest {
  command: 'validate' | 'lint' | 'dry-run';
  /** --ai (true), --no-ai (false), neither (undefined: the workflow or ai.toml decides). */
  flag: boolean | undefined;
  skillFlags: string[];
  /** Absolute path of the workflow, when one was found. */
  workflowPath?: string;
  workflowAi?: AiTable;
}

/** The request from a command's options and its loaded workflow. */
export function aiRequest(
  command: AiReviewRequest['command'],
  opts: { ai?: boolean; skill?: string[] },
  workflowPath: string | undefined,
  workflow: { ai?: AiTable } | undefined,
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
  };
}

export async function addAiReview(result: CommandResult, request: AiReviewRequest, ctx: CliContext): Promise<CommandResult> {
  if (!(await aiRequested(request, ctx))) return result;
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
