// One tool call through the approval gate, exactly as the model's calls go: refresh the tool's
// description, decide (run / ask / refuse), ask a human if needed, run, and report the decision.
import { decideGate } from '../approval/policy.js';
import type { ApprovalRequest, PromptAnswer } from '../approval/prompt.js';
import type { Code } from '../../diagnostics/registry.js';
import { failureInfo, type ToolRegistry } from './registry.js';
import type { ToolEntry, ToolOutput } from './types.js';

export interface Approver {
  /** Why no human can be asked (CI, --json, no terminal), or undefined when one can. */
  nonInteractiveReason: string | undefined;
  ask(request: ApprovalRequest): Promise<PromptAnswer>;
  /**
   * Tools the human answered `always` for at an earlier prompt of this command (filled here, by
   * such an answer only: no flag, file or variable can add to it). Without it, `always` approves
   * only the call at hand.
   */
  allowed?: Set<string>;
}

export type Decision = 'auto' | 'approved' | 'refused';

export interface CallRecord {
  tool: string;
  origin: ToolEntry['origin'] | undefined;
  args: Record<string, unknown>;
  decision: Decision;
  reason: string;
  /** What the model receives: the tool's output, or a tool error saying why nothing ran. */
  output: ToolOutput;
  /** For refusals: APR001 (nobody to ask) or APR002 (the human said no). */
  refusal?: { code: Code; answer?: PromptAnswer };
}

const answerText: Record<PromptAnswer, string> = {
  yes: 'approved at the prompt',
  always: 'approved at the prompt for the rest of this command',
  unshowable: 'the arguments are too long to show in full, so approval was not asked',
  no: 'the human answered no at the prompt',
  eof: 'the prompt got end of input (EOF)',
  interrupt: 'the prompt was interrupted (Ctrl-C)',
};

export async function callThroughGate(registry: Pick<ToolRegistry, 'find'>, name: string, args: Record<string, unknown>, approver: Approver): Promise<CallRecord> {
  const listed = registry.find(name);
  if (listed === undefined) {
    return { tool: name, origin: undefined, args, decision: 'refused', reason: 'unknown tool', output: { isError: true, text: `unknown tool ${name}`, code: 'TOOL001' } };
  }
  let entry: ToolEntry | undefined;
  try {
    entry = listed.refresh ? await listed.refresh() : listed;
  } catch (err) {
    const info = failureInfo(err);
    return { tool: name, origin: listed.origin, args, decision: 'refused', reason: 'the tool list could not be refreshed', output: { isError: true, text: info.message, code: info.code } };
  }
  if (entry === undefined) {
    const text = `tool ${name} is no longer offered by its server (the tool list changed)`;
    return { tool: name, origin: listed.origin, args, decision: 'refused', reason: text, output: { isError: true, text, code: 'TOOL001' } };
  }
  if (!entry.callable) {
    const text = `tool ${name} requires task-augmented execution, which this client does not support`;
    return { tool: name, origin: entry.origin, args, decision: 'refused', reason: text, output: { isError: true, text, code: 'TOOL005' } };
  }
  const gate = decideGate(entry.gate, approver.nonInteractiveReason);
  if (gate.action === 'refuse') {
    const text = `call refused: ${gate.reason}`;
    return { tool: name, origin: entry.origin, args, decision: 'refused', reason: gate.reason, output: { isError: true, text, code: 'APR001' }, refusal: { code: 'APR001' } };
  }
  let decision: Decision = 'auto';
  let reason = gate.reason;
  if (gate.action === 'ask') {
    const key = entry.origin.kind === 'mcp' ? `mcp:${entry.origin.server}:${entry.origin.rawName}` : `builtin:${entry.name}`;
    if (approver.allowed?.has(key)) {
      decision = 'approved';
      reason = 'allowed for the rest of this command at an earlier prompt ("always")';
    } else {
      // The server line names the server; the description is shown as the server wrote it.
      const prefix = entry.origin.kind === 'mcp' ? `[MCP: ${entry.origin.server}] ` : '';
      const description = prefix !== '' && entry.description.startsWith(prefix) ? entry.description.slice(prefix.length) : entry.description;
      const request: ApprovalRequest = { tool: entry.name, description, annotations: entry.annotations, args, reason: gate.reason };
      if (entry.origin.kind === 'mcp') request.server = { name: entry.origin.server, url: entry.origin.url, rawTool: entry.origin.rawName };
      const answer = await approver.ask(request);
      if (answer !== 'yes' && answer !== 'always') {
        const text = `call refused: ${answerText[answer]}`;
        return { tool: name, origin: entry.origin, args, decision: 'refused', reason: answerText[answer], output: { isError: true, text, code: 'APR002' }, refusal: { code: 'APR002', answer } };
      }
      if (answer === 'always') approver.allowed?.add(key);
      decision = 'approved';
      reason = answerText[answer];
    }
  }
  const output = await entry.invoke(args);
  return { tool: name, origin: entry.origin, args, decision, reason, output };
}
