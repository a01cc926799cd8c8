// `oxo-flow clean --state`: keep .oxo-flow/ small. Folds every journal a finished run left (and the
// per-job files of older versions) into the one state index, holding the project lock so that no run
// writes meanwhile (RUN040 when one does), and with `--keep-runs N` removes all but the newest N run
// records (never one whose runner still runs). Every run compacts its own journal as it ends; this is
// for what a killed run left, and for history.
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { acquireLock, describeHolder } from '../../run/lock.js';
import { listRuns } from '../../run/record/store.js';
import { StateStore } from '../../run/state.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';
import { terminalSafe } from '../terminal-safe.js';

export interface CleanOptions {
  workflow?: string;
  state?: boolean;
  keepRuns?: string;
}

export async function clean(opts: CleanOptions, ctx: CliContext): Promise<CommandResult> {
  const keep = opts.keepRuns === undefined ? undefined : Number(opts.keepRuns);
  const usage: Diagnostic[] = [];
  if (!opts.state && keep === undefined) usage.push(diagnostic('CLI035', 'clean: say what to clean: --state (the run state), --keep-runs N (old run records), or both'));
  if (keep !== undefined && !(Number.isSafeInteger(keep) && keep >= 0)) usage.push(diagnostic('CLI036', `--keep-runs ${opts.keepRuns}: expected a whole number of runs to keep (0 or more)`));
  if (usage.length > 0) return { outcome: 'usage', json: { directory: null }, diagnostics: usage };

  const target = path.resolve(ctx.cwd, opts.workflow ?? '.');
  const dir = (statSync(target, { throwIfNoEntry: false })?.isDirectory() ?? false) ? target : path.dirname(target);
  const shownDir = path.relative(ctx.cwd, dir) || '.';
  const json: Record<string, unknown> = { directory: shownDir };
  const lock = acquireLock(dir, { command: 'oxo-flow clean', runId: `clean-${randomBytes(6).toString('hex')}` });
  if (!lock.ok) {
    const who = lock.holder !== undefined ? `: ${describeHolder(lock.holder)}` : '';
    return { outcome: 'failed', json: { ...json, lock: lock.holder ?? null }, diagnostics: [diagnostic('RUN040', `${lock.why} (${terminalSafe(path.relative(ctx.cwd, lock.file) || lock.file)})${who}`, { file: lock.file })] };
  }
  const diagnostics: Diagnostic[] = [];
  if (lock.tookOver !== undefined) diagnostics.push(diagnostic('RUN041', `took over the lock of a run that is gone (${lock.tookOver.why}): ${describeHolder(lock.tookOver.holder)}`, { file: lock.lock.file }));
  const lines: string[] = [];
  try {
    if (opts.state) {
      const store = new StateStore(dir, ctx.env.OXO_FLOW_FSYNC !== '0');
      try {
        const c = store.compact();
        json.state = { index: path.relative(ctx.cwd, store.indexFile) || store.indexFile, records: c.records, journals_folded: c.journals, legacy_files_folded: c.legacyFiles };
        lines.push(`State: ${c.records} job record${c.records === 1 ? '' : 's'} in ${terminalSafe(path.relative(ctx.cwd, store.indexFile))}; folded ${c.journals} journal${c.journals === 1 ? '' : 's'} and ${c.legacyFiles} per-job file${c.legacyFiles === 1 ? '' : 's'}.`);
      } catch (err) {
        diagnostics.push(diagnostic('RUN054', `the run state in ${terminalSafe(path.relative(ctx.cwd, store.jobsDir) || store.jobsDir)} was not compacted: ${(err as Error).message}`, { file: store.indexFile }));
      }
    }
    if (keep !== undefined) {
      const runs = listRuns(dir);
      const old = runs.slice(0, Math.max(0, runs.length - keep)).filter((r) => r.meta.status !== 'running' || r.incomplete);
      for (const r of old) rmSync(r.dir, { recursive: true, force: true });
      json.runs_removed = old.map((r) => r.meta.id);
      lines.push(`Runs: removed ${old.length} run record${old.length === 1 ? '' : 's'}, kept ${runs.length - old.length}.`);
    }
  } finally {
    lock.lock.release();
  }
  return { outcome: diagnostics.some((d) => d.severity === 'error') ? 'failed' : 'ok', json, diagnostics, human: () => lines.join('\n') };
}
