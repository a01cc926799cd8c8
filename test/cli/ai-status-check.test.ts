// `ai status --check` connects to the MCP server of each active tool skill (real SDK server on
// 127.0.0.1) and reports its tool count, or one clear error for a server that is not there.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { makeToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture, type SdkFixture } from '../helpers/mcp-sdk-server.js';

let server: SdkFixture;

beforeAll(async () => {
  server = await startSdkFixture({ mode: 'json', token: 'tok-123' });
});
afterAll(async () => {
  await server.close();
});

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('ai status --check', () => {
  it('reports the tool count of a reachable server, and nothing is contacted without --check', async () => {
    const project = makeToolSkillProject({ name: 'clinical-db', url: server.url, headers: { Authorization: 'Bearer ${CLINICAL_DB_TOKEN}' } });
    const env = { OXO_FLOW_HOME: project.home, CLINICAL_DB_TOKEN: 'tok-123', OXO_FLOW_AI_PROVIDER: undefined };
    try {
      const plain = await runCliAsync(['--json', 'ai', 'status'], { cwd: project.dir, env });
      const plainDoc = JSON.parse(plain.stdout);
      expect(plainDoc.network).toBe(false);
      expect(plainDoc.mcp_servers[0]).toMatchObject({ skill: 'clinical-db', checked: false });

      const checked = await runCliAsync(['--json', 'ai', 'status', '--check'], { cwd: project.dir, env });
      expect(checked.code).toBe(0);
      const doc = JSON.parse(checked.stdout);
      expect(doc.network).toBe(true);
      expect(doc.mcp_servers[0]).toMatchObject({ skill: 'clinical-db', checked: true, ok: true, error: null });
      expect(doc.mcp_servers[0].tool_count).toBeGreaterThan(0);
      expect(checked.stdout + checked.stderr).not.toContain('tok-123');

      const human = await runCliAsync(['ai', 'status', '--check'], { cwd: project.dir, env });
      expect(human.stderr).toMatch(/clinical-db.*ok: \d+ tools/);
    } finally {
      project.cleanup();
    }
  });

  it('reports an unreachable server once, with its code, and exits 1 without hanging', async () => {
    const project = makeToolSkillProject({ name: 'gone-db', url: `http://127.0.0.1:${await deadPort()}/mcp` });
    try {
      const r = await runCliAsync(['--json', 'ai', 'status', '--check'], { cwd: project.dir, env: { OXO_FLOW_HOME: project.home, OXO_FLOW_AI_PROVIDER: undefined } });
      const doc = JSON.parse(r.stdout);
      expect(doc.mcp_servers[0]).toMatchObject({ skill: 'gone-db', checked: true, ok: false });
      const errors = (doc.diagnostics as { code: string; message: string }[]).filter((d) => d.message.includes('gone-db'));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.code).toMatch(/^MCP/);
      expect(r.code).toBe(1);
    } finally {
      project.cleanup();
    }
  });
});
