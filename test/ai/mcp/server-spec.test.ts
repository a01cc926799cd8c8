import { describe, expect, it } from 'vitest';
import { McpFailure, displayUrl } from '../../../src/ai/mcp/failure.js';
import { expandHeaders, normaliseServerUrl, parseMcpFlag } from '../../../src/ai/mcp/server-spec.js';
import { describeAuthChallenge, parseWwwAuthenticate } from '../../../src/ai/mcp/www-authenticate.js';

describe('server specs', () => {
  it('maps mcp:// to http:// and refuses other schemes', () => {
    expect(normaliseServerUrl('mcp://127.0.0.1:5050/mcp')).toBe('http://127.0.0.1:5050/mcp');
    expect(normaliseServerUrl('https://h/mcp')).toBe('https://h/mcp');
    expect(() => normaliseServerUrl('ftp://h/x')).toThrow(McpFailure);
    expect(() => normaliseServerUrl('not a url')).toThrow(/not a URL/);
  });

  it('parses --mcp URL and --mcp NAME=URL', () => {
    expect(parseMcpFlag('db=mcp://127.0.0.1:5050/mcp')).toMatchObject({ name: 'db', url: 'http://127.0.0.1:5050/mcp' });
    expect(parseMcpFlag('http://127.0.0.1:5050/mcp?a=b')).toMatchObject({ name: '127.0.0.1-5050', url: 'http://127.0.0.1:5050/mcp?a=b' });
  });

  it('expands ${ENV} in headers and names a missing variable without any value', () => {
    expect(expandHeaders({ Authorization: 'Bearer ${TOKEN}' }, { TOKEN: 'abc' })).toEqual({ Authorization: 'Bearer abc' });
    try {
      expandHeaders({ Authorization: 'Bearer ${NOPE}' }, {});
      expect.unreachable();
    } catch (err) {
      expect((err as McpFailure).code).toBe('MCP014');
      expect((err as McpFailure).message).toContain('NOPE');
    }
  });

  it('shows URLs without credentials', () => {
    expect(displayUrl('http://user:pw@h:1/mcp?token=secret&x=1')).toBe('http://h:1/mcp?token=%E2%80%A6&x=%E2%80%A6');
  });

  it('parses WWW-Authenticate challenges', () => {
    expect(parseWwwAuthenticate('Bearer realm="a, b", error="invalid_token", scope="x y"')).toEqual({
      scheme: 'Bearer',
      params: { realm: 'a, b', error: 'invalid_token', scope: 'x y' },
    });
    expect(parseWwwAuthenticate('Basic')).toEqual({ scheme: 'Basic', params: {} });
    expect(describeAuthChallenge('Bearer error="insufficient_scope", scope="admin"')).toBe('server wants Bearer, error="insufficient_scope", scope="admin"');
    expect(describeAuthChallenge(undefined)).toBeUndefined();
  });
});
