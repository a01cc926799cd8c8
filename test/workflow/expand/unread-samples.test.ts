// A pipeline whose samples (or pairs) come from a source validate does not read (a sheet whose path is
// given at run time, files matched by sample_pattern) still validates: a fan-in over the engine's keys
// (samples_list, samples_<group>, pairs_list) gets a stand-in, and a pending pairs sheet sources the
// pair wildcards. With the samples known, a key that does not exist stays E005.
import { describe, expect, it } from 'vitest';
import { codesOf, diagnose, quietRule, wf } from '../../helpers/workflow-text.js';

const FAN_IN = quietRule('merge', 'expand_inputs = [{ pattern = "c/{sample}.txt", variables = { sample = "config.samples_list" } }]\noutput = ["all.txt"]\nshell = "cat {input} > {output}"');
const PER_SAMPLE = quietRule('count', 'input = ["raw/{sample}.txt"]\noutput = ["c/{sample}.txt"]\nshell = "wc -l {input} > {output}"');
const SHEET_FROM_CONFIG = 'samples_file = "{config.samplesheet}"';
const CONFIG = '[config]\nsamplesheet = { type = "path", required = true }\n\n';

describe('validate with samples it does not read', () => {
  it('a per-sample sheet named at run time: the fan-in over config.samples_list is no error', () => {
    const d = diagnose(wf(CONFIG + PER_SAMPLE + FAN_IN, `name = "t"\ndescription = "test"\nauthor = "tests"\n${SHEET_FROM_CONFIG}`));
    expect(codesOf(d).filter((c) => !c.startsWith('W') || c === 'W024')).toEqual([]);
    expect(codesOf(d)).toContain('W028');
  });

  it('samples named by sample_pattern: the same', () => {
    const d = diagnose(wf(PER_SAMPLE + FAN_IN, 'name = "t"\ndescription = "test"\nauthor = "tests"\nsample_pattern = "raw/{sample}.txt"'));
    expect(codesOf(d)).toEqual([]);
  });

  it('per group, and over pairs from a pairs sheet named at run time', () => {
    const perGroup = quietRule('joint', 'expand_inputs = [{ pattern = "c/{sample}.txt", variables = { sample = "config.samples_{group}" } }]\noutput = ["g/{group}.txt"]\nshell = "cat {input} > {output}"');
    const perPair = quietRule('peaks', 'input = { t = "c/{experiment}.txt", c = "c/{control}.txt" }\noutput = ["p/{pair_id}.txt"]\nshell = "cat {input.t} {input.c} > {output}"');
    const allPairs = quietRule('report', 'expand_inputs = [{ pattern = "p/{pair_id}.txt", variables = { pair_id = "config.pairs_list" } }]\noutput = ["pairs.txt"]\nshell = "cat {input} > {output}"');
    const header = `name = "t"\ndescription = "test"\nauthor = "tests"\n${SHEET_FROM_CONFIG}\npairs_file = "{config.pairs}"`;
    const d = diagnose(wf(`${CONFIG.trimEnd()}\npairs = { type = "path", required = true }\n\n${PER_SAMPLE}${perGroup}${perPair}${allPairs}`, header));
    expect(codesOf(d).filter((c) => c !== 'W028')).toEqual([]);
  });

  it('with the samples known, a missing key is still E005', () => {
    const typo = quietRule('merge', 'expand_inputs = [{ pattern = "c/{sample}.txt", variables = { sample = "config.samples_lst" } }]\noutput = ["all.txt"]\nshell = "cat {input} > {output}"');
    const d = diagnose(wf(`[[sample_groups]]\nname = "g"\nsamples = ["a", "b"]\n\n${PER_SAMPLE}${typo}`));
    expect(codesOf(d)).toContain('E005');
    const noGroup = quietRule('merge', 'expand_inputs = [{ pattern = "c/{sample}.txt", variables = { sample = "config.samples_other" } }]\noutput = ["all.txt"]\nshell = "cat {input} > {output}"');
    expect(codesOf(diagnose(wf(`[[sample_groups]]\nname = "g"\nsamples = ["a", "b"]\n\n${PER_SAMPLE}${noGroup}`)))).toContain('E005');
  });
});
