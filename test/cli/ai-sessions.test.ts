// Session records through the built CLI, with the scripted provider (a JSON file of answers):
// `lint --ai` leaves one record; `ai sessions` lists it; `ai sessions show ID` prints it;
// an unknown id is SES001. No secret is in any of them.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { TINY_WORKFLOW } from '../helpers/workflow-text.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const KEY = 'sk-FAKEKEY-sessions-55aa77';
const WORKFLOW = TINY_WORKFLOW;

function project() {
  const dir = tempDir('oxo-ai-sessions-');
  writeFileSync(path.join(dir, 'main.oxoflow'), WORKFLOW);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  const script = path.join(dir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      responses: [
        { tool_calls: [{ name: 'read_skill', arguments: { name: 'nope' } }], usage: { input_tokens: 50, output_tokens: 5 } },
        { text: '[INFO] hello: fine → nothing', usage: { input_tokens: 60, output_tokens: 8 } },
      ],
    }),
  );
  // The key is present in the environment (as a user would have it), though the scripted provider needs none.
  const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'scripted', OXO_FLOW_AI_SCRIPT: script, OPENAI_API_KEY: KEY, OXO_FLOW_AI_API_KEY: KEY };
  return { dir, env };
}

describe('ai sessions', () => {
  it('lint --ai with the scripted provider leaves one record; list and show print it', () => {
    const { dir, env } = project();
    const r = runCliJson(['lint', '--ai'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.json.ai).toMatchObject({ status: 'ok', provider: 'scripted', findings: [{ severity: 'info', rule: 'hello' }], usage: { input_tokens: 110, output_tokens: 13 } });
    const id = (r.json.ai as { session: string }).session;
    const files = readdirSync(path.join(dir, '.oxo-flow', 'ai_sessions'));
    expect(files).toEqual([`${id}.json`]);
    const file = path.join(dir, '.oxo-flow', 'ai_sessions', files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(file, 'utf8'));
    expect(record).toMatchObject({
      command: 'lint',
      provider: { kind: 'scripted' },
      // Every review offers the skill readers, the workflow check and the lookup tools.
      tools_offered: [{ name: 'read_skill', origin: 'builtin', read_only: true }, { name: 'read_skill_file' }, { name: 'validate_workflow' }, { name: 'lookup_skill' }, { name: 'lookup_pipeline' }],
      tool_calls: [{ round: 1, tool: 'read_skill', args: { name: 'nope' }, decision: 'auto', reason: 'built-in read-only tool', is_error: true }],
      rounds: [{ round: 1, stop_reason: 'tool_calls' }, { round: 2, stop_reason: 'end' }],
      usage: { input_tokens: 110, output_tokens: 13 },
      outcome: { status: 'ok' },
    });

    const list = runCliJson(['ai', 'sessions'], { cwd: dir, env });
    expect(list.code).toBe(0);
    expect(list.json.sessions).toMatchObject([{ id, command: 'lint', provider: 'scripted', status: 'ok', tool_calls: 1 }]);
    const human = runCli(['ai', 'sessions'], { cwd: dir, env });
    expect(human.stderr).toContain(id);
    const show = runCli(['ai', 'sessions', 'show', id], { cwd: dir, env });
    expect(show.code).toBe(0);
    expect(show.stderr).toContain('read_skill');
    expect(show.stderr).toContain('built-in read-only tool');
    expect(runCliJson(['ai', 'sessions', 'show', id], { cwd: dir, env }).json.session).toEqual(record);
    for (const out of [r, list, human, show]) expect(out.stdout + out.stderr).not.toContain(KEY);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  });

  it('an unknown id is SES001 (exit 1)', () => {
    const { dir, env } = project();
    const r = runCli(['ai', 'sessions', 'show', 'no-such-id'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SES001');
  });
});
