import { describe, expect, it } from 'vitest';
import { assignToolNames, exposedToolName, MAX_TOOL_NAME_LENGTH, sanitiseNamePart } from '../../../src/ai/mcp/bridge.js';

describe('tool naming', () => {
  it('prefixes mcp_<server>_<tool> and sanitises to [A-Za-z0-9_-]', () => {
    expect(exposedToolName('clinical-db', 'query')).toBe('mcp_clinical-db_query');
    expect(exposedToolName('127.0.0.1-5050', 'get.record/v2')).toBe('mcp_127_0_0_1-5050_get_record_v2');
    expect(sanitiseNamePart('a b:c\u00e9')).toBe('a_b_c_');
  });

  it('shortens names over 64 characters with a hash suffix, keeping them distinct', () => {
    const a = exposedToolName('server', `${'x'.repeat(80)}_alpha`);
    const b = exposedToolName('server', `${'x'.repeat(80)}_beta`);
    expect(a.length).toBe(MAX_TOOL_NAME_LENGTH);
    expect(b.length).toBe(MAX_TOOL_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp_server_x+_[0-9a-f]{8}$/);
    expect(exposedToolName('server', `${'x'.repeat(80)}_alpha`)).toBe(a);
  });

  it('resolves collisions between servers and against built-in names, and reports why', () => {
    const named = assignToolNames(
      [
        { server: 'a_b', tool: 'c' },
        { server: 'a', tool: 'b_c' },
        { server: 'a.b', tool: 'c' },
        { server: 'x', tool: 'y' },
      ],
      ['mcp_x_y'],
    );
    expect(named[0]).toEqual({ server: 'a_b', tool: 'c', exposed: 'mcp_a_b_c' });
    expect(named[1]!.exposed).not.toBe('mcp_a_b_c');
    expect(named[1]!.renamed).toBe('collision');
    expect(named[2]!.renamed).toBe('collision');
    expect(named[3]!.renamed).toBe('collision');
    const all = named.map((n) => n.exposed);
    expect(new Set(all).size).toBe(all.length);
    for (const n of all) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('keeps the raw name for the wire (the registry maps back)', () => {
    const named = assignToolNames([{ server: 'db', tool: 'get.record' }]);
    expect(named[0]).toMatchObject({ tool: 'get.record', exposed: 'mcp_db_get_record' });
  });
});
