// `oxo-flow ai status`, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the TypeScript
// sources; test/cli/built-cli.test.ts spawns the built CLI): real skill files, a real local HTTP server
// that must never be contacted.
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSkillTree, mdSkill, tomlSkill, writeMd, writeToml, type SkillTree } from '../helpers/skills-fixtures.js';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';
import { builtinSkillNames } from '../helpers/builtin-skills.js';

let t: SkillTree;
let env: Record<string, string | undefined>;
beforeEach(async () => {
  t = makeSkillTree();
  env = {
    OXO_FLOW_HOME: t.homeDir,
    HOME: t.root,
    OXO_FLOW_AI_PROVIDER: undefined,
    OXO_FLOW_AI_MODEL: undefined,
    OXO_FLOW_AI_BASE_URL: undefined,
    OXO_FLOW_AI_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
    DEEPSEEK_API_KEY: undefined,
    OLLAMA_HOST: undefined,
    CI: undefined,
  };
  writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert'));
  writeMd(t.projectSkills, 'rnaseq-reviewer', mdSkill('rnaseq-reviewer'));
});
afterEach(() => t.cleanup());

const WORKFLOW = `[workflow]
name = "wf"
version = "0.1.0"

[ai]
skills = ["rnaseq-reviewer", "missing-one"]

[[rules]]
name = "hello"
output = ["hello.txt"]
shell = "echo hi > {output}"
`;

describe('oxo-flow ai (status)', () => {
  it('lists every skill with scope, format, type, status and activity, and DISABLED with how to enable it', async () => {
    const r = await runCli(['ai'], { cwd: t.projectDir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/rnaseq-reviewer\s+project\s+SKILL\.md\s+knowledge\s+ok\s+no/);
    expect(r.stderr).toMatch(/qc-expert\s+user\s+toml\s+knowledge\s+ok\s+no/);
    expect(r.stderr).toContain('Status: DISABLED');
    expect(r.stderr).toContain('export OXO_FLOW_AI_PROVIDER');
    const n = builtinSkillNames().length;
    expect(r.stderr).toContain(`+ ${n} built-in skills (${n} ok); list them with --all`);
    expect((await runCli(['ai', 'status', '--all'], { cwd: t.projectDir, env })).stderr).toMatch(/fastq-qc\s+builtin\s+SKILL\.md/);
  });

  it('--json gives it all in one document', async () => {
    const r = await runCliJson(['ai', 'status'], { cwd: t.projectDir, env });
    expect(r.code).toBe(0);
    const j = r.json as Record<string, any>;
    expect(j).toMatchObject({ command: 'ai status', ok: true, network: false, provider: { kind: 'disabled', status: 'disabled', key_present: false } });
    expect(j.skills.filter((s: any) => s.scope !== 'builtin').map((s: any) => [s.name, s.scope, s.format, s.type, s.status, s.active])).toEqual([
      ['rnaseq-reviewer', 'project', 'md', 'knowledge', 'ok', false],
      ['qc-expert', 'user', 'toml', 'knowledge', 'ok', false],
    ]);
    expect(j.builtin).toEqual({ count: builtinSkillNames().length, ok: builtinSkillNames().length, listed: false });
  });

  it('activates exactly the names from ai.toml, the workflow and --skill, with one warning per bad name', async () => {
    writeFileSync(path.join(t.projectDir, '.oxo-flow', 'ai.toml'), '[ai]\nskills = ["qc-expert", "qc-exprt"]\n');
    writeFileSync(path.join(t.projectDir, 'main.oxoflow'), WORKFLOW);
    const r = await runCliJson(['ai', 'status', '--skill', 'builtin/fastq-qc', '--skill', 'qc-exprt'], { cwd: t.projectDir, env });
    expect(r.code).toBe(0);
    const j = r.json as Record<string, any>;
    expect(j.activation.active.map((a: any) => a.alias)).toEqual(['user/qc-expert', 'project/rnaseq-reviewer', 'builtin/fastq-qc']);
    expect(j.diagnostics.map((d: any) => d.code)).toEqual(['SK030', 'SK030']);
    const messages = j.diagnostics.map((d: any) => d.message).join('\n');
    expect(messages).toContain('did you mean "qc-expert"?');
    expect(messages).toContain('"missing-one"');
    expect(j.project.workflow).toBe(path.join(t.projectDir, 'main.oxoflow'));
  });

  it('a configured provider and an active tool skill are shown without any network traffic; the key is never printed', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      writeToml(
        t.userSkills,
        'clinical-db',
        tomlSkill('clinical-db', { skill_type: '"tool"', requires: JSON.stringify([`mcp://127.0.0.1:${port}/mcp`]) }) + '[mcp]\nheaders = { Authorization = "Bearer ${TOKEN}" }\n',
      );
      const keyed = { ...env, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: 'sk-very-secret-value' };
      const human = await runCli(['ai', '--skill', 'clinical-db'], { cwd: t.projectDir, env: keyed });
      const json = await runCliJson(['ai', '--skill', 'clinical-db'], { cwd: t.projectDir, env: keyed });
      expect(human.code).toBe(0);
      expect(human.stderr).toContain('Provider: openai');
      // OPENAI_API_KEY belongs to api.openai.com: it is not sent to another base URL, and status says why.
      expect(human.stderr).toContain('API key:  none: OPENAI_API_KEY is not sent to this base URL (only to https://api.openai.com/v1)');
      expect(human.stderr).toContain(`http://127.0.0.1:${port}/mcp`);
      expect(human.stderr + human.stdout + json.stdout).not.toContain('sk-very-secret-value');
      const j = json.json as Record<string, any>;
      expect(j.provider).toMatchObject({ kind: 'openai', key_present: false, key_source: null, endpoint: `http://127.0.0.1:${port}/v1` });
      expect(j.provider.key_note).toContain('OPENAI_API_KEY is not sent to this base URL');
      // OXO_FLOW_AI_API_KEY, set beside OXO_FLOW_AI_PROVIDER, goes to the endpoint in use.
      const own = await runCliJson(['ai', '--skill', 'clinical-db'], { cwd: t.projectDir, env: { ...keyed, OXO_FLOW_AI_API_KEY: 'sk-very-secret-value' } });
      expect((own.json as Record<string, any>).provider).toMatchObject({ key_present: true, key_source: 'OXO_FLOW_AI_API_KEY' });
      expect(own.stdout).not.toContain('sk-very-secret-value');
      expect(j.mcp_servers).toEqual([expect.objectContaining({ skill: 'clinical-db', url: `http://127.0.0.1:${port}/mcp`, header_names: ['Authorization'], checked: false })]);
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('an unparsable ai.toml is exit 2 with file:line:col; the skills are still listed', async () => {
    writeFileSync(path.join(t.projectDir, '.oxo-flow', 'ai.toml'), '[ai]\nskills = [\n');
    const r = await runCli(['ai'], { cwd: t.projectDir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.oxo-flow\/ai\.toml:\d+:\d+: error SK040/);
    expect(r.stderr).toContain('rnaseq-reviewer');
  });
});
