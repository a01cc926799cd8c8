// What an AI command shows on stderr while the model works (human mode only; --json shows none of
// it): a spinner with the elapsed time, and the tokens so far when the provider has said, while a
// request is out (on a terminal only: it redraws one line); and each tool call as it runs, with its
// outcome (in any human output, CI logs included, so a refused call always leaves a trace).
import type { AgentEvents } from '../ai/agent/loop.js';
import type { CallRecord } from '../ai/tools/call.js';
import type { Style } from './style.js';
import { terminalSafeLine } from './terminal-safe.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 120;
const MAX_ARGS_IN_LINE = 100;

export interface AiActivity {
  events: AgentEvents;
  /** Stop the spinner before other text is written (streamed model text, a status line). */
  pause(): void;
  /** A status line, written after the spinner is cleared. */
  line(text: string): void;
  /** Name who is thinking, once the provider is known. */
  setWho(who: string): void;
}

export interface ActivityOptions {
  write: (text: string) => void;
  style: Style;
  /** stderr is a terminal: the spinner may redraw its line. */
  terminal: boolean;
  /** Who is thinking ("openai/gpt-4o"). */
  who: string;
  now?: () => number;
}

/** `{"gene":"BRCA1"}` cut to one short line. */
function argsInLine(args: Record<string, unknown>): string {
  const text = terminalSafeLine(JSON.stringify(args));
  return text.length > MAX_ARGS_IN_LINE ? `${text.slice(0, MAX_ARGS_IN_LINE - 1)}…` : text;
}

export function aiActivity(options: ActivityOptions): AiActivity {
  const { write, style } = options;
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setInterval> | undefined;
  let shown = false;
  let started = 0;
  let tokens = 0;
  let frame = 0;
  let who = options.who;

  const draw = () => {
    const seconds = ((now() - started) / 1000).toFixed(1);
    const parts = [`${FRAMES[frame++ % FRAMES.length]} ${terminalSafeLine(who)} is thinking`, `${seconds} s`, ...(tokens > 0 ? [`${tokens} tokens so far`] : [])];
    write(`\r\u001b[K${style.dim(parts.join(' · '))}`);
    shown = true;
  };
  const pause = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    if (shown) write('\r\u001b[K');
    shown = false;
  };
  const line = (text: string) => {
    pause();
    write(`${text}\n`);
  };
  const result = (r: CallRecord): string => {
    if (r.decision === 'refused') {
      const code = r.refusal?.code ?? r.output.code;
      return style.yellow(`    ✗ refused${code ? ` (${code})` : ''}: ${terminalSafeLine(r.reason)}`);
    }
    const how = r.decision === 'approved' ? 'approved, ' : '';
    return style.dim(`    ${r.output.isError ? '! error' : '✓ done'} (${how}${r.output.text.length} characters back)`);
  };

  const events: AgentEvents = {
    onRequest: (_round, usage) => {
      tokens = usage.inputTokens + usage.outputTokens;
      if (!options.terminal) return;
      pause();
      started = now();
      draw();
      timer = setInterval(draw, FRAME_MS);
      // A spinner never keeps the process alive on its own.
      timer.unref?.();
    },
    onResponse: () => pause(),
    onToolCall: (call) => line(style.dim(`  → ${terminalSafeLine(call.name)} ${argsInLine(call.args)}`)),
    onToolResult: (record) => line(result(record)),
  };
  return { events, pause, line, setWho: (w) => (who = w) };
}
