// `oxo-flow unlock`: remove the project lock (.oxo-flow/lock) a run left behind. A lock whose holder
// provably runs no more is taken over by the next run anyway; this is for the rest (a holder on
// another host, a damaged lock file). It refuses while the holder still runs on this host, unless --force.
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { describeHolder, lockFile, readHolder, staleReason } from '../../run/lock.js';
import type { CliContext } from '../context.js';
import { projectOfArgument } from '../project-input.js';
import type { CommandResult } from '../result.js';
import { terminalSafe } from '../terminal-safe.js';

export interface UnlockOptions {
  workflow?: string;
  /** `-d/--directory`: the project whose lock to remove (default: the current directory). */
  directory?: string;
  force?: boolean;
}

/**
 * The lock is the project's (the directory a run reads and writes): `--directory`, else a directory
 * given as the argument, else the current directory. A workflow file as the argument names the
 * pipeline, not the project, as for `run`.
 */
export async function unlock(opts: UnlockOptions, ctx: CliContext): Promise<CommandResult> {
  const dir = projectOfArgument(opts.workflow, opts.directory, ctx.cwd);
  const file = lockFile(dir);
  const shown = path.relative(ctx.cwd, file) || file;
  const { holder, raw } = readHolder(file);
  if (raw === undefined) {
    return { outcome: 'ok', json: { lock: shown, removed: false, holder: null }, diagnostics: [], human: () => `No lock in ${terminalSafe(path.relative(ctx.cwd, dir) || '.')}: nothing to unlock.` };
  }
  if (holder !== undefined && !opts.force && holder.host === hostname() && staleReason(holder, hostname(), {}) === undefined) {
    return {
      outcome: 'failed',
      json: { lock: shown, removed: false, holder },
      diagnostics: [diagnostic('RUN048', `the lock is held by a run that is still running: ${describeHolder(holder)}`, { file })],
    };
  }
  rmSync(file, { force: true });
  const who = holder !== undefined ? describeHolder(holder) : 'an unreadable lock file';
  return { outcome: 'ok', json: { lock: shown, removed: true, holder: holder ?? null }, diagnostics: [], human: () => `Removed the lock ${terminalSafe(shown)} (${terminalSafe(who)}).` };
}
