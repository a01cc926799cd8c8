// Tests that need programs from outside (bioinformatics tools, Slurm): skipped with a message on a
// machine without them, but under CI=true (or OXO_FLOW_REQUIRE_TOOLS=1, which .ci/run sets) a
// missing program fails the test instead.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export function onPath(program: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(dir, program), constants.X_OK);
      return true;
    } catch {
      // next
    }
  }
  return false;
}

/** Missing programs; prints how to enable the test when it is skipped. */
export function requireTools(programs: readonly string[], howToEnable: string): { skip: boolean; missing: string[] } {
  const missing = programs.filter((p) => !onPath(p));
  const ci = toolsRequired();
  if (missing.length > 0 && !ci) console.warn(`skipped: needs ${missing.join(', ')} on PATH. To enable: ${howToEnable}`);
  return { skip: missing.length > 0 && !ci, missing };
}

export function toolsRequired(): boolean {
  return process.env.CI === 'true' || process.env.OXO_FLOW_REQUIRE_TOOLS === '1';
}
