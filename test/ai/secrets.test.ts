import { describe, expect, it } from 'vitest';
import { maskUrl, maskUrlsIn, redactSecrets, scrubMessage } from '../../src/ai/secrets.js';

describe('maskUrl', () => {
  it('masks user-info and query values, keeps scheme, host, port, path and query names', () => {
    expect(maskUrl('http://bob:pw@host:8080/mcp?key=K&mode=x')).toBe('http://***@host:8080/mcp?key=***&mode=***');
    expect(maskUrl('https://token@example.org/a/b')).toBe('https://***@example.org/a/b');
    expect(maskUrl('https://example.org/mcp')).toBe('https://example.org/mcp');
    expect(maskUrl('http://h/p?bare&empty=')).toBe('http://h/p?***&empty=');
    expect(maskUrl('http://h/p#access_token=abc')).toBe('http://h/p#access_token=***');
  });

  it('an @ in the path or query is not user-info', () => {
    expect(maskUrl('http://host/users/a@b?x=1')).toBe('http://host/users/a@b?x=***');
  });

  it('text that is not a URL is returned as is', () => {
    expect(maskUrl('not a url')).toBe('not a url');
  });

  it('maskUrlsIn masks every URL inside a message', () => {
    expect(maskUrlsIn('cannot reach http://u:p@h/mcp?k=v (ECONNREFUSED); also "https://x@y/"')).toBe(
      'cannot reach http://***@h/mcp?k=*** (ECONNREFUSED); also "https://***@y/"',
    );
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of each secret of length ≥ 4, longest first', () => {
    expect(redactSecrets('Authorization: Bearer sk-LIVE-123 echoed sk-LIVE-123', ['sk-LIVE-123'])).toBe('Authorization: Bearer *** echoed ***');
    expect(redactSecrets('abcdef abc', ['abc', 'abcdef'])).toBe('*** abc');
    expect(redactSecrets('token abcd', ['abcd', 'ab', ''])).toBe('token ***');
  });

  it('also replaces the percent-encoded form and treats regex characters literally', () => {
    expect(redactSecrets('u=p%40ss%2Bw.rd and p@ss+w.rd', ['p@ss+w.rd'])).toBe('u=*** and ***');
    expect(redactSecrets('a.b*c', ['.b*c'])).toBe('a***');
  });

  it('also replaces the form a secret takes inside a JSON string', () => {
    const secret = 'pa"ss\\word';
    expect(redactSecrets(JSON.stringify({ token: secret, again: `x ${secret}` }), [secret])).toBe('{"token":"***","again":"x ***"}');
  });

  it('without secrets the text is unchanged', () => {
    expect(redactSecrets('nothing here', [])).toBe('nothing here');
  });

  it('scrubMessage redacts and masks URLs', () => {
    expect(scrubMessage('server said: bad header "Bearer XYZ-secret" at http://a:b@h/?q=1', ['XYZ-secret'])).toBe(
      'server said: bad header "Bearer ***" at http://***@h/?q=***',
    );
  });
});
