// Issue 8, "The approval prompt": keys typed before the prompt appears (`y⏎` while the MCP server is
// still connecting) must not answer it. A real pseudo-terminal (util-linux `script`); the server holds
// its tool list back until the terminal has echoed the early keys, so they are surely waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInPty } from '../helpers/mcp-cli.js';
import { makeToolSkillProject, type ToolSkillProject } from '../helpers/mcp-project.js';
import { json, startRawServer, type RawServer } from '../helpers/mcp-raw-server.js';

let server: RawServer;
let project: ToolSkillProject;
let release: () => void = () => {};
let calls = 0;

beforeAll(async () => {
  const typed = new Promise<void>((resolve) => (release = resolve));
  server = await startRawServer(async ({ message, res }) => {
    if (message.method === 'tools/list') {
      await typed;
      return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'drop_table', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }] } });
    }
    if (message.method === 'tools/call') {
      calls++;
      return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'dropped' }] } });
    }
    return undefined;
  });
  project = makeToolSkillProject({ name: 'db', url: server.url });
});

afterAll(async () => {
  await server.close();
  project.cleanup();
});

describe('approval prompt', () => {
  it('discards keys typed before it asks: an early "y⏎" does not approve, the answer given at the prompt counts', async () => {
    const r = await runCliInPty(['ai', 'call', 'mcp_db_drop_table', '--args', '{"name":"\\u202eevil\\u009b"}'], {
      cwd: project.dir,
      env: { OXO_FLOW_HOME: project.home },
      early: 'y\r',
      onScreen: (screen) => {
        if (screen.includes('y')) release();
      },
      answer: 'n\r',
    });
    expect(r.prompted).toBe(true);
    expect(calls).toBe(0);
    expect(r.code).toBe(1);
    expect(r.screen).toContain('APR002');
    // Arguments with bidi and C1 characters are shown as visible escapes.
    expect(r.screen).toContain('"name": "\\u202eevil\\x9b"');
    expect(r.screen).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
  });
});
