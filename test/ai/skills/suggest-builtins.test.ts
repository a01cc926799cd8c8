// Progressive disclosure: which built-in skills an AI command's prompt names for its request,
// against the real built index and the shipped library.
import { describe, expect, it } from 'vitest';
import { loadSkillContext } from '../../../src/ai/skills/index.js';
import { requestSteps, suggestBuiltins } from '../../../src/ai/skills/suggest-builtins.js';
import { tempDir } from '../../helpers/plan-workflow.js';

async function builtins() {
  const dir = tempDir('oxo-suggest-');
  const sc = await loadSkillContext({ cwd: dir, env: { OXO_FLOW_HOME: `${dir}/home` } });
  return sc.discovery.skills.filter((s) => s.scope === 'builtin');
}

describe('built-in skills for a request', () => {
  it('splits an intent into its steps', () => {
    expect(requestSteps('paired-end RNA-seq, STAR + featureCounts, then DESeq2')).toEqual(['paired-end RNA-seq', 'STAR', 'featureCounts', 'DESeq2']);
    expect(requestSteps('trim with fastp -> align using bwa-mem2 and call with GATK')).toEqual(['trim with fastp', 'align using bwa-mem2', 'call with GATK']);
  });

  it('STAR + featureCounts, then DESeq2: one skill per step, the aligner not the index build', async () => {
    const hints = suggestBuiltins(requestSteps('paired-end RNA-seq, STAR + featureCounts, then DESeq2'), await builtins(), new Set());
    const names = hints.map((h) => h.name);
    expect(names).toEqual(expect.arrayContaining(['star-align', 'featurecounts-count', 'deseq2-de']));
    expect(names.length).toBeLessThanOrEqual(6);
    expect(hints.find((h) => h.name === 'star-align')!.step).toBe('STAR');
    for (const h of hints) expect(h.description.length).toBeLessThanOrEqual(160);
  });

  it('skips skills already active, and names none that do not exist', async () => {
    const all = await builtins();
    const hints = suggestBuiltins(['STAR'], all, new Set(['star-align']));
    expect(hints.map((h) => h.name)).not.toContain('star-align');
    expect(suggestBuiltins(['STAR'], [], new Set())).toEqual([]);
  });

  it('fills in the steps the route between two named steps passes through (the graph\'s shortest path)', async () => {
    const hints = suggestBuiltins(requestSteps('bwa-mem2, then GATK HaplotypeCaller'), await builtins(), new Set());
    const names = hints.map((h) => h.name);
    expect(names.slice(0, 2)).toEqual(['bwa-mem2-align', 'gatk-haplotypecaller']);
    // bwa-mem2 → markduplicates → haplotypecaller in the graph: a duplicate-marking skill joins.
    expect(names.some((n) => /markdup/.test(n))).toBe(true);
    expect(hints.find((h) => /markdup/.test(h.name))!.step).toBe('between bwa-mem2 and GATK HaplotypeCaller');
  });
});
