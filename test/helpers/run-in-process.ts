// Run one command line inside the test process (src/cli/main.ts runCommandLine) with captured
// stdout/stderr, a given working directory and environment, and no terminal. The same path as the
// built CLI from the command table to the one exit point, without a process start per case; fixture
// servers living in the test process keep being served while the command awaits them.
import { PassThrough } from 'node:stream';
import { runCommandLine } from '../../src/cli/main.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1' };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v === undefined) delete env[k];
  else env[k] = v;
  const code = await runCommandLine(['node', 'oxo-flow', ...args], {
    cwd: options.cwd,
    env,
    stdout: { write: (t) => void (stdout += t) },
    stderr: { write: (t) => void (stderr += t) },
    isTerminal: () => false,
    stdin: new PassThrough(),
    prompt: new PassThrough(),
  });
  return { code, stdout, stderr };
}
