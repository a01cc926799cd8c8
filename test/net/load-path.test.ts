// undici is loaded by commands that make requests, and only then: validate, lint and dry-run without
// --ai never read anything of node_modules/undici; lint --ai against a local fake does (the control). Observed in the built CLI by a preload that records every
// file the process reads.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';
import { CLI, childEnv } from '../helpers/run-cli.js';
import { TINY_WORKFLOW } from '../helpers/workflow-text.js';

const dir = mkdtempSync(path.join(tmpdir(), 'oxo-load-path-'));
const PRELOAD = path.join(dir, 'record-reads.cjs');
writeFileSync(
  PRELOAD,
  `const fs = require('node:fs');
const seen = [];
for (const name of ['readFileSync', 'openSync']) {
  const real = fs[name];
  fs[name] = function (file, ...rest) { if (typeof file === 'string') seen.push(file); return real.call(this, file, ...rest); };
}
process.on('exit', () => fs.writeFileSync(process.env.RECORD_READS, seen.join('\\n')));
`,
);
writeFileSync(path.join(dir, 'main.oxoflow'), TINY_WORKFLOW);

/** The files a CLI run read (spawned, not spawnSync: the fake server lives in this process). */
async function reads(args: string[], env: Record<string, string | undefined> = {}): Promise<string[]> {
  const out = path.join(dir, `reads-${Math.random().toString(36).slice(2)}.txt`);
  const child = spawn(process.execPath, ['--require', PRELOAD, CLI, ...args], { cwd: dir, env: childEnv({ OXO_FLOW_HOME: path.join(dir, 'home'), RECORD_READS: out, ...env }), stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return readFileSync(out, 'utf8').split('\n');
}
const undiciFiles = (files: string[]) => files.filter((f) => f.includes(`${path.sep}undici${path.sep}`));

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm([], { kind: 'answer', text: 'fine' });
});
afterAll(() => fake.close());

describe('who loads undici', () => {
  it.each([['validate'], ['lint'], ['dry-run'], ['--json', 'lint']])('%s … without --ai: never', async (...args) => {
    const files = await reads([...args]);
    expect(files.some((f) => f.endsWith('oxo-flow.cjs'))).toBe(true);
    expect(undiciFiles(files)).toEqual([]);
  });

  it('lint --ai with a provider: undici from node_modules, on the request', async () => {
    const files = await reads(['lint', '--ai'], { OXO_FLOW_AI_PROVIDER: 'openai-compatible', OXO_FLOW_AI_BASE_URL: fake.baseUrl, OXO_FLOW_AI_MODEL: 'm' });
    expect(undiciFiles(files).length).toBeGreaterThan(0);
    expect(fake.requests.length).toBeGreaterThan(0);
  });
});
