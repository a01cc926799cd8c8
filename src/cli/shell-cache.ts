// The shell analyses of earlier runs, kept on disk (src/workflow/render/shell-contexts.ts): loading the
// shell parser and parsing costs more than the rest of a `validate`, and a workflow's commands rarely
// change between two runs. One small file per command text under the user's cache directory
// ($XDG_CACHE_HOME or ~/.cache, then oxo-flow/shell-v<N>/), named by a cheap hash of the text and
// holding the text itself: an entry is used only for exactly that text, so no collision can hand a
// command another command's analysis, and no hashing library has to load. Only the user can write
// there (directory 0700, files 0600); anything unreadable or malformed is simply worked out again.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nameHash as fnv } from '../fs/name-hash.js';
import { ANALYSIS_VERSION, type AnalysisStore, type ShellAnalysis } from '../workflow/render/shell-contexts.js';

export function cacheDirectory(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const base = env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME ? path.join(env.HOME, '.cache') : undefined;
  return base === undefined ? undefined : path.join(base, 'oxo-flow', `shell-v${ANALYSIS_VERSION}`);
}

export function diskAnalysisStore(dir: string): AnalysisStore {
  const file = (text: string) => path.join(dir, `${fnv(text)}.json`);
  return {
    get(text) {
      try {
        const entry = JSON.parse(readFileSync(file(text), 'utf8')) as { text?: unknown; analysis?: unknown };
        return entry.text === text ? entry.analysis : undefined;
      } catch {
        return undefined;
      }
    },
    set(text: string, analysis: ShellAnalysis) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const target = file(text);
        const temp = `${target}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify({ text, analysis }), { mode: 0o600 });
        renameSync(temp, target);
      } catch {
        // A read-only or full disk: the next run works it out again.
      }
    },
  };
}
