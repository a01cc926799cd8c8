// The approval gate as a pure function: which calls run freely, which ask a human, which are
// refused because no human can answer. Nothing here reads the environment; callers pass it in.

/** What the gate needs to know about a tool. */
export interface GateTool {
  /** Built-in tools that only read (read_skill, validate_workflow, …). */
  builtinReadOnly: boolean;
  /** The MCP server's annotations.readOnlyHint (a claim by the server). */
  readOnlyHint?: boolean;
  /** From the tool skill's [mcp] trust_annotations; false means readOnlyHint is ignored. */
  trustAnnotations: boolean;
}

export type GateDecision =
  | { action: 'run'; reason: string }
  | { action: 'ask'; reason: string }
  | { action: 'refuse'; reason: string };

export function decideGate(tool: GateTool, nonInteractiveReason: string | undefined): GateDecision {
  if (tool.builtinReadOnly) return { action: 'run', reason: 'built-in read-only tool' };
  if (tool.readOnlyHint === true && tool.trustAnnotations) return { action: 'run', reason: 'the server marks the tool read-only (readOnlyHint: true)' };
  const why =
    tool.readOnlyHint === true
      ? 'the skill sets trust_annotations = false, so the server\'s readOnlyHint is not trusted'
      : 'the tool is not marked read-only';
  if (nonInteractiveReason !== undefined) return { action: 'refuse', reason: `${why} and approval cannot be asked: ${nonInteractiveReason}` };
  return { action: 'ask', reason: why };
}

/** What makes a session non-interactive, as seen by the CLI at start-up. */
export interface SessionFacts {
  env: Readonly<Record<string, string | undefined>>;
  json: boolean;
  stdinIsTTY: boolean;
  stderrIsTTY: boolean;
}

/**
 * Why no human can be asked, or undefined when one can. CI counts when set to anything but "false"
 * or "0" — an empty CI= too: when in doubt, the gate refuses rather than waits for a person.
 */
export function nonInteractiveReason(facts: SessionFacts): string | undefined {
  const ci = facts.env.CI;
  if (ci !== undefined && !/^(false|0)$/i.test(ci.trim())) return `CI is set (CI=${ci.slice(0, 20)})`;
  if (facts.json) return '--json was given';
  if (!facts.stdinIsTTY) return 'stdin is not a terminal';
  if (!facts.stderrIsTTY) return 'stderr is not a terminal';
  return undefined;
}
