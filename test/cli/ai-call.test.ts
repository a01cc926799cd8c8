// `oxo-flow ai call` end to end: the approval gate in a real pseudo-terminal (util-linux
// `script`), refusals without a prompt when no human can answer, and no way around the gate.
import { writeFileSync } from 'node:fs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_PROMPT } from '../../src/ai/approval/prompt.js';
import { runCliAsync, runCliInPty } from '../helpers/mcp-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeToolSkillProject, type ToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture, type SdkFixture } from '../helpers/mcp-sdk-server.js';

let fixture: SdkFixture;
let project: ToolSkillProject;
// Each test deletes its own gene, so tests can run concurrently and still count their own calls.
const destructiveFor = (gene: string) => ['ai', 'call', 'mcp_clinical-db_delete_records', '--args', JSON.stringify({ gene })];
const destructive = destructiveFor('BRCA1');

beforeAll(async () => {
  fixture = await startSdkFixture({ mode: 'sse', lifetimeMs: 600_000 });
  project = makeToolSkillProject({ name: 'clinical-db', url: fixture.url });
});
afterAll(async () => {
  await fixture.close();
  project.cleanup();
});

const env = (extra: Record<string, string> = {}) => ({ OXO_FLOW_HOME: project.home, ...extra });
const deletes = (gene = 'BRCA1') => fixture.calls.filter((c) => c.name === 'delete_records' && c.args.gene === gene).length;

