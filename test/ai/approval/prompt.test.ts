import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { APPROVAL_PROMPT, askApproval, isApproval, renderApprovalRequest } from '../../../src/ai/approval/prompt.js';

const request = {
  tool: 'mcp_db_delete',
  server: { name: 'db\u001b[31m', url: 'http://bob:pw@127.0.0.1:5050/mcp?key=K', rawTool: 'delete\u202e' },
  annotations: { destructiveHint: true, readOnlyHint: false },
  args: { gene: 'BRCA1', note: 'line\u001b[2J', c1: 'a\u009bb', bidi: 'x\u202ey\u2066' },
  reason: 'the tool is not marked read-only',
};

describe('approval prompt', () => {
  it('shows server, tool, annotations and arguments, with control, C1 and bidi characters made visible and the URL masked', () => {
    const text = renderApprovalRequest(request);
    expect(text).toContain('server:      db\\x1b[31m (http://***@127.0.0.1:5050/mcp?key=***)');
    expect(text).toContain('tool:        delete\\u202e (as mcp_db_delete)');
    expect(text).toContain('annotations: destructiveHint=true, readOnlyHint=false');
    expect(text).toContain('"note": "line\\u001b[2J"');
    expect(text).toContain('"c1": "a\\x9bb"');
    expect(text).toContain('"bidi": "x\\u202ey\\u2066"');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('says "none" when a tool has no annotations', () => {
    expect(renderApprovalRequest({ ...request, annotations: {} })).toContain('annotations: none (treated as not read-only, destructive)');
  });

  it.each([
    ['y', true],
    ['yes', true],
    [' Yes ', true],
    ['Y', true],
    ['n', false],
    ['', false],
    ['yess', false],
    ['ok', false],
  ])('isApproval(%j) = %s', (answer, expected) => {
    expect(isApproval(answer)).toBe(expected);
  });

  it('asks with the exact prompt and treats end of input as a refusal (non-terminal streams)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (d: Buffer) => (written += d.toString()));
    const pending = askApproval(request, { input, output });
    input.end();
    expect(await pending).toBe('eof');
    expect(written).toContain(APPROVAL_PROMPT);
    const input2 = new PassThrough();
    const pending2 = askApproval(request, { input: input2, output: new PassThrough() });
    input2.write('yes\n');
    expect(await pending2).toBe('yes');
  });
});
