// `--ai` on validate, lint and dry-run: the deterministic result is unchanged, and the `ai` section
// says which skills are active and why no review text is present. Nothing touches the network.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { TINY_WORKFLOW } from '../helpers/workflow-text.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const WORKFLOW = TINY_WORKFLOW;

function project(workflow = WORKFLOW): { dir: string; env: Record<string, string | undefined> } {
  const dir = tempDir('oxo-ai-review-');
  writeFileSync(path.join(dir, 'main.oxoflow'), workflow);
  const home = path.join(dir, 'home');
  mkdirSync(path.join(home, 'skills'), { recursive: true });
  return {
    dir,
    env: {
      OXO_FLOW_HOME: home,
      OXO_FLOW_AI_PROVIDER: undefined,
      OPENAI_API_KEY: undefined,
      ANTHROPIC_API_KEY: undefined,
      DEEPSEEK_API_KEY: undefined,
      OXO_FLOW_AI_API_KEY: undefined,
    },
  };
}

describe('--ai on the deterministic commands', () => {
  it.each(['validate', 'lint', 'dry-run'])('%s --ai without a provider: same exit code, ai.status disabled, one notice', (command) => {
    const { dir, env } = project();
    const plain = runCliJson([command], { cwd: dir, env });
    const withAi = runCliJson([command, '--ai'], { cwd: dir, env });
    expect(withAi.code).toBe(plain.code);
    expect(plain.json.ai).toBeUndefined();
    expect(withAi.json.ai).toMatchObject({ status: 'disabled', provider: 'disabled', findings: [], text: null });
    // --json adds `ai` and changes nothing else: the notice is in ai.diagnostics.
    expect(withAi.json.diagnostics).toEqual(plain.json.diagnostics);
    const notices = ((withAi.json.ai as { diagnostics: { code: string }[] }).diagnostics).filter((d) => d.code === 'AI001');
    expect(notices).toHaveLength(1);
    const human = runCli([command, '--ai'], { cwd: dir, env });
    expect(human.code).toBe(plain.code);
    expect(human.stderr).toContain('AI review skipped: no AI provider is configured');
  });

  it('[ai] enabled = true in the workflow turns the review on; --no-ai turns it off', () => {
    const { dir, env } = project(`${WORKFLOW}\n[ai]\nenabled = true\n`);
    expect(runCliJson(['lint'], { cwd: dir, env }).json.ai).toMatchObject({ status: 'disabled' });
    expect(runCliJson(['lint', '--no-ai'], { cwd: dir, env }).json.ai).toBeUndefined();
  });

  it('[ai] enabled = true in .oxo-flow/ai.toml turns it on too', () => {
    const { dir, env } = project();
    mkdirSync(path.join(dir, '.oxo-flow'));
    writeFileSync(path.join(dir, '.oxo-flow', 'ai.toml'), '[ai]\nenabled = true\n');
    expect(runCliJson(['validate'], { cwd: dir, env }).json.ai).toMatchObject({ status: 'disabled' });
  });

  it('a configured provider without its key is reported as an error (AI013), never printing other keys', () => {
    const { dir, env } = project();
    const secret = 'sk-test-DO-NOT-PRINT-0123456789';
    const r = runCliJson(['validate', '--ai'], { cwd: dir, env: { ...env, OXO_FLOW_AI_PROVIDER: 'anthropic', OPENAI_API_KEY: secret } });
    expect(r.code).toBe(0);
    expect(r.json.ai).toMatchObject({ status: 'error', provider: 'anthropic', error: { class: 'config', code: 'AI013' } });
    expect(r.stdout + r.stderr).not.toContain(secret);
    const human = runCli(['validate', '--ai'], { cwd: dir, env: { ...env, OXO_FLOW_AI_PROVIDER: 'anthropic', OPENAI_API_KEY: secret } });
    expect(human.stderr).toContain('AI review not run');
    expect(human.stdout + human.stderr).not.toContain(secret);
  });

  it('activates the skills named with --skill for the command and warns about unknown ones', () => {
    const { dir, env } = project();
    mkdirSync(path.join(dir, '.oxo-flow', 'skills'), { recursive: true });
    writeFileSync(
      path.join(dir, '.oxo-flow', 'skills', 'qc-expert.skill.toml'),
      'name = "qc-expert"\nversion = "1.0.0"\ndescription = "QC review"\nskill_type = "knowledge"\nprompt_additions = ["Check FastQC first."]\n',
    );
    const r = runCliJson(['lint', '--ai', '--skill', 'qc-expert', '--skill', 'qc-expret'], { cwd: dir, env });
    expect(r.json.ai).toMatchObject({ skills: [{ name: 'qc-expert', scope: 'project', type: 'knowledge' }] });
    const text = JSON.stringify((r.json.ai as { diagnostics: unknown }).diagnostics);
    expect(text).toContain('qc-expret');
    expect(text).toContain('qc-expert');
  });

  it.each([
    ['dry-run', '[workflow]\ndescription = "no name"\n\n[[rules]]\nname = "a"\nshell = "echo"\n'],
    ['dry-run', 'not = [toml'],
    ['validate', 'not = [toml'],
    ['lint', 'not = [toml'],
  ])('%s --ai on a workflow that does not load says why there is no review (AI041), exit code unchanged', (command, text) => {
    const { dir, env } = project(text);
    const plain = runCli([command], { cwd: dir, env });
    const human = runCli([command, '--ai'], { cwd: dir, env });
    expect(plain.code).not.toBe(0);
    expect(human.code).toBe(plain.code);
    expect(human.stderr.startsWith(plain.stderr.trimEnd())).toBe(true);
    expect(human.stderr).toContain('AI041');
    expect(human.stderr).toMatch(/AI review skipped: the workflow/);
    const json = runCliJson([command, '--ai'], { cwd: dir, env });
    expect(json.json.ai).toMatchObject({ status: 'skipped' });
    expect(json.json.diagnostics).toEqual(runCliJson([command], { cwd: dir, env }).json.diagnostics);
    // Without --ai nothing is said.
    expect(plain.stderr).not.toContain('AI041');
  });
});
