// The one agent loop every AI command uses: send the conversation, run the model's tool calls
// through the approval gate (src/ai/approval decides, never this file), cap what a tool returns,
// feed results back, stop at a final answer or after max_rounds, and record everything in the
// session. Commands choose only the system prompt, the tools and what to do with an answer.
import { callThroughGate, type Approver } from '../tools/call.js';
import type { ToolEntry } from '../tools/types.js';
import { ProviderError } from '../providers/errors.js';
import { asProviderError } from '../providers/retry.js';
import type { ChatMessage, ChatProvider, ToolSpec, Usage } from '../providers/types.js';
import type { SessionRecord } from '../sessions/record.js';

/** What the model receives of one tool result at most; the rest is cut with a note. */
const DEFAULT_TOOL_RESULT_CAP = 16 * 1024;

export interface ToolSet {
  tools: ToolEntry[];
  find(name: string): ToolEntry | undefined;
}

/** What a command does with a final answer: accept it, or send feedback for another round. */
export type AnswerVerdict = { accept: true } | { accept: false; feedback: string };

export interface AgentInput {
  system: string;
  user: string;
  provider: ChatProvider;
  tools: ToolSet;
  approver: Approver;
  maxRounds: number;
  stream: boolean;
  /** Each text fragment as it arrives (the review streams to the terminal). */
  onText?: (delta: string) => void;
  /** Called at the start of each round after the first (e.g. to print a separator). */
  onRound?: (round: number) => void;
  signal?: AbortSignal;
  session: SessionRecord;
  toolResultCap?: number;
  judge?: (text: string, round: number) => Promise<AnswerVerdict> | AnswerVerdict;
}

export type AgentOutcome =
  | { status: 'answered'; text: string; rounds: number; usage: Usage; answeredBy: string }
  | { status: 'round_limit'; text: string; rounds: number; usage: Usage; answeredBy: string }
  | { status: 'error'; error: ProviderError; text: string; rounds: number; usage: Usage; answeredBy: string };

export async function runAgent(input: AgentInput): Promise<AgentOutcome> {
  const specs: ToolSpec[] = input.tools.tools.filter((t) => t.callable).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const cap = input.toolResultCap ?? DEFAULT_TOOL_RESULT_CAP;
  const messages: ChatMessage[] = [{ role: 'user', content: input.user }];
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const session = input.session;
  let text = '';
  let answeredBy = `${input.provider.kind}/${input.provider.model}`;
  for (let round = 1; round <= input.maxRounds; round++) {
    if (round > 1) input.onRound?.(round);
    const started = Date.now();
    let response;
    try {
      response = await input.provider.chat({
        system: input.system,
        messages,
        tools: specs,
        stream: input.stream,
        ...(input.onText ? { onText: input.onText } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      if (response.stopReason === 'max_tokens' && response.toolCalls.length === 0) {
        throw new ProviderError('output_limit', `the answer of ${response.provider}/${response.model} stopped at the output token limit`);
      }
    } catch (err) {
      const error = asProviderError(err, input.signal);
      return { status: 'error', error, text, rounds: round, usage, answeredBy };
    }
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    answeredBy = `${response.provider}/${response.model}`;
    text = response.text;
    session.rounds.push({
      round,
      duration_ms: Date.now() - started,
      stop_reason: response.stopReason,
      usage: { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens },
      text_chars: response.text.length,
      tool_calls: response.toolCalls.length,
      answered_by: answeredBy,
    });
    messages.push({ role: 'assistant', content: response.text, ...(response.toolCalls.length > 0 ? { toolCalls: response.toolCalls } : {}), ...(response.reasoning !== undefined ? { reasoning: response.reasoning } : {}) });

    if (response.toolCalls.length > 0) {
      // Calls run one after another: each may need a human's answer at the prompt.
      for (const call of response.toolCalls) {
        const callStarted = Date.now();
        const record = call.argumentsError
          ? { tool: call.name, origin: undefined, args: {}, decision: 'refused' as const, reason: call.argumentsError, output: { isError: true, text: `call not run: ${call.argumentsError}` } }
          : await callThroughGate(input.tools, call.name, call.arguments, input.approver);
        const full = record.output.text;
        const truncated = full.length > cap;
        const shown = truncated ? `${full.slice(0, cap)}\n… [cut: ${full.length - cap} more characters not shown]` : full;
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: shown, isError: record.output.isError });
        session.tool_calls.push({
          round,
          tool: call.name,
          origin: record.origin === undefined ? 'unknown' : record.origin.kind === 'mcp' ? `mcp:${record.origin.server}` : 'builtin',
          args: record.args,
          decision: record.decision,
          reason: record.reason,
          is_error: record.output.isError,
          ...('code' in record.output && record.output.code !== undefined ? { code: record.output.code } : {}),
          result_chars: full.length,
          truncated,
          duration_ms: Date.now() - callStarted,
        });
      }
      continue;
    }
    if (input.judge === undefined) return { status: 'answered', text, rounds: round, usage, answeredBy };
    const verdict = await input.judge(response.text, round);
    if (verdict.accept) return { status: 'answered', text, rounds: round, usage, answeredBy };
    messages.push({ role: 'user', content: verdict.feedback });
  }
  return { status: 'round_limit', text, rounds: input.maxRounds, usage, answeredBy };
}
