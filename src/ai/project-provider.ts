// The provider for a project: flags and environment first, then the project's ai.toml and the
// workflow's [ai] table (as loaded with the skill context), then $OXO_FLOW_HOME/ai_config.json.
// One place for `ai status` and the `--ai` review, so both always agree.
import { resolveProvider, type ResolvedProvider } from './providers/resolve.js';
import type { SkillContext } from './skills/index.js';

export function resolveProjectProvider(
  sc: Pick<SkillContext, 'homeDir' | 'projectConfig' | 'workflowAi'>,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedProvider {
  const table = sc.projectConfig.table;
  return resolveProvider({
    env,
    homeDir: sc.homeDir,
    project: {
      ...(table.provider !== undefined ? { provider: table.provider } : {}),
      ...(table.model !== undefined ? { model: table.model } : {}),
      ...(sc.projectConfig.baseUrl !== undefined ? { baseUrl: sc.projectConfig.baseUrl } : {}),
    },
    workflow: {
      ...(sc.workflowAi?.provider !== undefined ? { provider: sc.workflowAi.provider } : {}),
      ...(sc.workflowAi?.model !== undefined ? { model: sc.workflowAi.model } : {}),
    },
  });
}