describe('ai call: tools that run without asking', () => {
  it('a read-only tool runs, prints its result on stdout and logs the decision', async () => {
    const r = await runInProcess(['ai', 'call', 'mcp_clinical-db_lookup', '--args', '{"gene":"BRCA1"}'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('gene BRCA1: chr17');
    expect(r.stderr).toContain('ran without asking');
    const j = await runInProcess(['--json', 'ai', 'call', 'mcp_clinical-db_lookup', '--args', '{"gene":"TP53"}'], { cwd: project.dir, env: env({ CI: '1' }) });
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: true, decision: 'auto', result: { is_error: false } });
  });

  it('a tool error (isError) exits 1 and shows the tool\'s message', async () => {
    const r = await runInProcess(['--json', 'ai', 'call', 'mcp_clinical-db_fail'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'auto', result: { is_error: true, text: 'database offline' } });
  });

  it('built-in validate_workflow runs on a TOML text', async () => {
    const r = await runInProcess(['--json', 'ai', 'call', 'validate_workflow', '--args', JSON.stringify({ toml: 'this is = = not toml' })], { cwd: project.dir, env: env() });
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'auto', result: { is_error: false } });
    expect((JSON.parse(r.stdout) as { result: { text: string } }).result.text).toMatch(/^invalid: 1 error/);
  });

  it('bad --args and unknown tools are usage errors', async () => {
    const bad = await runInProcess(['ai', 'call', 'mcp_clinical-db_lookup', '--args', '[1,2]'], { cwd: project.dir, env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('TOOL002');
    const unknown = await runInProcess(['ai', 'call', 'mcp_clinical-db_lookupp'], { cwd: project.dir, env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('TOOL001');
    expect(unknown.stderr).toContain('mcp_clinical-db_lookup');
  });

  it('a slow tool times out with the skill\'s call_timeout_ms, exit 1, and does not hang', async () => {
    const slow = makeToolSkillProject({ name: 'clinical-db', url: fixture.url, extraMcp: 'call_timeout_ms = 300' });
    try {
      // The tool would answer after 200 s: only the 300 ms call timeout can end the call with MCP003,
      // however slowly a busy host starts the CLI (no kill timer races it).
      const r = await runInProcess(['ai', 'call', 'mcp_clinical-db_slow', '--args', '{"ms":200000}'], { cwd: slow.dir, env: { OXO_FLOW_HOME: slow.home } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('MCP003');
    } finally {
      slow.cleanup();
    }
  });
});

describe.concurrent('ai call: the approval prompt in a real terminal', () => {
  it.each([
    ['y\r', 'GENE-y'],
    ['yes\r', 'GENE-yes'],
    ['YES\r', 'GENE-YES'],
  ])('%j approves', async (answer, gene) => {
    const r = await runCliInPty(destructiveFor(gene), { cwd: project.dir, env: env(), answer });
    expect(r.prompted).toBe(true);
    expect(r.code).toBe(0);
    expect(r.screen).toContain('server:      clinical-db');
    expect(r.screen).toContain('tool:        delete_records (as mcp_clinical-db_delete_records)');
    expect(r.screen).toContain('destructiveHint=true');
    expect(r.screen).toContain(`"gene": "${gene}"`);
    expect(r.screen).toContain(APPROVAL_PROMPT);
    expect(r.screen).toContain(`deleted records for ${gene}`);
    expect(deletes(gene)).toBe(1);
  });

  it.each([
    ['n\r', 'answered no'],
    ['\r', 'answered no'],
    ['yep\r', 'answered no'],
    ['\x04', 'EOF'],
    ['\x03', 'Ctrl-C'],
  ])('%j refuses', async (answer, reason) => {
    const gene = `REFUSE-${JSON.stringify(answer)}`;
    const r = await runCliInPty(destructiveFor(gene), { cwd: project.dir, env: env(), answer });
    expect(r.prompted).toBe(true);
    expect(r.code).toBe(1);
    expect(r.screen).toContain('APR002');
    expect(r.screen).toContain(reason);
    expect(deletes(gene)).toBe(0);
  });

  it('the prompt string is exactly "Allow execution? [y]es / [N]o / [a]lways for this tool in this command: " and goes to stderr', async () => {
    expect(APPROVAL_PROMPT).toBe('Allow execution? [y]es / [N]o / [a]lways for this tool in this command: ');
    // stdout to a file: the prompt must still be on the terminal (stderr), not in the file.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-prompt-'));
    try {
      const out = path.join(dir, 'stdout.txt');
      const r = await runCliInPty(destructive, { cwd: project.dir, env: env(), answer: 'n\r', redirect: `>${out}` });
      expect(r.prompted).toBe(true);
      expect(readFileSync(out, 'utf8')).not.toContain('Allow execution');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.concurrent('ai call: non-interactive sessions refuse without a prompt', () => {
  it.each([
    ['CI=1', { CI: '1' }, [], 'CI is set'],
    ['CI=true', { CI: 'true' }, [], 'CI is set'],
    ['--json', {}, ['--json'], '--json was given'],
  ] as const)('%s (in a terminal)', async (_label, extraEnv, flags, reason) => {
    const r = await runCliInPty([...flags, ...destructive], { cwd: project.dir, env: env(extraEnv), answer: 'y\r' });
    expect(r.prompted).toBe(false);
    expect(r.code).toBe(1);
    expect(r.screen).toContain(reason);
    expect(deletes()).toBe(0);
  });

  it('stdin from a pipe', async () => {
    const r = await runCliAsync(destructive, { cwd: project.dir, env: env(), input: 'y\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('Allow execution');
    expect(r.stderr).toContain('APR001');
    expect(r.stderr).toContain('stdin is not a terminal');
    expect(deletes()).toBe(0);
  });

  it('stderr to a file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-stderr-'));
    try {
      const err = path.join(dir, 'stderr.txt');
      const r = await runCliInPty(destructive, { cwd: project.dir, env: env(), answer: 'y\r', redirect: `2>${err}` });
      expect(r.prompted).toBe(false);
      expect(r.code).toBe(1);
      const text = readFileSync(err, 'utf8');
      expect(text).toContain('stderr is not a terminal');
      expect(text).not.toContain('Allow execution');
      expect(deletes()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--json records the decision and its reason', async () => {
    const r = await runCliAsync(['--json', ...destructive], { cwd: project.dir, env: env() });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, decision: 'refused', result: { is_error: true, code: 'APR001' } });
    expect((JSON.parse(r.stdout) as { reason: string }).reason).toContain('--json was given');
  });

  it('trust_annotations = false makes even a read-only tool ask (and so be refused here)', async () => {
    const strict = makeToolSkillProject({ name: 'clinical-db', url: fixture.url, extraMcp: 'trust_annotations = false' });
    try {
      const r = await runCliAsync(['ai', 'call', 'mcp_clinical-db_lookup', '--args', '{"gene":"UNTRUSTED"}'], { cwd: strict.dir, env: { OXO_FLOW_HOME: strict.home } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('trust_annotations = false');
      expect(fixture.calls.filter((c) => c.name === 'lookup' && c.args.gene === 'UNTRUSTED')).toHaveLength(0);
    } finally {
      strict.cleanup();
    }
  });
});

describe.concurrent('ai call: nothing approves on a human\'s behalf', () => {
  it('approval-sounding flags are usage errors (--yes, -y, --approve, …)', async () => {
    const flags = ['--yes', '-y', '--approve', '--auto-approve', '--trust', '--no-confirm', '--force'];
    const runs = await Promise.all(flags.map((flag) => runCliAsync([...destructive, flag], { cwd: project.dir, env: env() })));
    runs.forEach((r, i) => {
      expect(r.code, flags[i]).toBe(2);
      expect(r.stderr, flags[i]).toContain('CLI001');
    });
    expect(deletes()).toBe(0);
  });

  it('environment variables do not approve', async () => {
    const r = await runCliAsync(destructive, {
      cwd: project.dir,
      env: env({ OXO_FLOW_APPROVE: '1', OXO_FLOW_YES: '1', OXO_FLOW_AUTO_APPROVE: 'true', YES: '1', APPROVE: '1', OXO_FLOW_TRUST: '1', CI: 'false' }),
      input: 'y\n',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('APR001');
    expect(deletes()).toBe(0);
  });

  it('config keys do not approve', async () => {
    const p = makeToolSkillProject({ name: 'clinical-db', url: fixture.url, activate: false });
    try {
      writeFileSync(path.join(p.dir, '.oxo-flow', 'ai.toml'), '[ai]\nskills = ["clinical-db"]\napprove = true\nauto_approve = true\nyes = true\n');
      const r = await runCliAsync(destructive, { cwd: p.dir, env: { OXO_FLOW_HOME: p.home } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('APR001');
      expect(deletes()).toBe(0);
    } finally {
      p.cleanup();
    }
  });
});
