// Output goes straight to fd 1 and 2 (src/cli/std-streams.ts): complete through a pipe, quiet when the
// reader goes away, and terminal detection that says no to files, pipes and /dev/null.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTerminal } from '../../src/cli/std-streams.js';
import { CLI, childEnv } from '../helpers/run-cli.js';

const SAMPLES = 400;
const dir = mkdtempSync(path.join(tmpdir(), 'oxo-streams-'));
const names = Array.from({ length: SAMPLES }, (_, i) => `"S${i}"`).join(', ');
writeFileSync(
  path.join(dir, 'main.oxoflow'),
  `[workflow]\nname = "big"\n[[sample_groups]]\nname = "all"\nsamples = [${names}]\n[[rules]]\nname = "a"\noutput = ["{sample}.txt"]\nshell = "echo {sample} > {output}"\n`,
);

function run(args: string[], onStdout: (child: ReturnType<typeof spawn>, chunk: Buffer) => void) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout(child, chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('standard streams', () => {
  it('a large JSON document arrives whole through a pipe', async () => {
    const r = await run(['--json', 'dry-run'], () => {});
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { jobs: unknown[] };
    expect(doc.jobs).toHaveLength(SAMPLES);
  });

  it('a reader that stops early (like `| head`) ends the output quietly: no stack trace, exit code kept', async () => {
    const r = await run(['--json', 'dry-run'], (child) => child.stdout?.destroy());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('files and pipes are not terminals; a closed descriptor is not either', () => {
    const fd = openSync(path.join(dir, 'main.oxoflow'), 'r');
    try {
      expect(isTerminal(fd)).toBe(false);
    } finally {
      closeSync(fd);
    }
    expect(isTerminal(fd)).toBe(false);
    const devNull = openSync('/dev/null', 'w'); // a character device that is not a terminal
    try {
      expect(isTerminal(devNull)).toBe(false);
    } finally {
      closeSync(devNull);
    }
  });
});
