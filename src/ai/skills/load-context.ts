// One call for commands: resolve the project, read its ai.toml and the workflow's [ai] table,
// discover skills and activate the listed ones.
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../package-root.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { AiTable } from '../../workflow/model.js';
import { readProjectAiConfig, resolveProjectDir, type ProjectAiConfig } from '../project.js';
import { activateSkills, requestedNames, type Activation, type ActivationRequest } from './activate.js';
import { prebuiltBuiltins } from './builtin-manifest.js';
import { discoverSkills } from './discover.js';
import { DiscoveryCache, skillCacheDir } from './discovery-cache.js';
import type { Discovery } from './types.js';

/** skills-builtin/ at the package root. */
export function builtinSkillsDir(): string {
  return path.join(packageRoot(), 'skills-builtin');
}

export interface SkillContextInput {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The workflow file whose `[ai]` table lists skills (absolute or relative to cwd). */
  workflowPath?: string;
  /** An already-loaded workflow `[ai]` table: skips reading the workflow again. */
  workflowAi?: AiTable;
  /** `--project DIR`. */
  project?: string;
  /** `--skill NAME` flags. */
  skillFlags?: string[];
  /** The AI command (template, validate, lint, dry-run) for `[ai.<command>]` lists. */
  command?: string;
  /** Override for tests and packaging; default skills-builtin/ of this package. */
  builtinDir?: string;
}

export interface SkillContext {
  projectDir: string;
  homeDir: string;
  builtinDir: string;
  projectConfig: ProjectAiConfig;
  workflowPath?: string;
  workflowAi?: AiTable;
  discovery: Discovery;
  activation: Activation;
  /** ai.toml findings, workflow read problems and discovery-level findings (not per-skill ones). */
  diagnostics: Diagnostic[];
  /** Why the discovery cache was ignored or not written (SK063, SK064): for --verbose and --json only. */
  cacheNotes: Diagnostic[];
}

/** $OXO_FLOW_HOME, else ~/.oxo-flow. */
export function oxoFlowHome(env: Readonly<Record<string, string | undefined>>): string {
  const home = env.OXO_FLOW_HOME;
  if (home !== undefined && home !== '') return path.resolve(home);
  return path.join(env.HOME || os.homedir(), '.oxo-flow');
}

export async function loadSkillContext(input: SkillContextInput): Promise<SkillContext> {
  const workflowPath = input.workflowPath !== undefined ? path.resolve(input.cwd, input.workflowPath) : undefined;
  const projectDir = resolveProjectDir({ cwd: input.cwd, ...(input.project !== undefined ? { project: input.project } : {}), ...(workflowPath ? { workflowPath } : {}) });
  const homeDir = oxoFlowHome(input.env);
  const builtinDir = input.builtinDir ?? builtinSkillsDir();
  const projectConfig = readProjectAiConfig(projectDir);
  const diagnostics: Diagnostic[] = [...projectConfig.diagnostics];

  let workflowAi = input.workflowAi;
  if (!workflowAi && workflowPath) {
    const read = await readWorkflowAi(workflowPath);
    if (read.ai) workflowAi = read.ai;
    diagnostics.push(...read.diagnostics);
  }
  const request: ActivationRequest = {
    ...(projectConfig.exists ? { project: { ...projectConfig.table, file: projectConfig.file } } : {}),
    ...(workflowAi ? { workflow: { ...workflowAi, file: workflowPath } } : {}),
    flags: input.skillFlags ?? [],
    ...(input.command !== undefined ? { command: input.command } : {}),
  };
  const wanted = requestedNames(request).map((r) => r.name);
  // The package's own library comes from its build-time manifest when that matches the files.
  const prebuilt = input.builtinDir === undefined ? prebuiltBuiltins(builtinDir) : undefined;
  // Unchanged skill files are listed from $OXO_FLOW_HOME/cache/skills/ (OXO_FLOW_SKILL_CACHE=0: never).
  const cache = input.env.OXO_FLOW_SKILL_CACHE === '0' ? undefined : new DiscoveryCache(skillCacheDir(homeDir));
  const discovery = discoverSkills({
    projectDir,
    homeDir,
    builtinDir,
    extraPaths: projectConfig.skillPaths,
    wanted,
    ...(prebuilt ? { prebuiltBuiltins: prebuilt } : {}),
    ...(cache ? { cache } : {}),
  });
  diagnostics.push(...discovery.diagnostics);
  const activation = activateSkills(discovery, request);
  const out: SkillContext = { projectDir, homeDir, builtinDir, projectConfig, discovery, activation, diagnostics, cacheNotes: cache?.notes ?? [] };
  if (workflowPath) out.workflowPath = workflowPath;
  if (workflowAi) out.workflowAi = workflowAi;
  return out;
}

/** The workflow's `[ai]` table through the engine's loader (loaded lazily: only commands with a workflow pay for it). */
async function readWorkflowAi(file: string): Promise<{ ai?: AiTable; diagnostics: Diagnostic[] }> {
  const { readWorkflowFile } = await import('../../workflow/load/index.js');
  const result = readWorkflowFile(file);
  if (result.workflow) return result.workflow.ai ? { ai: result.workflow.ai, diagnostics: [] } : { diagnostics: [] };
  const first = result.diagnostics.find((d) => d.severity === 'error');
  return {
    diagnostics: [
      diagnostic('SK045', `workflow ${file} could not be loaded${first ? ` (${first.code}: ${first.message})` : ''}, so its [ai] skills are not read`, { file }),
    ],
  };
}
