// Elicitation forms: the request's flat schema read into fields, typed lines read into values
// (Enter takes the default), and the terminal dialogue through real streams.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askElicitation, ELICIT_SEND_PROMPT, parseElicitation, readAnswer, type ElicitForm } from '../../../src/ai/mcp/elicit.js';

const request = {
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'User name', default: 'John Doe' },
      age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
      verified: { type: 'boolean', default: true },
      tags: { type: 'array', items: { anyOf: [{ const: 'a' }, { const: 'b' }] } },
      email: { type: 'string', format: 'email' },
    },
    required: ['email'],
  },
};

describe('parseElicitation', () => {
  it('reads each field with its type, default, choices and bounds', () => {
    const form = parseElicitation(request) as ElicitForm;
    expect(form.message).toBe('Who are you?');
    expect(form.fields.map((f) => [f.name, f.type, f.default, f.required])).toEqual([
      ['name', 'string', 'John Doe', false],
      ['age', 'integer', 30, false],
      ['score', 'number', 95.5, false],
      ['status', 'string', 'active', false],
      ['verified', 'boolean', true, false],
      ['tags', 'array', undefined, false],
      ['email', 'string', undefined, true],
    ]);
    expect(form.fields[5]!.choices).toEqual(['a', 'b']);
  });

  it('declines what it cannot show: URL mode, nested objects, too many fields', () => {
    expect(parseElicitation({ mode: 'url', url: 'https://x' })).toEqual({ unsupported: 'elicitation mode url is not offered' });
    expect(parseElicitation({ requestedSchema: { type: 'object', properties: { o: { type: 'object' } } } })).toEqual({ unsupported: 'field o has type object' });
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, { type: 'string' }]));
    expect(parseElicitation({ requestedSchema: { type: 'object', properties: many } })).toMatchObject({ unsupported: expect.stringContaining('21 fields') });
  });

  it('drops a default the field itself refuses', () => {
    const form = parseElicitation({ requestedSchema: { type: 'object', properties: { n: { type: 'integer', maximum: 5, default: 9 } } } }) as ElicitForm;
    expect(form.fields[0]!.default).toBeUndefined();
  });
});

describe('readAnswer', () => {
  const f = (parseElicitation(request) as ElicitForm).fields;
  it('Enter takes the default; an optional field without one is left out; a required one is asked again', () => {
    expect(readAnswer(f[0]!, '')).toEqual({ value: 'John Doe' });
    expect(readAnswer(f[5]!, '')).toEqual({ value: undefined });
    expect(readAnswer(f[6]!, '  ')).toEqual({ error: 'an answer is required' });
  });
  it('checks types and bounds', () => {
    expect(readAnswer(f[1]!, '42')).toEqual({ value: 42 });
    expect(readAnswer(f[1]!, '4.5')).toEqual({ error: 'a whole number is needed' });
    expect(readAnswer(f[1]!, '200')).toEqual({ error: 'at most 150' });
    expect(readAnswer(f[3]!, '2')).toEqual({ value: 'inactive' });
    expect(readAnswer(f[3]!, 'gone')).toMatchObject({ error: expect.stringContaining('choose one of') });
    expect(readAnswer(f[4]!, 'no')).toEqual({ value: false });
    expect(readAnswer(f[5]!, 'b, a, b')).toEqual({ value: ['b', 'a'] });
    expect(readAnswer(f[6]!, 'not-an-email')).toEqual({ error: 'an email address is needed' });
  });
});

describe('askElicitation', () => {
  function dialogue(lines: string[]) {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => {
      shown += d.toString();
      // Answer each prompt as it appears.
      if (/: $/.test(shown) && lines.length > 0) input.write(`${lines.shift()}\n`);
    });
    return { io: { input, output }, shown: () => shown };
  }
  const form = parseElicitation({ message: 'Pick', requestedSchema: { type: 'object', properties: { n: { type: 'integer', default: 3 }, s: { type: 'string' } }, required: ['s'] } }) as ElicitForm;

  it('accepts with the answers only when the person says yes', async () => {
    const d = dialogue(['', 'x', 'oops', 'hello', 'y']);
    // n: Enter → its default 3; s: 'x'; then 'oops' at the send prompt is not a yes: declined.
    expect(await askElicitation('lab', form, d.io)).toEqual({ action: 'decline' });
    const e = dialogue(['7', 'hello', 'y']);
    expect(await askElicitation('lab', form, e.io)).toEqual({ action: 'accept', content: { n: 7, s: 'hello' } });
    expect(e.shown()).toContain('The MCP server lab asks for input');
    expect(e.shown()).toContain(ELICIT_SEND_PROMPT);
  });

  it('EOF cancels', async () => {
    const d = dialogue([]);
    const pending = askElicitation('lab', form, d.io);
    setTimeout(() => d.io.input.end(), 20);
    expect(await pending).toEqual({ action: 'cancel' });
  });
});
