import { describe, expect, it } from 'vitest';
import { evaluateWhen, parseWhen, whenConfigKeys, type WhenExpr } from '../../src/workflow/when.js';
import type { ConfigValue } from '../../src/workflow/model.js';

function parsed(text: string): WhenExpr {
  const r = parseWhen(text);
  if (!r.ok) throw new Error(`expected ${text} to parse: ${r.message} at ${r.column}`);
  return r.expr;
}

function run(text: string, config: Record<string, ConfigValue> = {}, files: string[] = []): boolean {
  return evaluateWhen(parsed(text), {
    config: (k) => config[k],
    fileExists: (p) => files.includes(p),
  });
}

describe('parseWhen', () => {
  it.each([
    'true',
    'false',
    '!config.skip',
    'config.run_qc',
    'config.run_annotation && config.min_coverage >= 20',
    'config.sequencing_mode == "WES" && config.target_bed != ""',
    "config.mode == 'WGS'",
    '(config.a || config.b) && !file_exists("done.txt")',
    'config.x < -1.5',
    'config.flag == true',
  ])('accepts %s', (text) => {
    expect(parseWhen(text).ok).toBe(true);
  });

  it.each([
    ['', 1],
    ['config.a &', 10],
    ['config.a && ', 13],
    ['config.mode == WGS', 16],
    ['(config.a', 10],
    ['config.a config.b', 10],
    ['foo', 1],
    ['file_exists(x)', 13],
    ['config.a = 1', 10],
    ['config. == 1', 1],
    ['"abc', 1],
    ['config.a == ', 13],
  ] as const)('rejects %j at column %i', (text, column) => {
    const r = parseWhen(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.column).toBe(column);
      expect(r.message.length).toBeGreaterThan(5);
    }
  });

  it('caps nesting depth with an error instead of overflowing the stack', () => {
    const r = parseWhen('('.repeat(5000) + 'true' + ')'.repeat(5000));
    expect(r.ok).toBe(false);
    const bangs = parseWhen('!'.repeat(5000) + 'true');
    expect(bangs.ok).toBe(false);
  });

  it('lists the config keys it reads', () => {
    expect(whenConfigKeys(parsed('config.a && (config.b == "x" || !config.c) && file_exists("f")'))).toEqual(['a', 'b', 'c']);
  });
});

describe('evaluateWhen', () => {
  it('follows precedence: && binds tighter than ||', () => {
    expect(run('true || false && false')).toBe(true);
    expect(run('(true || false) && false')).toBe(false);
    expect(run('!false && true')).toBe(true);
  });

  it('treats false, 0, "", "false" and missing keys as falsy', () => {
    expect(run('config.a', { a: false })).toBe(false);
    expect(run('config.a', { a: 0 })).toBe(false);
    expect(run('config.a', { a: '' })).toBe(false);
    expect(run('config.a', { a: 'false' })).toBe(false);
    expect(run('config.a', {})).toBe(false);
    expect(run('config.a', { a: 'yes' })).toBe(true);
    expect(run('config.a', { a: 3 })).toBe(true);
    expect(run('config.a', { a: ['x'] })).toBe(true);
    expect(run('config.a', { a: [] })).toBe(false);
  });

  it('compares numbers numerically, also when the config value is a numeric string (CLI override)', () => {
    expect(run('config.min_coverage >= 20', { min_coverage: 30 })).toBe(true);
    expect(run('config.min_coverage >= 20', { min_coverage: 10 })).toBe(false);
    expect(run('config.min_coverage >= 20', { min_coverage: '30' })).toBe(true);
    expect(run('config.min_coverage > 9', { min_coverage: '10' })).toBe(true);
    expect(run('config.n == 2', { n: 2.0 })).toBe(true);
    expect(run('config.n != 2', { n: 3 })).toBe(true);
    expect(run('config.n < 2', { n: 'abc' })).toBe(false);
  });

  it('compares strings exactly', () => {
    expect(run('config.mode == "WGS"', { mode: 'WGS' })).toBe(true);
    expect(run('config.mode == "WGS"', { mode: 'WES' })).toBe(false);
    expect(run('config.mode != "WGS"', { mode: 'WES' })).toBe(true);
    expect(run('config.bed != ""', {})).toBe(false);
    expect(run('config.bed != ""', { bed: 't.bed' })).toBe(true);
  });

  it('compares booleans by truthiness', () => {
    expect(run('config.f == true', { f: true })).toBe(true);
    expect(run('config.f == false', { f: 'false' })).toBe(true);
    expect(run('config.f != true', { f: true })).toBe(false);
  });

  it('asks the environment whether a file exists', () => {
    expect(run('file_exists("ref.fa")', {}, ['ref.fa'])).toBe(true);
    expect(run('!file_exists("ref.fa")', {}, [])).toBe(true);
  });
});
