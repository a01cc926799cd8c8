// The terminal side of the gate: show what is about to run (server, tool, description,
// annotations, every byte of the arguments) and ask on stderr
// `Allow execution? [y]es / [N]o / [a]lways for this tool in this command: `.
// "y"/"yes" approves this call, "a"/"always" this call and every later call of the same tool in
// this command; anything else, EOF or Ctrl-C refuses (Ctrl-C refuses this call, it does not kill
// the process mid-state). Long arguments are shown page by page: the human approves only after
// reading all of them, and arguments too long to page through are refused without asking.
import { createInterface, type Interface } from 'node:readline';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { terminalSafe, terminalSafeLine } from '../../cli/terminal-safe.js';
import { maskUrl } from '../secrets.js';

export const APPROVAL_PROMPT = 'Allow execution? [y]es / [N]o / [a]lways for this tool in this command: ';
export const MORE_PROMPT = 'Enter: next page · n: refuse ';

export interface ApprovalRequest {
  /** Exposed tool name (what the model called). */
  tool: string;
  /** For MCP tools: the server alias and URL (shown without credentials), and the raw tool name. */
  server?: { name: string; url: string; rawTool: string };
  /** The tool's description as its server (or oxo-flow) gives it. */
  description?: string;
  annotations: Record<string, unknown>;
  args: Record<string, unknown>;
  reason: string;
}

/** `always`: approved, and the same tool runs without asking for the rest of this command. */
export type PromptAnswer = 'yes' | 'always' | 'no' | 'eof' | 'interrupt' | 'unshowable';

/** Lines of arguments per page, and the width a line is wrapped at (so a page fits a screen). */
export const PAGE_LINES = 40;
const WRAP = 100;
/** Arguments longer than this (as JSON) are not paged through: the call is refused unasked. */
export const MAX_ARGS_SHOWN = 200_000;
const INDENT = '               ';

// Text a server or the model chose (names, titles, arguments) is shown with its control and bidi
// characters as visible escapes, so what the user approves is what they read.
const printable = terminalSafeLine;

/** The lines above the arguments: what runs, where, and why a human is asked. */
function headLines(r: ApprovalRequest): string[] {
  const lines = ['', 'A tool call needs your approval:'];
  if (r.server) {
    lines.push(`  server:      ${printable(r.server.name)} (${printable(maskUrl(r.server.url))})`);
    lines.push(`  tool:        ${printable(r.server.rawTool)} (as ${r.tool})`);
  } else {
    lines.push(`  tool:        ${printable(r.tool)}`);
  }
  if (r.description !== undefined && r.description.trim() !== '') {
    const text = printable(r.description.trim());
    lines.push(`  description: ${wrap(text, WRAP).join(`\n${INDENT}`)}`);
  }
  const notes = Object.entries(r.annotations)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${printable(k)}=${printable(typeof v === 'string' ? JSON.stringify(v) : String(v))}`);
  lines.push(`  annotations: ${notes.length > 0 ? notes.join(', ') : 'none (treated as not read-only, destructive)'}`);
  lines.push(`  why asked:   ${printable(r.reason)}`);
  return lines;
}

function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  for (let i = 0; i < line.length; i += width) out.push(line.slice(i, i + width));
  return out;
}

/** The arguments as JSON, every character kept, wrapped to screen lines. */
function argumentLines(args: Record<string, unknown>): string[] {
  // JSON escapes C0 controls; C1 and bidi characters it leaves as they are.
  return terminalSafe(JSON.stringify(args, null, 2)).split('\n').flatMap((l) => wrap(l, WRAP));
}

/** The whole block (all argument lines, no paging): what a short request shows above the prompt. */
export function renderApprovalRequest(r: ApprovalRequest): string {
  const args = argumentLines(r.args);
  return `${[...headLines(r), `  arguments:   ${args.join(`\n${INDENT}`)}`].join('\n')}\n`;
}

export function isApproval(answer: string): boolean {
  return /^(y|yes)$/i.test(answer.trim());
}

export function isAlways(answer: string): boolean {
  return /^(a|always)$/i.test(answer.trim());
}

type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/**
 * Throw away what was typed before the question was asked (`y⏎` pressed while a server was
 * connecting must not answer it). Raw mode makes a half-typed line readable too; one turn of the
 * event loop polls the terminal, so everything already waiting is read and dropped, and nothing
 * typed after the prompt appears can be (the prompt is printed after this returns).
 */
export async function discardPendingInput(input: TerminalInput): Promise<void> {
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

/** One question on an open readline; EOF and Ctrl-C settle it too. */
export function question(rl: Interface, text: string): Promise<{ line: string } | { end: 'eof' | 'interrupt' }> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: { line: string } | { end: 'eof' | 'interrupt' }) => {
      if (settled) return;
      settled = true;
      rl.removeListener('SIGINT', onInt);
      rl.removeListener('close', onClose);
      resolve(v);
    };
    const onInt = () => done({ end: 'interrupt' });
    const onClose = () => done({ end: 'eof' });
    // readline keeps the terminal in raw mode, so Ctrl-C arrives here instead of killing us.
    rl.on('SIGINT', onInt);
    rl.on('close', onClose);
    rl.question(text, (line) => done({ line }));
  });
}

/** Ask once on a terminal. Never rejects. */
export async function askApproval(
  request: ApprovalRequest,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<PromptAnswer> {
  const json = JSON.stringify(request.args, null, 2);
  if (json.length > MAX_ARGS_SHOWN) {
    io.output.write(`${headLines(request).join('\n')}\n  arguments:   ${json.length} characters, too long to show in full: refused without asking\n`);
    return 'unshowable';
  }
  await discardPendingInput(io.input as TerminalInput);
  const args = argumentLines(request.args);
  io.output.write(`${headLines(request).join('\n')}\n`);
  const rl = createInterface({ input: io.input, output: io.output, terminal: Boolean((io.input as { isTTY?: boolean }).isTTY) });
  try {
    for (let from = 0; ; from += PAGE_LINES) {
      const page = args.slice(from, from + PAGE_LINES);
      const label = from === 0 ? '  arguments:   ' : INDENT;
      io.output.write(`${label}${page.join(`\n${INDENT}`)}\n`);
      if (from + PAGE_LINES >= args.length) break;
      const shownTo = Math.min(from + PAGE_LINES, args.length);
      const more = await question(rl, `  -- arguments: lines 1-${shownTo} of ${args.length}; ${MORE_PROMPT}`);
      if ('end' in more) return ended(io, more.end);
      if (more.line.trim() !== '') return 'no';
    }
    const answer = await question(rl, APPROVAL_PROMPT);
    if ('end' in answer) return ended(io, answer.end);
    return isApproval(answer.line) ? 'yes' : isAlways(answer.line) ? 'always' : 'no';
  } finally {
    rl.close();
  }
}

function ended(io: { output: NodeJS.WritableStream }, how: 'eof' | 'interrupt'): PromptAnswer {
  io.output.write('\n');
  return how;
}
