// Run one command line inside the test process (src/cli/main.ts runCommandLine) with captured
// stdout/stderr, a given working directory and environment, and no terminal. The same path as the
// built CLI from the command table to the one exit point, without a process start per case; fixture
// servers living in the test process keep being served while the command awaits them. Most CLI
// behaviour tests use this; the end-to-end tests (run-cli.ts, mcp-cli.ts) run the built CLI.
import { PassThrough } from 'node:stream';
import { runCommandLine } from '../../src/cli/main.js';
import { childEnv } from './run-cli.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Same options and environment as runCli (the test's environment, NO_COLOR=1, plus `env`), in-process. */
export async function runInProcess(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const code = await runCommandLine(['node', 'oxo-flow', ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: childEnv(options.env),
    stdout: { write: (t) => void (stdout += t) },
    stderr: { write: (t) => void (stderr += t) },
    isTerminal: () => false,
    stdin,
    prompt: new PassThrough(),
  });
  return { code, stdout, stderr };
}

export async function runInProcessJson(args: string[], options: Parameters<typeof runInProcess>[1] = {}): Promise<InProcessRun & { json: Record<string, unknown> }> {
  const r = await runInProcess(['--json', ...args], options);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}
