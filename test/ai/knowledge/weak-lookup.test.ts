// Lookup says when nothing in the library answers a query (`weak`), and reads typos as the names
// they were meant to be. Runs on the real library, compiled as the build compiles it.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillAnswer } from '../../../src/ai/knowledge/answers.js';
import { compileKnowledge } from '../../../src/ai/knowledge/compile.js';
import { searchSkills } from '../../../src/ai/knowledge/search.js';
import { openKnowledge, type KnowledgeIndex } from '../../../src/ai/knowledge/types.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Tasks outside the library: each must come back flagged weak, whatever it lists. */
const NO_MATCH = [
  'protein structure prediction',
  'cryo-EM particle picking',
  'flow cytometry gating',
  'mass cytometry CyTOF clustering',
  'molecular docking of ligands',
  'metabolomics peak alignment with XCMS',
  'lipidomics identification',
  'radiology image segmentation',
  'electronic health records phenotyping',
  'EEG signal filtering',
  'microscopy cell segmentation',
  'RNA secondary structure folding',
  'codon usage bias',
  'GWAS colocalization',
  'drug response prediction',
  'crystallography refinement',
];

/** Standard tasks the library covers: never weak, and the expected skill first. */
const COVERED: [string, string][] = [
  ['paired-end adapter trimming', 'trimgalore-trim'],
  ['featurecounts', 'featurecounts-count'],
  ['mark duplicates', 'picard-markduplicates'],
  ['BQSR', 'gatk-bqsr'],
  ['salmon quant', 'salmon-quant'],
  ['SV calling', 'manta-sv'],
  ['16S ASV', 'dada2-asv'],
];

let index: KnowledgeIndex;
beforeAll(() => {
  index = openKnowledge(compileKnowledge(ROOT).index);
});

describe('weak matches', () => {
  it.each(NO_MATCH)('%s is flagged weak', (query) => {
    const s = searchSkills(index, query, 5);
    expect(s.weak, `${query}: ${s.hits.map((h) => h.name).join(', ')}`).toBe(true);
    const answer = skillAnswer(index, query, 5);
    expect(answer.json.weak).toBe(true);
    if (answer.problem === undefined) expect(answer.text).toMatch(/Weak match: no built-in skill answers/);
  });

  it.each(COVERED)('%s is not weak, and ranks %s first', (query, first) => {
    const s = searchSkills(index, query, 3);
    expect(s.weak).toBe(false);
    expect(s.hits[0]?.name).toBe(first);
  });
});

describe('typos', () => {
  it.each([
    ['mutec2', 'mutect2', 'gatk-mutect2'],
    ['samtols sort', 'samtools', 'samtools-sort-index'],
    ['trimmomatc', 'trimmomatic', 'trimmomatic-trim'],
    ['kraken 2 bracke', 'bracken', 'bracken-abundance'],
  ])('"%s" is read as "%s"', (query, meant, skill) => {
    const answer = skillAnswer(index, query, 3);
    expect(answer.json.did_you_mean).toMatchObject(expect.objectContaining({}));
    expect(Object.values(answer.json.did_you_mean as Record<string, string>)).toContain(meant);
    expect((answer.json.results as { name: string }[]).map((r) => r.name)).toContain(skill);
    expect(answer.text).toContain(`did you mean "${meant}"`);
  });

  it('needs no suggestion where stemming already finds the word', () => {
    const answer = skillAnswer(index, 'haplotypecaler', 3);
    expect((answer.json.results as { name: string }[])[0]?.name).toBe('gatk-haplotypecaller');
  });

  it('leaves words the library knows alone', () => {
    expect(skillAnswer(index, 'star align', 3).json.did_you_mean).toBeUndefined();
  });
});
