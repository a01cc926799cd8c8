import { describe, expect, it } from 'vitest';
import { StreamedArray, writeJsonDocument } from '../../src/cli/json-stream.js';

function written(doc: Record<string, unknown>, redact: (t: string) => string = (t) => t): { text: string; pieces: number } {
  let text = '';
  let pieces = 0;
  writeJsonDocument(doc, { write: (t) => ((text += t), (pieces += 1)) }, redact);
  return { text, pieces };
}

const row = (i: number) => ({ id: `job[sample=S${i}]`, inputs: [`raw/S${i}.fq`], nested: { list: [i, { deep: [] }], empty: {} }, note: i % 2 ? null : 'tab\there "quoted" ü 😀' });

describe('writeJsonDocument', () => {
  it('writes exactly what JSON.stringify(doc, null, 2) writes, a long list streamed in pieces', () => {
    for (const n of [0, 1, 2, 255, 256, 257, 1000]) {
      const rows = Array.from({ length: n }, (_, i) => row(i));
      const doc = { schema_version: 1, command: 'dry-run', jobs: rows, summary: { jobs: n }, samples: [] as unknown[] };
      const streamed = written({ ...doc, jobs: new StreamedArray(n, (i) => row(i)) });
      expect(streamed.text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
      if (n > 256) expect(streamed.pieces).toBeGreaterThan(3);
    }
  });

  it('builds each item once, in order, and only while writing', () => {
    const made: number[] = [];
    const list = new StreamedArray(600, (i) => (made.push(i), { i }));
    expect(made).toEqual([]);
    written({ a: list, b: 'x', c: new StreamedArray(0, () => ({})) });
    expect(made).toEqual(Array.from({ length: 600 }, (_, i) => i));
  });

  it('two streamed fields, values that look like the marker, and fields JSON drops', () => {
    const doc = { a: new StreamedArray(3, (i) => [i]), fake: '\u0000oxo-flow-stream-0', gone: undefined, b: new StreamedArray(2, (i) => `s${i}`), z: true };
    const plain = { a: [[0], [1], [2]], fake: '\u0000oxo-flow-stream-0', gone: undefined, b: ['s0', 's1'], z: true };
    expect(written(doc).text).toBe(`${JSON.stringify(plain, null, 2)}\n`);
  });

  it('redacts every piece, streamed rows included', () => {
    const secret = 'hunter2-secret';
    const doc = { head: secret, jobs: new StreamedArray(700, (i) => ({ env: { TOKEN: i === 650 ? secret : 'x' } })) };
    const out = written(doc, (t) => t.split(secret).join('***')).text;
    expect(out).not.toContain(secret);
    expect(JSON.parse(out).jobs[650].env.TOKEN).toBe('***');
    expect(JSON.parse(out).head).toBe('***');
  });

  it('elsewhere (any other JSON.stringify) a StreamedArray is its whole list', () => {
    expect(JSON.stringify({ x: new StreamedArray(2, (i) => i * 10) })).toBe('{"x":[0,10]}');
  });
});
