// Run the built CLI (dist/) as a real subprocess. The test script builds before vitest runs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const CLI = path.resolve(__dirname, '../../bin/oxo-flow.js');

/** The test process's environment without colour, plus `extra`; an undefined value removes a variable. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...extra };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env as NodeJS.ProcessEnv;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: childEnv(options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    // Only a hung process is killed; a slow one on a busy host is not a failure.
    timeout: options.timeoutMs ?? 240_000,
    // `ai status --json` over hundreds of skills is more than spawnSync's 1 MiB default.
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function runCliJson(args: string[], options: Parameters<typeof runCli>[1] = {}): CliRun & { json: Record<string, unknown> } {
  const r = runCli(['--json', ...args], options);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}
