import { describe, expect, it } from 'vitest';
import { capText, MAX_TOOL_RESULT_BYTES, resultText } from '../../../src/ai/mcp/result.js';

describe('result shaping', () => {
  it('joins text, adds structuredContent once, summarises binary content', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
      ],
      structuredContent: { a: 1 },
    });
    expect(text).toBe('hello\n[image image/png, 3 bytes]\n[resource link: x file:///x]\n{\n  "a": 1\n}');
    const dup = resultText({ content: [{ type: 'text', text: '{"a": 1}' }], structuredContent: { a: 1 } });
    expect(dup).toBe('{"a": 1}');
  });

  it('caps at 16 KiB keeping head and tail with a marker', () => {
    const big = `HEAD${'x'.repeat(100_000)}TAIL`;
    const capped = capText(big);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(MAX_TOOL_RESULT_BYTES);
    expect(capped.startsWith('HEAD')).toBe(true);
    expect(capped.endsWith('TAIL')).toBe(true);
    expect(capped).toMatch(/\[… \d+ of 100008 bytes omitted here: the result is longer than the 16 KiB a tool result may take …\]/);
    expect(capText('short')).toBe('short');
  });

  it('never splits a multi-byte character', () => {
    const big = '€'.repeat(20_000) + '🧬'.repeat(5_000);
    const capped = capText(big, 1_000);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(1_000);
    expect(capped).not.toContain('\uFFFD');
    expect(capped.startsWith('€')).toBe(true);
    expect(capped.endsWith('🧬')).toBe(true);
  });
});
