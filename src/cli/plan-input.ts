// Shared by dry-run and graph: find the workflow, load and check it, then plan it against the real
// disk. Exit 2 for unreadable or unparsable input and bad command-line values (CLI0xx codes),
// exit 1 for the workflow's own errors.
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Workflow } from '../workflow/model.js';
import type { PlanFs, PlanSettings } from '../workflow/plan/index.js';
import type { CliContext } from './context.js';
import type { Outcome } from './result.js';
import type { ProjectFlags } from './project-input.js';
import { loadAndCheck } from './workflow-input.js';

export const diskFs: PlanFs = {
  stat(p) {
    let s: ReturnType<typeof statSync>;
    try {
      s = statSync(p, { throwIfNoEntry: false });
    } catch (err) {
      // A name too long, or a file where a folder is expected: no such file (the run's job then fails on it with a code).
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENAMETOOLONG' || code === 'ENOTDIR') return undefined;
      throw err;
    }
    return s === undefined ? undefined : { mtimeMs: s.mtimeMs };
  },
  list(d) {
    try {
      return readdirSync(d);
    } catch {
      return undefined;
    }
  },
};

export interface PlanOptions {
  workflow?: string;
  overrides?: string[];
  target?: string[];
  /** Sample names from --samples, already split and checked (none empty). */
  samples?: string[];
  /** `-d/--directory`: the project directory (default: the current one). */
  directory?: string;
  /** `--configfile`: config values from files, in order (KEY=VALUE wins over them). */
  configfile?: string[];
}

/** The project flags of a command's options. */
export function projectFlags(opts: { directory?: string; configfile?: string[] }): ProjectFlags {
  return { ...(opts.directory !== undefined ? { directory: opts.directory } : {}), ...(opts.configfile !== undefined ? { configfile: opts.configfile } : {}) };
}

export type Loaded =
  | { ok: true; workflow: Workflow; shown: string; /** absolute */ path: string; diagnostics: Diagnostic[] }
  | { ok: false; outcome: Outcome; shown?: string; diagnostics: Diagnostic[] };

/** `dry-run threads=8`: commander takes the first KEY=VALUE for the workflow argument; give it back. */
export function splitWorkflowArg(opts: PlanOptions, cwd: string): { workflow?: string; overrides: string[] } {
  const overrides = [...(opts.overrides ?? [])];
  const wf = opts.workflow;
  if (wf?.includes('=') && !wf.endsWith('.oxoflow') && statSync(path.resolve(cwd, wf), { throwIfNoEntry: false }) === undefined) {
    return { overrides: [wf, ...overrides] };
  }
  return wf === undefined ? { overrides } : { workflow: wf, overrides };
}

/** Load and check a workflow for planning; `overrides` (KEY=VALUE) of sensitive keys become secrets of the run. */
export async function loadChecked(arg: string | undefined, ctx: CliContext, overrides: readonly string[] = [], project: ProjectFlags = {}): Promise<Loaded> {
  const report = await loadAndCheck(arg, ctx, { graph: false, overrides, project });
  if (report.kind === 'unreadable') {
    return { ok: false, outcome: 'usage', ...(report.shown !== undefined ? { shown: report.shown } : {}), diagnostics: report.diagnostics };
  }
  if (report.workflow === undefined || hasErrors(report.diagnostics)) return { ok: false, outcome: 'failed', shown: report.shown, diagnostics: report.diagnostics };
  return { ok: true, workflow: report.workflow, shown: report.shown, path: report.path, diagnostics: report.diagnostics };
}

export function planSettings(opts: PlanOptions, overrides: string[]): PlanSettings {
  const settings: PlanSettings = { overrides, targets: opts.target ?? [], cpus: availableParallelism() };
  if (opts.samples !== undefined) settings.samples = opts.samples;
  return settings;
}

