import { describe, expect, it } from 'vitest';
import { parseOverrides } from '../../../src/workflow/expand/overrides.js';
import { makeWorkflow } from '../../helpers/plan-workflow.js';

const w = makeWorkflow({
  rules: [],
  config: { reference: '/ref.fa', min_depth: 10, ratio: 0.5, run_qc: true, chroms: ['chr1'] },
  declared: { mode: { required: false, sensitive: false, type: 'string', choices: ['WGS', 'WES'], default: 'WGS' }, n: { required: false, sensitive: false, type: 'int' } },
});

describe('config overrides', () => {
  it('coerces to the declared type or the type written in the file', () => {
    const r = parseOverrides(['min_depth=20', 'ratio=0.75', 'run_qc=false', 'chroms=chr1,chr2', 'mode=WES', 'n=3', 'config.reference=/x y.fa'], w.config);
    expect(r.diagnostics).toEqual([]);
    expect(Object.fromEntries(r.values)).toEqual({ min_depth: 20, ratio: 0.75, run_qc: false, chroms: ['chr1', 'chr2'], mode: 'WES', n: 3, reference: '/x y.fa' });
  });

  it('rejects bad syntax, wrong types, bad choices and unknown keys with suggestions', () => {
    const r = parseOverrides(['novalue', '=x', 'min_depth=deep', 'mode=WXS', 'run_qc=maybe', 'refrence=/a'], w.config);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['CLI010', 'CLI010', 'CLI011', 'CLI011', 'CLI011', 'CLI012']);
    expect(r.diagnostics[2]!.message).toBe('config override min_depth=deep: expected an integer, got "deep"');
    expect(r.diagnostics[3]!.hint).toBe('use one of: "WGS", "WES"');
    expect(r.diagnostics[5]!.message).toContain('(did you mean reference?)');
  });
});
