// The terminal side of the gate: show what is about to run and ask `Allow execution? [y/N] ` on
// stderr. Only "y" or "yes" approves; anything else, EOF or Ctrl-C refuses (Ctrl-C refuses this
// call, it does not kill the process mid-state).
import { createInterface } from 'node:readline';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { terminalSafe, terminalSafeLine } from '../../cli/terminal-safe.js';
import { maskUrl } from '../secrets.js';

export const APPROVAL_PROMPT = 'Allow execution? [y/N] ';

export interface ApprovalRequest {
  /** Exposed tool name (what the model called). */
  tool: string;
  /** For MCP tools: the server alias and URL (shown without credentials), and the raw tool name. */
  server?: { name: string; url: string; rawTool: string };
  annotations: Record<string, unknown>;
  args: Record<string, unknown>;
  reason: string;
}

export type PromptAnswer = 'yes' | 'no' | 'eof' | 'interrupt';

const MAX_ARGS_SHOWN = 4_000;

// Text a server or the model chose (names, titles, arguments) is shown with its control and bidi
// characters as visible escapes, so what the user approves is what they read.
const printable = terminalSafeLine;

/** The block printed above the prompt. Arguments are JSON (control characters escaped). */
export function renderApprovalRequest(r: ApprovalRequest): string {
  const lines = ['', 'A tool call needs your approval:'];
  if (r.server) {
    lines.push(`  server:      ${printable(r.server.name)} (${printable(maskUrl(r.server.url))})`);
    lines.push(`  tool:        ${printable(r.server.rawTool)} (as ${r.tool})`);
  } else {
    lines.push(`  tool:        ${printable(r.tool)}`);
  }
  const notes = Object.entries(r.annotations)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${printable(k)}=${printable(typeof v === 'string' ? JSON.stringify(v) : String(v))}`);
  lines.push(`  annotations: ${notes.length > 0 ? notes.join(', ') : 'none (treated as not read-only, destructive)'}`);
  let args = JSON.stringify(r.args, null, 2);
  if (args.length > MAX_ARGS_SHOWN) args = `${args.slice(0, MAX_ARGS_SHOWN)}\n… (${args.length - MAX_ARGS_SHOWN} more characters not shown)`;
  // JSON already escapes C0 controls; C1 and bidi characters it leaves as they are.
  lines.push(`  arguments:   ${terminalSafe(args).split('\n').join('\n               ')}`);
  lines.push(`  why asked:   ${printable(r.reason)}`);
  return `${lines.join('\n')}\n`;
}

export function isApproval(answer: string): boolean {
  return /^(y|yes)$/i.test(answer.trim());
}

type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/**
 * Throw away what was typed before the question was asked (`y⏎` pressed while a server was
 * connecting must not answer it). Raw mode makes a half-typed line readable too; one turn of the
 * event loop polls the terminal, so everything already waiting is read and dropped, and nothing
 * typed after the prompt appears can be (the prompt is printed after this returns).
 */
async function discardPendingInput(input: TerminalInput): Promise<void> {
  if (!input.isTTY) return;
  const drop = () => {};
  input.setRawMode?.(true);
  input.on('data', drop);
  input.resume();
  await nextTurn();
  await nextTurn();
  input.removeListener('data', drop);
  input.pause();
  input.setRawMode?.(false);
}

/** Ask once on a terminal. Never rejects. */
export async function askApproval(
  request: ApprovalRequest,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<PromptAnswer> {
  await discardPendingInput(io.input as TerminalInput);
  io.output.write(renderApprovalRequest(request));
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.input, output: io.output, terminal: Boolean((io.input as { isTTY?: boolean }).isTTY) });
    let settled = false;
    const done = (answer: PromptAnswer) => {
      if (settled) return;
      settled = true;
      rl.close();
      if (answer !== 'yes' && answer !== 'no') io.output.write('\n');
      resolve(answer);
    };
    // readline keeps the terminal in raw mode, so Ctrl-C arrives here instead of killing us.
    rl.on('SIGINT', () => done('interrupt'));
    rl.on('close', () => done('eof'));
    rl.question(APPROVAL_PROMPT, (line) => done(isApproval(line) ? 'yes' : 'no'));
  });
}
