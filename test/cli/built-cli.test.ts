// The built CLI, spawned as a user runs it (`node bin/oxo-flow.js …`, or the installed package's
// launcher when OXO_FLOW_CLI names it: .ci/run does that after `npm pack` + `npm install -g`), with the
// Node that runs the tests (.ci/run runs this file under Node 20.19.0, the newest 22 and the newest 24).
// The everyday commands and `lint --ai` against a fake OpenAI-compatible model server (a separate
// process on 127.0.0.1) exit as docs/cli.md says, and none crashes.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI as REPO_CLI, childEnv } from '../helpers/run-cli.js';

const CLI = process.env.OXO_FLOW_CLI ? path.resolve(process.env.OXO_FLOW_CLI) : REPO_CLI;
const ROOT = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'oxo-built-cli-'));
const home = mkdtempSync(path.join(tmpdir(), 'oxo-built-cli-home-'));
const GOOD = '[workflow]\nname = "hello"\n\n[[sample_groups]]\nname = "all"\nsamples = ["a", "b"]\n\n[[rules]]\nname = "hello"\noutput = ["out/{sample}.txt"]\nthreads = 1\nshell = "echo {sample} > {output}"\n';
writeFileSync(path.join(dir, 'main.oxoflow'), GOOD);
writeFileSync(path.join(dir, 'bad.oxoflow'), '[workflow]\nname = "bad"\n\n[[rules]]\nname = "a"\noutput = ["b.txt"]\nthreads = "two"\nshell = "touch {output}"\n');

let provider: ChildProcess | undefined;
let baseUrl = '';
beforeAll(async () => {
  provider = spawn(process.execPath, [path.join(ROOT, 'bench', 'fake-provider.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    provider!.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    provider!.on('exit', (code) => reject(new Error(`the fake provider exited ${code}`)));
  });
});
afterAll(() => {
  provider?.kill();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** No provider settings from the machine running the tests: only the ones a case gives. */
const NO_AI = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: undefined, OXO_FLOW_AI_BASE_URL: undefined, OXO_FLOW_AI_API_KEY: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, DEEPSEEK_API_KEY: undefined };

function run(args: string[], env: Record<string, string | undefined> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env: childEnv({ ...NO_AI, ...env }), encoding: 'utf8', timeout: 240_000 });
  // A crash (a signal, such as SIGSEGV from a code cache made for another Node) has no exit status.
  expect(r.signal, `oxo-flow ${args.join(' ')} ended by a signal`).toBeNull();
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe(`the built CLI (${path.relative(ROOT, CLI) || CLI}) on Node ${process.version}`, () => {
  it('--version prints the package version', () => {
    const r = run(['--version']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('validate: 0 for a good workflow, 1 with a code and a position for a bad one, 2 for a missing file', () => {
    expect(run(['validate', 'main.oxoflow']).code).toBe(0);
    const bad = run(['--json', 'validate', 'bad.oxoflow']);
    expect(bad.code).toBe(1);
    const doc = JSON.parse(bad.stdout) as { ok: boolean; diagnostics: { code: string; line: number }[] };
    expect(doc.ok).toBe(false);
    expect(doc.diagnostics).toMatchObject([{ code: 'E024', line: 7 }]);
    expect(run(['validate', 'nowhere.oxoflow']).code).toBe(2);
  });

  it('dry-run --json plans every job, one JSON document on stdout', () => {
    const r = run(['--json', 'dry-run', 'main.oxoflow']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { ok: boolean; jobs: { id: string; command: string }[] };
    expect(doc.ok).toBe(true);
    expect(doc.jobs.map((j) => j.command).sort()).toEqual(["echo a > out/a.txt", "echo b > out/b.txt"].sort());
  });

  it('lint and an unknown command exit as documented (0; 2 for a usage error)', () => {
    expect(run(['lint', 'main.oxoflow']).code).toBe(0);
    const usage = run(['valdate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toContain('    at ');
  });

  it('ai status --json: the AI layer loads, lists the built-in skills, sends nothing', () => {
    const r = run(['--json', 'ai', 'status']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { ok: boolean; network: boolean; skills: unknown[] };
    expect(doc).toMatchObject({ ok: true, network: false });
    expect(doc.skills.length).toBeGreaterThan(100);
  });

  it('lint --ai against the fake provider: the deterministic output first, the review streamed after, exit 0', () => {
    const env = { OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: baseUrl, OXO_FLOW_AI_API_KEY: 'sk-built-cli-test', OXO_FLOW_AI_MODEL: 'bench-model' };
    const plain = run(['lint', 'main.oxoflow']);
    const r = run(['lint', '--ai', 'main.oxoflow'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(plain.stdout)).toBe(true);
    expect(`${r.stdout}${r.stderr}`).toContain('Looks fine otherwise.');
    const json = run(['--json', 'lint', '--ai', 'main.oxoflow'], env);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { ai: { status: string } }).ai.status).toBe('ok');
  });
});
