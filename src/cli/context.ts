// Everything a command may know about the outside world, decided once at start-up.
// Core modules never read process.* themselves; commands pass what they need from here.

import type { AiHost } from '../ai/host.js';

/** The AI layer's host (cwd, env, --json, the terminal streams, version, clock) and what only the command line has. */
export interface CliContext extends AiHost {
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  /**
   * Secret values known so far (credential-named environment variables, MCP header values,
   * `sensitive = true` config values): commands add what they learn, and every output is scrubbed
   * of them before it is written (src/cli/output.ts).
   */
  secrets: Set<string>;
  /**
   * Ctrl-C. A command that stops cleanly by itself (run cancels its jobs, the AI review its request)
   * registers a handler and then returns its own result; with none registered, Ctrl-C ends the command
   * at once with CLI130 and exit 130. A second Ctrl-C always ends it at once, after calling each
   * handler once more with `again` true (synchronously: run SIGKILLs what is left); a handler may then
   * return the command's result (a CommandResult), which is printed instead of CLI130. Returns the unregister.
   */
  onInterrupt(handler: (again?: boolean) => unknown): () => void;
}

/** Colour only when asked for or when stderr is a terminal; NO_COLOR and --no-color always win. */
export function decideColor(
  env: Readonly<Record<string, string | undefined>>,
  flag: boolean | undefined,
  stderrIsTTY: boolean,
): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stderrIsTTY;
}
