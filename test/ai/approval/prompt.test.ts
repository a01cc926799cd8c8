import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { APPROVAL_PROMPT, askApproval, isAlways, isApproval, MAX_ARGS_SHOWN, MORE_PROMPT, PAGE_LINES, renderApprovalRequest } from '../../../src/ai/approval/prompt.js';

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

  it('"a" and "always" approve for the rest of the command; nothing else does', () => {
    for (const a of ['a', 'always', ' A ']) expect(isAlways(a)).toBe(true);
    for (const a of ['al', 'y', 'all', '']) expect(isAlways(a)).toBe(false);
  });

  it('shows the tool description', () => {
    expect(renderApprovalRequest({ ...request, description: 'Delete the records\u001b[2J of a gene' })).toContain('description: Delete the records\\x1b[2J of a gene');
  });

  it('"a" at the prompt answers always', async () => {
    const input = new PassThrough();
    const pending = askApproval(request, { input, output: new PassThrough() });
    input.write('a\n');
    expect(await pending).toBe('always');
  });

  it('long arguments are paged: every line is shown, a key after padding too, before the question is asked', async () => {
    const args = { pad: 'x'.repeat(50_000), ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i])), hidden: 'rm -rf /' };
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (d: Buffer) => (written += d.toString()));
    // Answer each question as it appears, like a person: Enter at each page, then y.
    let pagesSeen = 0;
    output.on('data', () => {
      const pages = written.split(MORE_PROMPT).length - 1;
      for (; pagesSeen < pages; pagesSeen++) setImmediate(() => input.write('\n'));
      if (written.endsWith(APPROVAL_PROMPT)) setImmediate(() => input.write('y\n'));
    });
    const answer = await askApproval({ ...request, args }, { input, output });
    expect(answer).toBe('yes');
    expect(pagesSeen).toBeGreaterThan(10);
    expect(written).toContain(MORE_PROMPT);
    expect(written).toContain('"hidden": "rm -rf /"');
    expect(written.split('x').length - 1).toBeGreaterThanOrEqual(50_000);
  });

  it('"n" at a page refuses without showing the rest', async () => {
    const args = Object.fromEntries(Array.from({ length: PAGE_LINES * 3 }, (_, i) => [`k${i}`, i]));
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (d: Buffer) => (written += d.toString()));
    const pending = askApproval({ ...request, args }, { input, output });
    input.write('n\n');
    expect(await pending).toBe('no');
    expect(written).not.toContain(APPROVAL_PROMPT);
    expect(written).not.toContain(`"k${PAGE_LINES * 2}"`);
  });

  it('arguments too long to page through are refused without asking', async () => {
    const output = new PassThrough();
    let written = '';
    output.on('data', (d: Buffer) => (written += d.toString()));
    const answer = await askApproval({ ...request, args: { blob: 'y'.repeat(MAX_ARGS_SHOWN + 1) } }, { input: new PassThrough(), output });
    expect(answer).toBe('unshowable');
    expect(written).toContain('too long to show in full');
    expect(written).not.toContain(APPROVAL_PROMPT);
  });
});
