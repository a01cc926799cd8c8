// Progress notifications of MCP tool calls, shown to the person on stderr (never on stdout, so
// `--json` and piped results stay clean): `  server · tool: 3/10 (30%) message`. On a terminal the
// line is rewritten in place; elsewhere (logs) at most one line a second, and the last one always.
import { terminalSafeLine } from '../../cli/terminal-safe.js';
import type { Progress } from './jsonrpc.js';

const LOG_INTERVAL_MS = 1_000;
const MAX_MESSAGE = 160;

export function progressLine(server: string, tool: string, p: Progress): string {
  const amount = p.total !== undefined && p.total > 0 ? `${p.progress}/${p.total} (${Math.min(100, Math.round((p.progress / p.total) * 100))}%)` : `${p.progress}`;
  const message = p.message !== undefined && p.message.trim() !== '' ? ` ${terminalSafeLine(p.message.trim()).slice(0, MAX_MESSAGE)}` : '';
  return `  ${terminalSafeLine(server)} · ${terminalSafeLine(tool)}: ${amount}${message}`;
}

export interface ProgressView {
  show(server: string, tool: string, p: Progress): void;
  /** The call ended: finish the line in place (terminal) or print the last unshown one (logs). */
  done(): void;
}

export function progressView(output: NodeJS.WritableStream, isTTY: boolean, now: () => number = Date.now): ProgressView {
  let shownAt = Number.NEGATIVE_INFINITY;
  let pending: string | undefined;
  let open = false;
  return {
    show(server, tool, p) {
      const line = progressLine(server, tool, p);
      if (isTTY) {
        output.write(`\r\u001b[2K${line}`);
        open = true;
        return;
      }
      if (now() - shownAt >= LOG_INTERVAL_MS) {
        output.write(`${line}\n`);
        shownAt = now();
        pending = undefined;
      } else pending = line;
    },
    done() {
      if (open) output.write('\n');
      else if (pending !== undefined) output.write(`${pending}\n`);
      open = false;
      pending = undefined;
    },
  };
}
