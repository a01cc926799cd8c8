import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activateSkills, assembleSkillPrompt, discoverSkills, lookupSkill, skillPromptBlock } from '../../../src/ai/skills/index.js';
import { readFileSafely } from '../../../src/fs/safe-read.js';
import { makeSkillTree, mdSkill, tomlSkill, writeMd, writeToml, type SkillTree } from '../../helpers/skills-fixtures.js';

let t: SkillTree;
beforeEach(() => {
  t = makeSkillTree();
});
afterEach(() => t.cleanup());
const discover = () => discoverSkills({ projectDir: t.projectDir, homeDir: t.homeDir, builtinDir: t.builtinDir });

describe('activation', () => {
  beforeEach(() => {
    writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert'));
    writeMd(t.projectSkills, 'rnaseq-reviewer', mdSkill('rnaseq-reviewer'));
    writeMd(t.builtinDir, 'fastq-qc', mdSkill('fastq-qc'));
    writeMd(t.userSkills, 'fastq-qc', mdSkill('fastq-qc', 'User copy.'));
    writeToml(t.userSkills, 'broken', tomlSkill('broken', { version: '2' }));
  });

  it('activates exactly the listed names, in order ai.toml, workflow, --skill, without repeats', () => {
    const a = activateSkills(discover(), {
      project: { skills: ['rnaseq-reviewer'], file: '/p/.oxo-flow/ai.toml' },
      workflow: { skills: ['qc-expert', 'rnaseq-reviewer'], file: '/p/main.oxoflow' },
      flags: ['builtin/fastq-qc'],
    });
    expect(a.active.map((s) => `${s.scope}/${s.name}`)).toEqual(['project/rnaseq-reviewer', 'user/qc-expert', 'builtin/fastq-qc']);
    expect(a.warnings).toEqual([]);
    expect(a.sources.map((s) => [s.name, s.from, s.activated])).toEqual([
      ['rnaseq-reviewer', 'ai.toml', 'project/rnaseq-reviewer'],
      ['qc-expert', 'workflow', 'user/qc-expert'],
      ['rnaseq-reviewer', 'workflow', 'project/rnaseq-reviewer'],
      ['builtin/fastq-qc', '--skill', 'builtin/fastq-qc'],
    ]);
  });

  it('nothing listed → nothing active, even with skills discovered', () => {
    const a = activateSkills(discover(), {});
    expect(a).toEqual({ active: [], warnings: [], sources: [] });
  });

  it('[ai.<command>] lists add names for that command only', () => {
    const request = { project: { skills: [], commands: { lint: { skills: ['qc-expert'] } } } };
    expect(activateSkills(discover(), { ...request, command: 'lint' }).active.map((s) => s.name)).toEqual(['qc-expert']);
    expect(activateSkills(discover(), { ...request, command: 'template' }).active).toEqual([]);
  });

  it('a bare name resolves by precedence; the qualified alias reaches the shadowed copy', () => {
    const d = discover();
    const bare = lookupSkill(d, 'fastq-qc');
    expect(bare.found && `${bare.skill.scope}`).toBe('user');
    const builtin = lookupSkill(d, 'builtin/fastq-qc');
    expect(builtin.found && builtin.skill.prompt).toBe('Guidance from fastq-qc.');
  });

  it('one warning per listed name that is missing, with did-you-mean', () => {
    const a = activateSkills(discover(), { project: { skills: ['qc-exprt'] }, flags: ['qc-exprt'] });
    expect(a.active).toEqual([]);
    expect(a.warnings).toHaveLength(1);
    expect(a.warnings[0]).toMatchObject({ code: 'SK030', severity: 'warning' });
    expect(a.warnings[0]!.message).toContain('did you mean "qc-expert"?');
  });

  it('invalid, oversize and ambiguous names are not activated and say why', () => {
    writeFileSync(path.join(t.userSkills, 'huge.skill.toml'), 'x'.repeat(70 * 1024));
    writeToml(t.projectSkills, 'twice', tomlSkill('twice'));
    writeMd(t.projectSkills, 'twice', mdSkill('twice'));
    writeToml(t.userSkills, 'twice', tomlSkill('twice'));
    const a = activateSkills(discover(), { flags: ['broken', 'huge', 'twice', 'nope/x'] });
    expect(a.active).toEqual([]);
    expect(a.warnings.map((w) => w.code)).toEqual(['SK031', 'SK031', 'SK032', 'SK033']);
    expect(a.warnings[0]!.message).toContain('invalid');
    expect(a.warnings[1]!.message).toContain('oversize');
    expect(a.warnings[2]!.message).toContain('ambiguous');
    expect(a.warnings[2]!.hint).toContain('user/twice');
  });
});

describe('prompt assembly (golden)', () => {
  it('two TOML skills and one SKILL.md skill, in activation order, invisible characters stripped', () => {
    writeToml(
      t.userSkills,
      'qc-expert',
      tomlSkill('qc-expert', { prompt_additions: JSON.stringify(['Prefer fastp with --qualified_quality_phred 20.', 'Require a QC report before\u200b alignment.']) }),
    );
    writeToml(t.projectSkills, 'somatic-review', tomlSkill('somatic-review', { prompt_additions: JSON.stringify(['Never infer tumour/normal pairing from file order.\u202e']) }));
    writeMd(
      t.projectSkills,
      'rnaseq-reviewer',
      '---\r\nname: rnaseq-reviewer\r\ndescription: Reviews RNA-seq pipelines\r\n---\r\n# Guidance\r\n\r\nCheck that featureCounts \u2066-s\u2069 matches the library prep.\r\n',
    );
    const d = discover();
    const a = activateSkills(d, { workflow: { skills: ['somatic-review', 'qc-expert'] }, flags: ['rnaseq-reviewer'] });
    const prompt = assembleSkillPrompt('You review bioinformatics workflows.\n', a.active);
    expect(prompt).toBe(
      [
        'You review bioinformatics workflows.',
        '',
        '## Activated Custom Skills',
        '',
        '## Skill: somatic-review',
        'Never infer tumour/normal pairing from file order.',
        '',
        '## Skill: qc-expert',
        'Prefer fastp with --qualified_quality_phred 20.',
        'Require a QC report before alignment.',
        '',
        '## Skill: rnaseq-reviewer',
        '# Guidance',
        '',
        'Check that featureCounts -s matches the library prep.',
        '',
      ].join('\n'),
    );
    expect(skillPromptBlock(a.active[1]!)).toBe('## Skill: qc-expert\nPrefer fastp with --qualified_quality_phred 20.\nRequire a QC report before alignment.\n');
  });

  it('no active knowledge skill → the base prompt unchanged; tool skills add no text', () => {
    writeToml(t.userSkills, 'db', tomlSkill('db', { skill_type: '"tool"', requires: '["http://127.0.0.1:9/mcp"]' }));
    const a = activateSkills(discover(), { flags: ['db'] });
    expect(a.active).toHaveLength(1);
    expect(assembleSkillPrompt('BASE', a.active)).toBe('BASE');
    expect(assembleSkillPrompt('BASE', [])).toBe('BASE');
  });
});

describe('bounded reads', () => {
  it('device files are refused without reading (/dev/zero never ends)', () => {
    const r = readFileSafely('/dev/zero', '/dev', 64 * 1024);
    expect(r).toMatchObject({ ok: false, reason: 'not-regular' });
  });
});
