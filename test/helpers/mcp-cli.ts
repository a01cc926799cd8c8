// Run the built CLI as an asynchronous subprocess (the MCP fixture servers live in the test
// process, so a blocking spawnSync would starve them), and inside a real pseudo-terminal via
// util-linux `script`, answering the approval prompt once it appears.
import { spawn } from 'node:child_process';
import { CLI, childEnv } from './run-cli.js';

export interface AsyncRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Only a hung process is killed, never a slow one: on a busy 2-core host a CLI run that takes 30 s is
 * slow, not broken (a 30 s limit here once failed an ai call test on such a host).
 */
const SAFETY_NET_MS = 240_000;

/** CI is removed (unless a test sets it) so that the approval prompt can be reached. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return childEnv({ CI: undefined, ...extra });
}

export function runCliAsync(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<AsyncRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? process.cwd(), env: cleanEnv(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? SAFETY_NET_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface PtyRun {
  code: number | null;
  /** Everything the terminal showed (stdout and stderr of the CLI, merged by the pty). */
  screen: string;
  /** Whether the prompt appeared before the answer was sent. */
  prompted: boolean;
}

/**
 * Run the CLI under `script -q -c` so its stdin/stdout/stderr are a real terminal. When the
 * approval prompt appears, write `answer` (raw bytes: "y\r", "\x03" for Ctrl-C, "\x04" for EOF).
 * `redirect` is appended to the shell command (e.g. "2>/tmp/file" to make stderr a file).
 */
export function runCliInPty(
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    answer?: string;
    redirect?: string;
    timeoutMs?: number;
    /** Keys typed at once, before anything is asked (as if pressed while a server was connecting). */
    early?: string;
    /** Called with the whole screen each time more of it arrives. */
    onScreen?: (screen: string) => void;
  } = {},
): Promise<PtyRun> {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ') + (options.redirect ? ` ${options.redirect}` : '');
  return new Promise((resolve) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: options.cwd ?? process.cwd(), env: cleanEnv(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let prompted = false;
    if (options.early !== undefined) child.stdin.write(options.early);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      screen += d;
      options.onScreen?.(screen);
      if (!prompted && screen.includes('Allow execution? [y]es / [N]o / [a]lways for this tool in this command: ')) {
        prompted = true;
        if (options.answer !== undefined) child.stdin.write(options.answer);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (screen += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? SAFETY_NET_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen, prompted });
    });
  });
}
