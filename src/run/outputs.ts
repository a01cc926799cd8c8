// Output files around a job: removing them before it runs again and what a failed attempt left
// behind, and making protected outputs read-only.
import { chmodSync, lstatSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export function existingOutputs(outputs: readonly string[], dir: string): string[] {
  return outputs.filter((o) => statSync(path.resolve(dir, o), { throwIfNoEntry: false }) !== undefined);
}

export function missingOutputs(outputs: readonly string[], dir: string): string[] {
  return outputs.filter((o) => statSync(path.resolve(dir, o), { throwIfNoEntry: false }) === undefined);
}

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
 * Declared file outputs (no trailing `/`) that are directories: a job that made one did not make
 * the file it promised (a directory output is declared as `dir/`).
 */
export function directoriesAtFileOutputs(outputs: readonly string[], dir: string): string[] {
  return outputs.filter((o) => !o.endsWith('/') && statSync(path.resolve(dir, o), { throwIfNoEntry: false })?.isDirectory() === true);
}
