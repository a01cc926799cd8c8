// The terminal side of the gate: show what is about to run and ask `Allow execution? [y/N] ` on
// stderr. Only "y" or "yes" approves; anything else, EOF or Ctrl-C refuses (Ctrl-C refuses this
// call, it does not kill the process mid-state).
import { createInterface } from 'node:readline';

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

/** Strip terminal control sequences from text a server chose (titles, names). */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '?');
}

/** The block printed above the prompt. Arguments are JSON (control characters escaped). */
export function renderApprovalRequest(r: ApprovalRequest): string {
  const lines = ['', 'A tool call needs your approval:'];
  if (r.server) {
    lines.push(`  server:      ${printable(r.server.name)} (${printable(r.server.url)})`);
    lines.push(`  tool:        ${printable(r.server.rawTool)} (as ${r.tool})`);
  } else {
    lines.push(`  tool:        ${r.tool}`);
  }
  const notes = Object.entries(r.annotations)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${printable(k)}=${printable(typeof v === 'string' ? JSON.stringify(v) : String(v))}`);
  lines.push(`  annotations: ${notes.length > 0 ? notes.join(', ') : 'none (treated as not read-only, destructive)'}`);
  let args = JSON.stringify(r.args, null, 2);
  if (args.length > MAX_ARGS_SHOWN) args = `${args.slice(0, MAX_ARGS_SHOWN)}\n… (${args.length - MAX_ARGS_SHOWN} more characters not shown)`;
  lines.push(`  arguments:   ${args.split('\n').join('\n               ')}`);
  lines.push(`  why asked:   ${r.reason}`);
  return `${lines.join('\n')}\n`;
}

export function isApproval(answer: string): boolean {
  return /^(y|yes)$/i.test(answer.trim());
}

/** Ask once on a terminal. Never rejects. */
export function askApproval(
  request: ApprovalRequest,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<PromptAnswer> {
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
