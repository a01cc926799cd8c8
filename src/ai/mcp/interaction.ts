// What the person at the terminal gets from MCP servers while calls run: progress on stderr
// always, and the server's questions (elicitation) only when someone can answer them (no --json,
// no CI, terminals on stdin and stderr); otherwise the client does not offer elicitation at all.
import type { McpInteraction } from './bridge.js';
import { terminalElicitor } from './elicit.js';
import { progressView } from './progress-view.js';

export function mcpInteraction(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; outputIsTTY: boolean; person: boolean }): McpInteraction {
  return {
    progress: progressView(io.output, io.outputIsTTY),
    ...(io.person ? { elicit: terminalElicitor({ input: io.input, output: io.output }) } : {}),
  };
}
