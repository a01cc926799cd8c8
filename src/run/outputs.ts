// Output files around a job: removing them before it runs again and what a failed attempt left
// behind, and making protected outputs read-only.
import { chmodSync, lstatSync, lutimesSync, mkdirSync, rmSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/** Remove the outputs a failed or stopped job made, keeping every file that was there before it. */
export function removePartialOutputs(outputs: readonly string[], preexisting: readonly string[], dir: string): string[] {
  const keep = new Set(preexisting);
  const removed: string[] = [];
  for (const o of outputs) {
    if (keep.has(o)) continue;
    const full = path.resolve(dir, o);
    // lstat: a symbolic link whose target is gone is still there, and `ln -s` would refuse it.
    if (lstatSync(full, { throwIfNoEntry: false }) === undefined) continue;
    rmSync(full, { recursive: true, force: true });
    removed.push(o);
  }
  return removed;
}

/** Jobs write into folders that may not exist yet. */
export function makeParentDirs(paths: readonly string[], dir: string): void {
  const made = new Set<string>();
  for (const p of paths) {
    const parent = path.dirname(path.resolve(dir, p));
    if (made.has(parent)) continue;
    made.add(parent);
    mkdirSync(parent, { recursive: true });
  }
}

/** Read-only for everyone (a directory output keeps its search bit). */
export function protect(outputs: readonly string[], dir: string): void {
  for (const o of outputs) {
    const full = path.resolve(dir, o);
    // Never through a symbolic link: its target may be a file the workflow does not own (issue 17).
    const s = lstatSync(full, { throwIfNoEntry: false });
    if (s !== undefined && !s.isSymbolicLink()) chmodSync(full, s.mode & (s.isDirectory() ? 0o555 : 0o444));
  }
}

export function removeFile(p: string, dir: string): void {
  rmSync(path.resolve(dir, p), { recursive: true, force: true });
}

/**
 * After a job exited 0, one look at each output: the ones missing (a symbolic link counts by its
 * target), the declared file outputs (no trailing `/`) that are directories (the job did not make the
 * file it promised; a directory output is declared as `dir/`), and, when there is
 * neither, every output given the job's end as its time when a tool kept an older one (cp -p,
 * rsync -a, tar x, clock skew), so it is never older than the job's start.
 */
export function checkOutputs(outputs: readonly string[], dir: string, startedMs: number): { missing: string[]; folders: string[] } {
  const missing: string[] = [];
  const folders: string[] = [];
  const seen: (Stats | undefined)[] = [];
  for (const o of outputs) {
    const full = path.resolve(dir, o);
    const own = lstatSync(full, { throwIfNoEntry: false });
    seen.push(own);
    const target = own?.isSymbolicLink() ? statSync(full, { throwIfNoEntry: false }) : own;
    if (target === undefined) missing.push(o);
    else if (!o.endsWith('/') && target.isDirectory()) folders.push(o);
  }
  if (missing.length > 0 || folders.length > 0) return { missing, folders: missing.length > 0 ? [] : folders };
  let now: Date | undefined;
  outputs.forEach((o, i) => {
    const s = seen[i];
    if (s !== undefined && s.mtimeMs < startedMs) {
      now ??= new Date();
      lutimesSync(path.resolve(dir, o), now, now);
    }
  });
  return { missing, folders };
}
