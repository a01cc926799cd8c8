// Writing a file so that a reader never sees half of it: write a temporary file beside the target,
// then move it into place. Without `overwrite`, the move is a hard link, which fails when the target
// exists, so a file that appears between our check and our write is still never clobbered.
import { linkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type WriteOutcome = { ok: true } | { ok: false; reason: 'exists' | 'error'; message: string };

/** `mode`: the new file's permissions (default 0666 less the umask). */
export function writeFileAtomic(target: string, data: string | Uint8Array, options: { overwrite: boolean; mode?: number }): WriteOutcome {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, data, { flag: 'wx', ...(options.mode !== undefined ? { mode: options.mode } : {}) });
  } catch (err) {
    return { ok: false, reason: 'error', message: (err as Error).message };
  }
  let renamed = false;
  try {
    if (options.overwrite) {
      renameSync(temp, target);
      renamed = true;
      return { ok: true };
    }
    linkSync(temp, target);
    return { ok: true };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'EEXIST' ? 'exists' : 'error', message: (err as Error).message };
  } finally {
    // After a rename there is nothing left to remove.
    if (!renamed) rmSync(temp, { force: true });
  }
}
