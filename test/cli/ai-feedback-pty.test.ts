// What a person sees while the model works, on a real pseudo-terminal (util-linux `script`): the
// spinner while the model thinks, each tool call as it runs, the approval prompt with server, tool,
// description, annotations and arguments, and `a` (always for this tool in this command) that lets
// the next call of the same tool run without asking. CI, --json and redirected stdin still refuse
// without asking. The built CLI against the fake provider and a real MCP server.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_PROMPT, MORE_PROMPT } from '../../src/ai/approval/prompt.js';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm.js';
import { runCliAsync, runCliInPty } from '../helpers/mcp-cli.js';
import { makeToolSkillProject, type ToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture, type SdkFixture } from '../helpers/mcp-sdk-server.js';
import { runCliDialogue } from '../helpers/pty-dialogue.js';
import { TINY_WORKFLOW } from '../helpers/workflow-text.js';

let mcp: SdkFixture;
let project: ToolSkillProject;
const fakes: FakeLlm[] = [];

beforeAll(async () => {
  mcp = await startSdkFixture({ mode: 'json', lifetimeMs: 600_000 });
  project = makeToolSkillProject({ name: 'clinvar', url: mcp.url });
  writeFileSync(path.join(project.dir, 'main.oxoflow'), TINY_WORKFLOW);
});
afterAll(async () => {
  for (const f of fakes) await f.close();
  await mcp.close();
  project.cleanup();
});

/** A fake model for one run, and the environment that points the CLI at it. */
async function model(replies: FakeReply[]) {
  const fake = await startFakeLlm(replies);
  fakes.push(fake);
  const home = path.join(project.home, `h${fakes.length}`);
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, retries: { max: 0 } }));
  const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-FAKEKEY-pty-1234', OXO_FLOW_AI_MODEL: 'test-model' };
  return { fake, env };
}

const deleteCall = (gene: string) => ({ kind: 'answer' as const, toolCalls: [{ name: 'mcp_clinvar_delete_records', args: { gene } }] });
const deletesOf = (gene: string) => mcp.calls.filter((c) => c.name === 'delete_records' && c.args.gene === gene).length;
const count = (text: string, part: string) => text.split(part).length - 1;

describe('feedback while the model works (pty)', () => {
  it('spinner, tool calls as they run, the full approval prompt, and "a" approves this tool for the rest of the command', async () => {
    const { env } = await model([deleteCall('PTY-A1'), { ...deleteCall('PTY-A1'), text: 'Once more.' }, { kind: 'answer', text: '[INFO] workflow: fine → nothing\nDone.' }]);
    const r = await runCliDialogue(['lint', '--ai'], [{ waitFor: APPROVAL_PROMPT, send: 'a\r' }], { cwd: project.dir, env });
    expect(r.stepsDone, r.screen).toBe(1);
    expect(r.code, r.screen).toBe(0);
    // The spinner: who is thinking and the elapsed time (the first frame is drawn at once).
    expect(r.screen).toMatch(/openai\/test-model is thinking · \d+\.\d s/);
    // Each call as it runs, then its outcome.
    expect(count(r.screen, '→ mcp_clinvar_delete_records {"gene":"PTY-A1"}')).toBe(2);
    // The richer prompt: server, tool, description, annotations, arguments, the three choices.
    expect(r.screen).toContain('server:      clinvar');
    expect(r.screen).toContain('tool:        delete_records (as mcp_clinvar_delete_records)');
    expect(r.screen).toContain('description: Delete records for a gene');
    expect(r.screen).toContain('destructiveHint=true');
    expect(r.screen).toContain('"gene": "PTY-A1"');
    // Asked once; the second call ran on the "always" answer.
    expect(count(r.screen, APPROVAL_PROMPT)).toBe(1);
    expect(count(r.screen, '✓ done (approved')).toBe(2);
    expect(deletesOf('PTY-A1')).toBe(2);
  });

  it('"y" approves only this call: the next call of the same tool asks again', async () => {
    const { env } = await model([deleteCall('PTY-Y'), deleteCall('PTY-Y'), { kind: 'answer', text: 'Done.' }]);
    const r = await runCliDialogue(['lint', '--ai'], [{ waitFor: APPROVAL_PROMPT, send: 'y\r' }, { waitFor: APPROVAL_PROMPT, send: 'n\r' }], { cwd: project.dir, env });
    expect(r.stepsDone, r.screen).toBe(2);
    expect(r.code, r.screen).toBe(0);
    expect(deletesOf('PTY-Y')).toBe(1);
    expect(r.screen).toMatch(/✗ refused \(APR002\): the human answered no/);
  });

  it('long arguments are paged on the terminal: every page is shown before the question, the last key too', async () => {
    // 101 keys: 103 lines of JSON, three pages of 40, two "next page" prompts.
    const args = { gene: 'PTY-PAGE', ...Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`note${i}`, 'x'.repeat(20)])), last: 'THE-LAST-KEY' };
    const { env } = await model([{ kind: 'answer', toolCalls: [{ name: 'mcp_clinvar_delete_records', args }] }, { kind: 'answer', text: 'Done.' }]);
    const r = await runCliDialogue(
      ['lint', '--ai'],
      [
        { waitFor: MORE_PROMPT, send: '\r' },
        { waitFor: MORE_PROMPT, send: '\r' },
        { waitFor: APPROVAL_PROMPT, send: 'n\r' },
      ],
      { cwd: project.dir, env },
    );
    expect(r.stepsDone, r.screen).toBe(3);
    expect(r.screen).toContain('lines 1-40 of 103');
    expect(r.screen.indexOf('"last": "THE-LAST-KEY"')).toBeLessThan(r.screen.indexOf(APPROVAL_PROMPT));
    expect(deletesOf('PTY-PAGE')).toBe(0);
  });

  it.each([
    ['CI=1', { CI: '1' }, [] as string[], '', 'CI is set'],
    ['--json', {}, ['--json'], '', '--json was given'],
    ['stdin redirected', {}, [], '< /dev/null', 'stdin is not a terminal'],
  ])('%s refuses without asking, on a terminal too', async (_label, extra, flags, redirect, reason) => {
    const gene = `PTY-REFUSE-${flags.join('') || redirect || 'ci'}`;
    const { env } = await model([deleteCall(gene), { kind: 'answer', text: 'Done.' }]);
    const r = await runCliInPty([...flags, 'lint', '--ai'], { cwd: project.dir, env: { ...env, ...extra }, answer: 'a\r', ...(redirect ? { redirect } : {}) });
    expect(r.prompted).toBe(false);
    expect(r.screen).not.toContain('Allow execution');
    expect(r.screen).toContain(reason);
    expect(deletesOf(gene)).toBe(0);
  });

  it('--json stdout is the document only: no spinner, no tool lines', async () => {
    const { env } = await model([deleteCall('PTY-JSON'), { kind: 'answer', text: 'Done.' }]);
    const r = await runCliAsync(['--json', 'lint', '--ai'], { cwd: project.dir, env });
    const doc = JSON.parse(r.stdout);
    expect(doc.ai.status).toBe('ok');
    expect(r.stdout + r.stderr).not.toMatch(/is thinking|→ mcp_/);
    expect(deletesOf('PTY-JSON')).toBe(0);
  });
});
