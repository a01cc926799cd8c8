// `--ai` on validate, lint and dry-run. The deterministic command has already run; its output and
// exit code stay as they are. This adds the `ai` section: which skills are active for the command,
// which provider would answer, and why no review text is present. The AI layer loads lazily, only
// when AI is on, so the plain commands never pay for it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { AiTable } from '../workflow/model.js';
import type { CliContext } from './context.js';
import { jsonFields, type CommandResult } from './result.js';

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
  return {
    command,
    flag: opts.ai,
    skillFlags: opts.skill ?? [],
    ...(workflowPath !== undefined ? { workflowPath } : {}),
    ...(workflow?.ai !== undefined ? { workflowAi: workflow.ai } : {}),
  };
}

export async function addAiReview(result: CommandResult, request: AiReviewRequest, ctx: CliContext): Promise<CommandResult> {
  if (!(await aiRequested(request, ctx))) return result;
  const [{ loadSkillContext }, { resolveProjectProvider }] = await Promise.all([
    import('../ai/skills/index.js'),
    import('../ai/project-provider.js'),
  ]);
  const skills = await loadSkillContext({
    cwd: ctx.cwd,
    env: ctx.env,
    ...(request.workflowPath !== undefined ? { workflowPath: request.workflowPath } : {}),
    ...(request.workflowAi !== undefined ? { workflowAi: request.workflowAi } : {}),
    skillFlags: request.skillFlags,
    command: request.command,
  });
  const provider = resolveProjectProvider(skills, ctx.env);
  const disabled = provider.kind === 'disabled';
  const reason = disabled
    ? 'no AI provider is configured'
    : `this build of oxo-flow has no client for provider "${provider.kind}" yet; the deterministic result is complete`;
  const notice = disabled
    ? diagnostic('AI001', `AI review skipped: ${reason}`, provider.hint !== undefined ? { hint: provider.hint } : {})
    : diagnostic('AI002', `AI review not run: ${reason}`, { hint: 'run the command without --ai, or follow the project’s releases for provider support' });
  return {
    ...result,
    json: {
      ...jsonFields(result),
      ai: {
        status: disabled ? 'disabled' : 'error',
        reason,
        provider: provider.kind,
        model: provider.model ?? null,
        skills: skills.activation.active.map((s) => ({ name: s.name, scope: s.scope, type: s.type ?? null })),
        findings: [],
        text: null,
        usage: null,
      },
    },
    diagnostics: [...(result.diagnostics ?? []), ...skills.diagnostics, ...skills.activation.warnings, ...provider.diagnostics, notice],
  };
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
