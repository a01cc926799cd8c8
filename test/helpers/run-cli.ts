// Run the built CLI (dist/) as a real subprocess. The test script builds before vitest runs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const CLI = path.resolve(__dirname, '../../bin/oxo-flow.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): CliRun {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: env as NodeJS.ProcessEnv,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function runCliJson(args: string[], options: Parameters<typeof runCli>[1] = {}): CliRun & { json: Record<string, unknown> } {
  const r = runCli(['--json', ...args], options);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}
