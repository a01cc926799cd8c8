import type { ExitClass } from '../diagnostics/code-info.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { TextSink } from './std-streams.js';
import { codeInfo } from '../diagnostics/registry.js';
import type { Style } from './style.js';

/** ok → 0; failed (workflow errors, lint failure, refused call) → 1; usage (bad flags, unreadable input) → 2. */
export type Outcome = 'ok' | 'failed' | 'usage' | 'interrupted';

export interface CommandResult {
  outcome: Outcome;
  /**
   * Command-specific fields of the --json document; a function when they are costly to build (a row
   * per skill, say), so human output never builds them.
   */
  json: Record<string, unknown> | (() => Record<string, unknown>);
  /** Diagnostics: rendered on stderr in human mode, listed under "diagnostics" in JSON. */
  diagnostics?: Diagnostic[];
  /** Human text for stderr (after the diagnostics). */
  human?: (style: Style) => string;
  /** The command's product for stdout in human mode (a graph, a schema, a completion script). */
  stdout?: string;
  /** Human text that -q still prints on success (e.g. dry-run's one-line summary). */
  quietHuman?: (style: Style) => string;
  /**
   * Human mode only: runs after the result is printed, writing to stderr as it goes (the --ai review
   * streams here). The exit code stays the result's, unless it reports an interruption (Ctrl-C).
   */
  after?: (stderr: TextSink, style: Style) => Promise<Outcome | undefined>;
}

export function jsonFields(result: CommandResult): Record<string, unknown> {
  return typeof result.json === 'function' ? result.json() : result.json;
}

export function exitCodeFor(outcome: Outcome): number {
  switch (outcome) {
    case 'ok':
      return 0;
    case 'failed':
      return 1;
    case 'usage':
      return 2;
    case 'interrupted':
      return 130;
  }
}

const RANK: Record<Outcome, number> = { ok: 0, failed: 1, usage: 2, interrupted: 3 };

/**
 * How a set of findings ends a command: its errors' exit classes from the registry (a code without
 * one means failed), the gravest winning: interrupted, then usage, then failed. No error: ok.
 */
export function outcomeOf(diagnostics: readonly Diagnostic[]): Outcome {
  let outcome: Outcome = 'ok';
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const exit: ExitClass = codeInfo(d.code).exit ?? 'failed';
    if (RANK[exit] > RANK[outcome]) outcome = exit;
  }
  return outcome;
}

/** A result that carries only diagnostics, e.g. a file that could not be read. */
export function failure(outcome: Outcome, diagnostics: Diagnostic[], json: Record<string, unknown> = {}): CommandResult {
  return { outcome, json, diagnostics };
}
