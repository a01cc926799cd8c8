// `oxo-flow ai tools` against the SDK fixture server, run in-process through the real command line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeToolSkillProject, type ToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture, type SdkFixture } from '../helpers/mcp-sdk-server.js';

const TOKEN = 'tok-7f3a9c-very-secret';
let fixture: SdkFixture;
let project: ToolSkillProject;

beforeAll(async () => {
  fixture = await startSdkFixture({ mode: 'sse', token: TOKEN, lifetimeMs: 600_000 });
  project = makeToolSkillProject({ name: 'clinical-db', url: fixture.url, headers: { Authorization: 'Bearer ${CLINICAL_DB_TOKEN}' } });
});
afterAll(async () => {
  await fixture.close();
  project.cleanup();
});

const env = () => ({ OXO_FLOW_HOME: project.home, CLINICAL_DB_TOKEN: TOKEN });

describe('oxo-flow ai tools', () => {
  it('lists built-in and MCP tools of an activated tool skill, with annotations and gate (JSON)', async () => {
    const r = await runInProcess(['--json', 'ai', 'tools'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { tools: { name: string; gate: string; annotations: Record<string, unknown>; origin: Record<string, unknown> }[]; servers: { ok: boolean }[] };
    const byName = new Map(doc.tools.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['read_skill', 'read_skill_file', 'validate_workflow', 'mcp_clinical-db_lookup', 'mcp_clinical-db_delete_records']));
    expect(byName.get('mcp_clinical-db_lookup')).toMatchObject({ gate: 'auto', annotations: { readOnlyHint: true }, origin: { kind: 'mcp', server: 'clinical-db', rawName: 'lookup' } });
    expect(byName.get('mcp_clinical-db_delete_records')).toMatchObject({ gate: 'approval', annotations: { destructiveHint: true } });
    expect(byName.get('mcp_clinical-db_unannotated')?.gate).toBe('approval');
    expect(byName.get('mcp_clinical-db_ping_me')?.origin).toMatchObject({ rawName: 'ping.me' });
    expect(doc.servers[0]!.ok).toBe(true);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('human output names each tool and whether it runs freely or needs approval', async () => {
    const r = await runInProcess(['ai', 'tools'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/mcp_clinical-db_lookup\s+runs freely/);
    expect(r.stderr).toMatch(/mcp_clinical-db_delete_records\s+needs approval/);
    expect(r.stderr).toContain('destructiveHint=true');
  });

  it('a missing or wrong token gives one clear auth error, never the token, and exit 1', async () => {
    const missing = await runInProcess(['ai', 'tools'], { cwd: project.dir, env: { OXO_FLOW_HOME: project.home } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('MCP014');
    expect(missing.stderr).toContain('CLINICAL_DB_TOKEN');
    const wrong = await runInProcess(['ai', 'tools'], { cwd: project.dir, env: { OXO_FLOW_HOME: project.home, CLINICAL_DB_TOKEN: 'wrong-secret-value' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('MCP005');
    expect(wrong.stderr).toContain('error="invalid_token"');
    expect(wrong.stderr).not.toContain('wrong-secret-value');
    expect(wrong.stderr.match(/error MCP005/g)).toHaveLength(1);
  });

  it('--mcp NAME=URL inspects a server ad hoc; an unreachable one is reported once while the others work', async () => {
    const open = await startSdkFixture({ mode: 'json' });
    try {
      const r = await runInProcess(['--json', 'ai', 'tools', '--mcp', `lab=${open.url}`, '--mcp', 'gone=http://127.0.0.1:9/mcp'], { cwd: project.dir, env: env() });
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as { tools: { name: string }[]; servers: { name: string; ok: boolean; error?: { code: string } }[]; diagnostics: { code: string }[] };
      expect(doc.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp_lab_lookup', 'mcp_clinical-db_lookup']));
      expect(doc.servers.find((s) => s.name === 'gone')).toMatchObject({ ok: false, error: { code: 'MCP002' } });
      expect(doc.diagnostics.filter((d) => d.code === 'MCP002')).toHaveLength(1);
    } finally {
      await open.close();
    }
  });

  it('a bad --mcp value is a usage error (exit 2)', async () => {
    const r = await runInProcess(['ai', 'tools', '--mcp', 'ftp://example.org/x'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('MCP001');
  });
});

describe('oxo-flow ai call with one server down', () => {
  it('calls the working server and warns once (TOOL006) about the other', async () => {
    const r = await runInProcess(['--json', 'ai', 'call', 'mcp_clinical-db_lookup', '--args', '{"gene":"KRAS"}', '--mcp', 'gone=http://127.0.0.1:9/mcp'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { decision: string; diagnostics: { code: string; severity: string; message: string }[] };
    expect(doc.decision).toBe('auto');
    expect(doc.diagnostics).toEqual([expect.objectContaining({ code: 'TOOL006', severity: 'warning', message: expect.stringContaining('MCP002') })]);
  });

  it('calling a tool of the server that is down reports that server\'s failure, exit 1', async () => {
    const r = await runInProcess(['ai', 'call', 'mcp_gone_anything', '--mcp', 'gone=http://127.0.0.1:9/mcp'], { cwd: project.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error MCP002');
    expect(r.stderr).not.toContain('TOOL001');
  });
});

describe('oxo-flow ai tools and SEP-2243 header marks', () => {
  it('a tool with an invalid x-mcp-header is left out with a TOOL005 warning saying why; the valid one stays', async () => {
    const { startRawServer, json } = await import('../helpers/mcp-raw-server.js');
    const raw = await startRawServer((x) =>
      x.message.method === 'tools/list'
        ? json(x.res, 200, {
            jsonrpc: '2.0',
            id: x.message.id,
            result: {
              tools: [
                { name: 'valid_tool', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } },
                { name: 'bad_tool', inputSchema: { type: 'object', properties: { data: { type: 'object', 'x-mcp-header': 'Data' } } } },
              ],
            },
          })
        : undefined,
    );
    try {
      const r = await runInProcess(['ai', 'tools', '--mcp', `hdr=${raw.url}`], { cwd: project.dir, env: env() });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('mcp_hdr_valid_tool');
      expect(r.stderr).not.toMatch(/mcp_hdr_bad_tool\s/);
      expect(r.stderr).toMatch(/TOOL005: hdr's tool "bad_tool" is left out: parameter "data" has x-mcp-header "Data" but is not a string, number, integer or boolean/);
      const j = await runInProcess(['--json', 'ai', 'tools', '--mcp', `hdr=${raw.url}`], { cwd: project.dir, env: env() });
      const doc = JSON.parse(j.stdout) as { tools: { name: string }[]; diagnostics: { code: string }[] };
      expect(doc.tools.map((t) => t.name)).not.toContain('mcp_hdr_bad_tool');
      expect(doc.diagnostics.map((d) => d.code)).toContain('TOOL005');
    } finally {
      await raw.close();
    }
  });
});
