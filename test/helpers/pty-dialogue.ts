// Drive the built CLI through a dialogue on a real pseudo-terminal (util-linux `script`): each step
// waits until its text has appeared on the screen (after the previous step's), then types its keys.
// Nothing here depends on timing; a safety net kills only a hung process.
import { spawn } from 'node:child_process';
import { CLI, childEnv } from './run-cli.js';

export interface PtyStep {
  /** Text that must appear on the screen (after the previous step's) before `send` is typed. */
  waitFor: string;
  /** Raw keys: "\r" Enter, "\x1b[B" arrow down, "\x03" Ctrl-C. */
  send: string;
}

export interface PtyDialogue {
  code: number | null;
  /** Everything the terminal showed, escape sequences included. */
  screen: string;
  /** How many steps found their text and typed their keys. */
  stepsDone: number;
}

const SAFETY_NET_MS = 240_000;

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function runCliDialogue(args: string[], steps: readonly PtyStep[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<PtyDialogue> {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
  return new Promise((resolve) => {
    // CI is removed so that the CLI may ask (a set CI makes every prompt refuse).
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: options.cwd ?? process.cwd(), env: childEnv({ CI: undefined, ...options.env }), stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let from = 0;
    let stepsDone = 0;
    const advance = () => {
      while (stepsDone < steps.length) {
        const step = steps[stepsDone]!;
        const at = screen.indexOf(step.waitFor, from);
        if (at === -1) return;
        from = at + step.waitFor.length;
        stepsDone++;
        child.stdin.write(step.send);
      }
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      screen += d;
      advance();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (screen += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), SAFETY_NET_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen, stepsDone });
    });
  });
}
