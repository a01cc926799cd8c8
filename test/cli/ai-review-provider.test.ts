// `validate|lint|dry-run --ai` end to end: the built CLI against the fake model servers. The
// deterministic part is byte-identical to the plain command; the review follows; the request the
// server receives carries the active skills' text under the right headings and nothing of an
// inactive skill; a provider failure keeps the deterministic exit code; the key never shows.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, childEnv } from '../helpers/run-cli.js';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm.js';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { TINY_WORKFLOW } from '../helpers/workflow-text.js';

const KEY = 'sk-FAKEKEY-do-not-print-7f3a9c';
const WORKFLOW = `${TINY_WORKFLOW}
[ai]
skills = ["qc-expert"]
`;
const REVIEW = '[WARNING] hello: the greeting has no threads setting → add threads = 1\n[INFO] workflow: small and clear → nothing to change\nLooks fine overall.';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function project(): { dir: string; home: string } {
  const dir = tempDir('oxo-ai-e2e-');
  writeFileSync(path.join(dir, 'main.oxoflow'), WORKFLOW);
  const skills = path.join(dir, '.oxo-flow', 'skills');
  mkdirSync(skills, { recursive: true });
  writeFileSync(path.join(skills, 'qc-expert.skill.toml'), 'name = "qc-expert"\nversion = "1.0.0"\ndescription = "QC advice"\nskill_type = "knowledge"\nprompt_additions = ["ACTIVE-SKILL-MARKER: always check FastQC reports."]\n');
  writeFileSync(path.join(skills, 'unused-skill.skill.toml'), 'name = "unused-skill"\nversion = "1.0.0"\ndescription = "never active"\nskill_type = "knowledge"\nprompt_additions = ["INACTIVE-SKILL-MARKER must never be sent."]\n');
  const home = path.join(dir, 'home');
  mkdirSync(home, { recursive: true });
  return { dir, home };
}

function env(home: string, wire: 'openai' | 'anthropic', baseUrl: string, extra: Record<string, string | undefined> = {}) {
  return {
    OXO_FLOW_HOME: home,
    OXO_FLOW_AI_PROVIDER: wire,
    OXO_FLOW_AI_BASE_URL: baseUrl,
    OXO_FLOW_AI_API_KEY: KEY,
    OXO_FLOW_AI_MODEL: 'test-model',
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
    DEEPSEEK_API_KEY: undefined,
    ...extra,
  };
}

/** Short timeouts and retry waits, through ai_config.json (as a user would set them). */
function fastConfig(home: string): void {
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, timeouts: { idle_ms: 500 }, retries: { max: 1, base_ms: 1 } }));
}

async function serve(replies: FakeReply[], fallback?: FakeReply): Promise<FakeLlm> {
  fake = await startFakeLlm(replies, fallback);
  return fake;
}

