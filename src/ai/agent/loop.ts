// The one agent loop every AI command uses: send the conversation, run the model's tool calls
// through the approval gate (src/ai/approval decides, never this file), cap what a tool returns,
// feed results back, stop at a final answer or after max_rounds, and record everything in the
// session. Commands choose only the system prompt, the tools and what to do with an answer.
// max_rounds counts answers (drafts), not requests: a model that looks things up with three tool
// calls before its first draft has not used three of its tries. Tool rounds have their own cap, so
// a model that only ever calls tools still ends.
import { callThroughGate, type Approver, type CallRecord } from '../tools/call.js';
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

/** Requests that end in tool calls, at most, per command (on top of max_rounds answers). */
const DEFAULT_MAX_TOOL_ROUNDS = 12;

/** What the loop tells its caller while it works (the command line shows it; --json shows none). */
export interface AgentEvents {
  /** A request is about to be sent (round counts requests); `usage` is the total so far. */
  onRequest?(round: number, usage: Usage): void;
  /** The response of that request is complete. */
  onResponse?(round: number, usage: Usage): void;
  /** A tool call is about to go through the gate (it may ask the human). */
  onToolCall?(call: { name: string; args: Record<string, unknown> }): void;
  /** The call's outcome: run, approved, or refused (and why). */
  onToolResult?(record: CallRecord): void;
}

/** What a command does with a final answer: accept it, or send feedback for another round. */
export type AnswerVerdict = { accept: true } | { accept: false; feedback: string };

export interface AgentInput {
  system: string;
  user: string;
  provider: ChatProvider;
  tools: ToolSet;
  approver: Approver;
  /** How many answers (drafts) the model may give. */
  maxRounds: number;
  /** How many requests may end in tool calls (default DEFAULT_MAX_TOOL_ROUNDS). */
  maxToolRounds?: number;
  stream: boolean;
  /** Each text fragment as it arrives (the review streams to the terminal). */
  onText?: (delta: string) => void;
  /** Called at the start of each round after the first (e.g. to print a separator). */
  onRound?: (round: number) => void;
  signal?: AbortSignal;
  session: SessionRecord;
  toolResultCap?: number;
  /** `answer` counts the answers so far (1 for the first draft). */
  judge?: (text: string, answer: number) => Promise<AnswerVerdict> | AnswerVerdict;
  events?: AgentEvents;
}

export type AgentOutcome =
  | ({ status: 'answered' } & Tally)
  | ({ status: 'round_limit'; limit: 'answers' | 'tool_rounds' } & Tally)
  | ({ status: 'error'; error: ProviderError } & Tally);

/** rounds: requests sent; answers: of those, the ones that ended without a tool call. */
interface Tally {
  text: string;
  rounds: number;
  answers: number;
  usage: Usage;
  answeredBy: string;
}

export async function runAgent(input: AgentInput): Promise<AgentOutcome> {
  const specs: ToolSpec[] = input.tools.tools.filter((t) => t.callable).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const cap = input.toolResultCap ?? DEFAULT_TOOL_RESULT_CAP;
  const messages: ChatMessage[] = [{ role: 'user', content: input.user }];
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const session = input.session;
  let text = '';
  let answeredBy = `${input.provider.kind}/${input.provider.model}`;
  const maxToolRounds = input.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const events = input.events ?? {};
  let answers = 0;
  let toolRounds = 0;
  for (let round = 1; ; round++) {
    if (round > 1) input.onRound?.(round);
    events.onRequest?.(round, { ...usage });
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
      events.onResponse?.(round, { ...usage });
      const error = asProviderError(err, input.signal);
      return { status: 'error', error, text, rounds: round, answers, usage, answeredBy };
    }
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    events.onResponse?.(round, { ...usage });
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
        events.onToolCall?.({ name: call.name, args: call.arguments });
        const record: CallRecord = call.argumentsError
          ? { tool: call.name, origin: undefined, args: {}, decision: 'refused' as const, reason: call.argumentsError, output: { isError: true, text: `call not run: ${call.argumentsError}` } }
          : await callThroughGate(input.tools, call.name, call.arguments, input.approver);
        events.onToolResult?.(record);
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
      toolRounds++;
      if (toolRounds >= maxToolRounds) return { status: 'round_limit', limit: 'tool_rounds', text, rounds: round, answers, usage, answeredBy };
      continue;
    }
    answers++;
    if (input.judge === undefined) return { status: 'answered', text, rounds: round, answers, usage, answeredBy };
    const verdict = await input.judge(response.text, answers);
    if (verdict.accept) return { status: 'answered', text, rounds: round, answers, usage, answeredBy };
    if (answers >= input.maxRounds) return { status: 'round_limit', limit: 'answers', text, rounds: round, answers, usage, answeredBy };
    messages.push({ role: 'user', content: verdict.feedback });
  }
}
