// WF defaults to main.oxoflow in the current directory, else the only *.oxoflow there.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

export type WorkflowPathResult = { ok: true; path: string } | { ok: false; diagnostic: Diagnostic };

export function resolveWorkflowPath(arg: string | undefined, cwd: string): WorkflowPathResult {
  if (arg !== undefined) {
    const full = path.resolve(cwd, arg);
    let stats;
    try {
      stats = statSync(full);
    } catch {
      return {
        ok: false,
        diagnostic: diagnostic('CLI002', `workflow file not found: ${arg}`, {
          file: arg,
          hint: 'check the path, or create a workflow with `oxo-flow init NAME`',
        }),
      };
    }
    if (stats.isDirectory()) return findInDirectory(full, arg);
    return regularFile(full, arg, stats.isFile());
  }
  return findInDirectory(cwd, '.');
}

/** A FIFO or a device would block the read (or never end): refuse it before anything opens it. */
function regularFile(full: string, shown: string, isFile?: boolean): WorkflowPathResult {
  if (isFile ?? statSync(full, { throwIfNoEntry: false })?.isFile()) return { ok: true, path: full };
  return {
    ok: false,
    diagnostic: diagnostic('CLI003', `cannot read workflow ${shown}: it is not a regular file`, {
      file: shown,
      hint: 'pass the path of a .oxoflow file',
    }),
  };
}

function findInDirectory(dir: string, shown: string): WorkflowPathResult {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    return {
      ok: false,
      diagnostic: diagnostic('CLI003', `cannot read directory ${shown}: ${(err as Error).message}`, { file: shown }),
    };
  }
  const join = (name: string) => regularFile(path.join(dir, name), shown === '.' ? name : path.join(shown, name));
  if (names.includes('main.oxoflow')) return join('main.oxoflow');
  const candidates = names.filter((n) => n.endsWith('.oxoflow')).sort();
  if (candidates.length === 1) return join(candidates[0]!);
  const found =
    candidates.length === 0
      ? `no main.oxoflow and no *.oxoflow file in ${shown}`
      : `no main.oxoflow in ${shown}, and ${candidates.length} *.oxoflow files (${candidates.join(', ')}) so none is chosen`;
  return {
    ok: false,
    diagnostic: diagnostic('CLI002', found, {
      hint:
        candidates.length === 0
          ? 'pass the workflow file, or create a project with `oxo-flow init NAME`'
          : 'pass the workflow file to use, e.g. `oxo-flow validate ' + candidates[0] + '`',
    }),
  };
}