describe.each(['openai', 'anthropic'] as const)('--ai review over the %s wire', (wire) => {
  // Every command on one wire, one command on the other (each run is a process start).
  it.each(wire === 'openai' ? ['validate', 'lint', 'dry-run'] : ['lint'])('%s --ai: deterministic part byte-identical, review appended, skills sent', async (command) => {
    const { dir, home } = project();
    const f = await serve([], { kind: 'answer', text: REVIEW });
    const e = env(home, wire, f.baseUrl);
    const plain = await runCliAsync([command], { cwd: dir, env: e });
    const withAi = await runCliAsync([command, '--ai'], { cwd: dir, env: e });
    expect(withAi.code).toBe(plain.code);
    expect(withAi.stdout).toBe(plain.stdout);
    expect(withAi.stderr.startsWith(plain.stderr)).toBe(true);
    const appended = withAi.stderr.slice(plain.stderr.length);
    expect(appended).toContain('AI review');
    expect(appended).toContain('[WARNING] hello: the greeting has no threads setting → add threads = 1');
    expect(appended).toContain('2 findings');
    expect(withAi.stdout + withAi.stderr).not.toContain(KEY);

    expect(f.requests).toHaveLength(1);
    const sent = f.requests[0]!;
    expect(sent.body.stream).toBe(true);
    const system = wire === 'openai' ? sent.body.messages[0].content : sent.body.system;
    expect(system).toContain('## Activated Custom Skills');
    expect(system).toContain('## Skill: qc-expert\nACTIVE-SKILL-MARKER: always check FastQC reports.');
    expect(sent.raw).not.toContain('INACTIVE-SKILL-MARKER');
    expect(sent.raw).toContain('name = \\"tiny\\"');

    const sessions = readdirSync(path.join(dir, '.oxo-flow', 'ai_sessions'));
    expect(sessions).toHaveLength(1);
    const record = readFileSync(path.join(dir, '.oxo-flow', 'ai_sessions', sessions[0]!), 'utf8');
    expect(record).not.toContain(KEY);
    expect(JSON.parse(record)).toMatchObject({ command, provider: { kind: wire, model: 'test-model' }, outcome: { status: 'ok' }, skills: [{ name: 'qc-expert', scope: 'project' }] });
  });

  it('--json: adds `ai` and changes nothing else', async () => {
    const { dir, home } = project();
    const f = await serve([], { kind: 'answer', text: REVIEW, usage: { input: 120, output: 30 } });
    const e = env(home, wire, f.baseUrl);
    const plain = await runCliAsync(['--json', 'lint'], { cwd: dir, env: e });
    const withAi = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env: e });
    expect(withAi.code).toBe(plain.code);
    const a = JSON.parse(withAi.stdout);
    const p = JSON.parse(plain.stdout);
    const { ai, ...rest } = a;
    expect(rest).toEqual(p);
    expect(ai).toMatchObject({
      status: 'ok',
      provider: wire,
      model: 'test-model',
      skills: [{ name: 'qc-expert', scope: 'project' }],
      findings: [
        { severity: 'warning', rule: 'hello', finding: 'the greeting has no threads setting', fix: 'add threads = 1' },
        { severity: 'info', rule: 'workflow', finding: 'small and clear', fix: 'nothing to change' },
      ],
      text: REVIEW,
      usage: { input_tokens: 120, output_tokens: 30 },
    });
    expect(f.requests[0]!.body.stream).toBeUndefined();
  });

  it('provider failure: ai.status "error" with the class, the deterministic exit code, the key masked even when echoed', async () => {
    const { dir, home } = project();
    fastConfig(home);
    const f = await serve([], { kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY}` });
    const e = env(home, wire, f.baseUrl);
    // The workflow is valid: validate exits 0 with or without --ai, whatever the provider does.
    const r = await runCliAsync(['--json', 'validate', '--ai'], { cwd: dir, env: e });
    expect(r.code).toBe(0);
    const ai = JSON.parse(r.stdout).ai;
    expect(ai).toMatchObject({ status: 'error', error: { class: 'auth', code: 'AI003' } });
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const human = await runCliAsync(['validate', '--ai'], { cwd: dir, env: e });
    expect(human.code).toBe(0);
    expect(human.stderr).toContain('AI003');
    expect(human.stdout + human.stderr).not.toContain(KEY);
    for (const s of readdirSync(path.join(dir, '.oxo-flow', 'ai_sessions'))) {
      expect(readFileSync(path.join(dir, '.oxo-flow', 'ai_sessions', s), 'utf8')).not.toContain(KEY);
    }
  });

  it.runIf(wire === 'anthropic')('a stalled stream ends with a timeout error, the deterministic exit code kept', async () => {
    const { dir, home } = project();
    fastConfig(home);
    const f = await serve([], { kind: 'stall', text: 'Thinking' });
    const r = await runCliAsync(['lint', '--ai'], { cwd: dir, env: env(home, wire, f.baseUrl) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('AI008');
  });
});

it('no provider: one notice, deterministic output unchanged before it', async () => {
  const { dir, home } = project();
  const e = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, DEEPSEEK_API_KEY: undefined, OXO_FLOW_AI_API_KEY: undefined };
  const plain = await runCliAsync(['lint'], { cwd: dir, env: e });
  const r = await runCliAsync(['lint', '--ai'], { cwd: dir, env: e });
  expect(r.code).toBe(plain.code);
  expect(r.stderr.startsWith(plain.stderr)).toBe(true);
  expect(r.stderr.split('AI review skipped').length - 1).toBe(1);
});

it('Ctrl-C during a streamed review cancels the request at once: AI012, exit 130', async () => {
  const { dir, home } = project();
  // The server stalls and the idle timeout is long: only the cancellation can end this run.
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, timeouts: { idle_ms: 600_000 }, retries: { max: 0 } }));
  const f = await serve([], { kind: 'stall', text: 'Thinking about it' });
  const child = spawn(process.execPath, [CLI, 'lint', '--ai'], { cwd: dir, env: childEnv({ CI: undefined, ...env(home, 'openai', f.baseUrl) }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    // Once the first streamed words are on screen, press Ctrl-C.
    if (stderr.includes('Thinking about it') && !child.killed) child.kill('SIGINT');
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(130);
  expect(stderr).toContain('AI012');
  expect(stderr).not.toContain(KEY);
});
