// Shared by validate, lint, dry-run and graph: resolve the file, load it, run the checks. Exit 2 for an
// input that cannot be read or parsed as TOML; everything after that is the workflow's own findings.
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkWorkflow } from '../workflow/checks/index.js';
import { readWorkflowFile } from '../workflow/load/index.js';
import type { Workflow } from '../workflow/model.js';
import { validateWorkflow } from '../workflow/validate.js';
import type { CliContext } from './context.js';
import { type ProjectFlags, projectDirectory, readConfigFiles } from './project-input.js';
import { resolveWorkflowPath } from './workflow-path.js';

export type WorkflowReport =
  | { kind: 'unreadable'; diagnostics: Diagnostic[]; shown?: string }
  | { kind: 'loaded'; shown: string; /** absolute */ path: string; workflow?: Workflow; diagnostics: Diagnostic[] };

/**
 * Load and check. With `graph` (validate, lint): the engine's one validation entry point, every
 * problem in one run. dry-run and graph run the cross-field checks here and leave the rest to the
 * expansion pipeline, which the planner runs with the real overrides and samples.
 */
export async function loadAndCheck(
  arg: string | undefined,
  ctx: CliContext,
  options: { graph: boolean; overrides?: readonly string[]; project?: ProjectFlags },
): Promise<WorkflowReport> {
  const project = projectDirectory(options.project ?? {}, ctx.cwd);
  if (!project.ok) return { kind: 'unreadable', diagnostics: [project.diagnostic] };
  // A workflow named on the command line is found from the current directory; without one, in the project.
  const resolved = arg === undefined && options.project?.directory !== undefined ? resolveWorkflowPath(project.project.dir, ctx.cwd) : resolveWorkflowPath(arg, ctx.cwd);
  if (!resolved.ok) return { kind: 'unreadable', diagnostics: [resolved.diagnostic] };
  const relative = path.relative(ctx.cwd, resolved.path);
  const shown = relative === '' || relative.startsWith('..') ? resolved.path : relative;
  const files = await readConfigFiles(options.project?.configfile ?? [], ctx.cwd);
  if (files.diagnostics.length > 0) return { kind: 'unreadable', diagnostics: files.diagnostics, shown };
  const loaded = readWorkflowFile(resolved.path, {
    displayPath: shown,
    projectDir: project.project.dir,
    projectShown: project.project.shown,
    config: { files: files.layers, overrides: options.overrides ?? [] },
  });
  // Not readable, not text (E033), or not TOML: exit 2, as for any input the command cannot read.
  // A config value the command line gives that does not fit its key is a usage error too.
  if (loaded.diagnostics.some((d) => d.code === 'CLI003' || d.code === 'E000' || d.code === 'E033' || d.code.startsWith('CLI'))) {
    return { kind: 'unreadable', diagnostics: loaded.diagnostics, shown };
  }
  if (!loaded.workflow) return { kind: 'loaded', shown, path: resolved.path, diagnostics: loaded.diagnostics };
  noteSensitiveValues(loaded.workflow, options.overrides ?? [], ctx);
  const diagnostics = [...loaded.diagnostics, ...(options.graph ? validateWorkflow(loaded.workflow) : checkWorkflow(loaded.workflow))];
  return { kind: 'loaded', shown, path: resolved.path, workflow: loaded.workflow, diagnostics };
}

/**
 * `sensitive = true` config values (declared defaults, and KEY=VALUE overrides of such keys) become
 * secrets of this run: output is scrubbed of them wherever they would appear.
 */
function noteSensitiveValues(workflow: Workflow, overrides: readonly string[], ctx: CliContext): void {
  const sensitive = new Set<string>();
  for (const entry of workflow.config.values()) {
    if (!entry.declaration?.sensitive) continue;
    sensitive.add(entry.key);
    for (const v of [entry.value ?? []].flat()) ctx.secrets.add(String(v));
  }
  for (const o of overrides) {
    const eq = o.indexOf('=');
    if (eq > 0 && sensitive.has(o.slice(0, eq).replace(/^config\./, ''))) ctx.secrets.add(o.slice(eq + 1));
  }
}
