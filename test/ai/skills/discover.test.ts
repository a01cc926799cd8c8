import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills, loadSkillBody, skillSha256, type Skill } from '../../../src/ai/skills/index.js';
import { makeSkillTree, mdSkill, tomlSkill, writeMd, writeToml, type SkillTree } from '../../helpers/skills-fixtures.js';

let t: SkillTree;
beforeEach(() => {
  t = makeSkillTree();
});
afterEach(() => t.cleanup());

const discover = () => discoverSkills({ projectDir: t.projectDir, homeDir: t.homeDir, builtinDir: t.builtinDir });
const only = (skills: Skill[], name: string) => {
  const found = skills.filter((s) => s.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const codes = (s: Skill) => s.findings.map((f) => f.code);
/** The skill after its body is read (what activation does). */
const loaded = (s: Skill) => {
  loadSkillBody(s);
  return s;
};

describe('formats and statuses', () => {
  it('ok: a TOML skill and a SKILL.md skill load with their fields and prompt text', () => {
    writeToml(t.userSkills, 'qc-expert', tomlSkill('qc-expert', { domains: '["qc", "wgs"]', author: '"Lab"' }));
    writeMd(t.projectSkills, 'rnaseq-reviewer', mdSkill('rnaseq-reviewer', '# Guidance\n\nCheck strandedness.', 'version: 1.2.0\n'));
    const d = discover();
    const qc = only(d.skills, 'qc-expert');
    expect(qc).toMatchObject({ scope: 'user', format: 'toml', type: 'knowledge', status: 'ok', version: '1.0.0', author: 'Lab', domains: ['qc', 'wgs'] });
    expect(qc.prompt).toBe('Advice from qc-expert.');
    expect(skillSha256(qc)).toMatch(/^[0-9a-f]{64}$/);
    const md = only(d.skills, 'rnaseq-reviewer');
    expect(md).toMatchObject({ scope: 'project', format: 'md', type: 'knowledge', status: 'ok', version: '1.2.0' });
    // Discovery reads the front matter only; the body comes when the skill is activated.
    expect(md.prompt).toBeUndefined();
    expect(skillSha256(md)).toBeUndefined();
    expect(loadSkillBody(md)).toBe(true);
    expect(md.prompt).toBe('# Guidance\n\nCheck strandedness.');
    expect(skillSha256(md)).toMatch(/^[0-9a-f]{64}$/);
    expect(md.dir).toBe(path.dirname(md.path));
  });

  it('Agent Skills front matter (license, compatibility, metadata, allowed-tools) loads unchanged, without warnings', () => {
    writeMd(
      t.projectSkills,
      'pdf-helper',
      '---\nname: pdf-helper\ndescription: Extracts text from PDFs. Use when the user mentions PDFs.\nlicense: Apache-2.0\ncompatibility: Requires poppler-utils\nmetadata:\n  author: example-org\n  version: "1.0"\nallowed-tools: Bash(pdftotext:*) Read\n---\n# PDF helper\n\nUse pdftotext.\n',
    );
    const s = only(discover().skills, 'pdf-helper');
    expect(s.status).toBe('ok');
    expect(s.findings).toEqual([]);
    expect(s).toMatchObject({ license: 'Apache-2.0', compatibility: 'Requires poppler-utils', metadata: { author: 'example-org', version: '1.0' }, allowedTools: 'Bash(pdftotext:*) Read' });
  });

  it('invalid: listed with reasons and no content', () => {
    writeToml(t.userSkills, 'bad', tomlSkill('bad', { version: '1.0' }));
    const s = only(discover().skills, 'bad');
    expect(s.status).toBe('invalid');
    expect(codes(s)).toContain('SK004');
    expect(s.prompt).toBeUndefined();
    expect(s.findings[0]).toMatchObject({ line: 2, file: s.path });
  });

  it('oversize: a 50 MB file is reported from its size without being read', () => {
    mkdirSync(path.join(t.userSkills, 'huge'));
    const fd = openSync(path.join(t.userSkills, 'huge', 'SKILL.md'), 'w');
    ftruncateSync(fd, 50 * 1024 * 1024);
    closeSync(fd);
    const s = only(discover().skills, 'huge');
    expect(s.status).toBe('oversize');
    expect(codes(s)).toEqual(['SK011']);
    expect(s.sizeBytes).toBe(50 * 1024 * 1024);
    expect(s.prompt).toBeUndefined();
  });

  it('shadowed: the same name in a lower scope, with the winner named', () => {
    writeToml(t.projectSkills, 'qc', tomlSkill('qc'));
    writeMd(t.userSkills, 'qc', mdSkill('qc'));
    writeMd(t.builtinDir, 'qc', mdSkill('qc'));
    const skills = discover().skills.filter((s) => s.name === 'qc');
    expect(skills.map((s) => [s.scope, s.status])).toEqual([
      ['project', 'ok'],
      ['user', 'shadowed'],
      ['builtin', 'shadowed'],
    ]);
    expect(skills[1]!.findings[0]).toMatchObject({ code: 'SK018' });
    expect(skills[1]!.findings[0]!.message).toContain('project/qc');
    expect(loaded(skills[1]!).prompt).toBe('Guidance from qc.');
  });

  it('ambiguous and shadowed at once: two of a name in the project, a third in the user scope', () => {
    writeToml(t.projectSkills, 'trio', tomlSkill('trio'));
    writeMd(t.projectSkills, 'trio', mdSkill('trio'));
    writeMd(t.userSkills, 'trio', mdSkill('trio'));
    writeMd(t.userSkills, 'solo', mdSkill('solo'));
    const all = discover().skills;
    const skills = all.filter((s) => s.name === 'trio');
    expect(skills.map((s) => [s.scope, s.status, codes(s)])).toEqual([
      ['project', 'ambiguous', ['SK019']],
      ['project', 'ambiguous', ['SK019']],
      ['user', 'shadowed', ['SK018']],
    ]);
    expect(skills[0]!.findings[0]!.message).toContain('2 skills named "trio"');
    expect(skills[0]!.findings[0]!.message).toContain(skills[1]!.path);
    expect(only(all, 'solo')).toMatchObject({ status: 'ok', findings: [] });
  });

  it('ambiguous: TOML and SKILL.md with one name in one scope', () => {
    writeToml(t.projectSkills, 'dup', tomlSkill('dup'));
    writeMd(t.projectSkills, 'dup', mdSkill('dup'));
    const skills = discover().skills.filter((s) => s.name === 'dup');
    expect(skills.map((s) => s.status)).toEqual(['ambiguous', 'ambiguous']);
    expect(skills.every((s) => codes(s).includes('SK019') && s.prompt === undefined)).toBe(true);
  });

  it('excluded: a front matter that does not end within 16 KiB is not read further', () => {
    writeMd(t.userSkills, 'long-head', `---\nname: long-head\ndescription: x\n${'# filler line\n'.repeat(2000)}---\nbody\n`);
    const s = only(discover().skills, 'long-head');
    expect(s.status).toBe('excluded');
    expect(codes(s)).toEqual(['SK020']);
    expect(loadSkillBody(s)).toBe(false);
  });

  it('no budget shared between skills: 36 skills of 60 KiB (over 2 MiB in all) are all ok', () => {
    const body = 'x'.repeat(60 * 1024);
    for (let i = 0; i < 36; i++) writeMd(t.userSkills, `big-${String(i).padStart(2, '0')}`, mdSkill(`big-${String(i).padStart(2, '0')}`, body));
    const statuses = discover().skills.map((s) => s.status);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(36);
  });

  it('reads only <name>.skill.toml and <name>/SKILL.md one level down; skips dot entries', () => {
    writeToml(t.userSkills, 'hidden', tomlSkill('hidden'), '.hidden');
    writeFileSync(path.join(t.userSkills, 'notes.toml'), 'x = 1');
    mkdirSync(path.join(t.userSkills, 'deep', 'deeper'), { recursive: true });
    writeFileSync(path.join(t.userSkills, 'deep', 'deeper', 'SKILL.md'), mdSkill('deeper'));
    writeMd(t.userSkills, '.secret', mdSkill('secret'));
    expect(discover().skills).toEqual([]);
  });

  it('SK024: a lower-case skill.md is reported, not read', () => {
    mkdirSync(path.join(t.userSkills, 'lower'));
    writeFileSync(path.join(t.userSkills, 'lower', 'skill.md'), mdSkill('lower'));
    const d = discover();
    expect(d.skills).toEqual([]);
    expect(d.diagnostics.map((x) => x.code)).toEqual(['SK024']);
  });
});

describe('validation codes', () => {
  const cases: [string, string, () => void][] = [
    ['SK001', 'bad name', () => writeToml(t.userSkills, 'Bad_Name', tomlSkill('Bad_Name'))],
    ['SK002', 'name differs from the file stem', () => writeToml(t.userSkills, 'other', tomlSkill('other-name'), 'other')],
    ['SK003', 'missing description', () => writeToml(t.userSkills, 'nodesc', tomlSkill('nodesc', { description: '' }))],
    ['SK004', 'wrong type', () => writeToml(t.userSkills, 'wrongtype', tomlSkill('wrongtype', { domains: '"qc"' }))],
    ['SK005', 'description too long', () => writeToml(t.userSkills, 'longdesc', tomlSkill('longdesc', { description: JSON.stringify('d'.repeat(1025)) }))],
    ['SK006', 'unknown key', () => writeToml(t.userSkills, 'unknown', tomlSkill('unknown', { descripton: '"typo"' }))],
    ['SK007', 'TOML syntax', () => writeToml(t.userSkills, 'syntax', 'name = "syntax"\nversion = \n')],
    ['SK008', 'front matter not closed', () => writeMd(t.userSkills, 'unclosed', '---\nname: unclosed\ndescription: x\nbody\n')],
    ['SK009', 'YAML syntax', () => writeMd(t.userSkills, 'yamlbad', '---\nname: yamlbad\ndescription: Use when: PDFs\n---\nbody\n')],
    ['SK010', 'front matter language', () => writeMd(t.userSkills, 'lang', '---coffee\nname: "lang"\n---\nbody\n')],
    ['SK014', 'invalid UTF-8', () => writeMd(t.userSkills, 'latin1', Buffer.concat([Buffer.from('---\nname: latin1\ndescription: caf'), Buffer.from([0xe9]), Buffer.from('\n---\nbody\n')]))],
    ['SK016', 'tool skill without URL', () => writeToml(t.userSkills, 'tooly', tomlSkill('tooly', { skill_type: '"tool"', requires: '["samtools"]' }))],
    ['SK017', 'bad skill_type', () => writeToml(t.userSkills, 'kind', tomlSkill('kind', { skill_type: '"validator"' }))],
    ['SK022', 'no prompt text', () => writeMd(t.userSkills, 'empty-body', '---\nname: empty-body\ndescription: x\n---\n\n')],
  ];
  for (const [code, what, write] of cases) {
    it(`${code}: ${what}`, () => {
      write();
      const d = discover();
      expect(d.skills).toHaveLength(1);
      const s = loaded(d.skills[0]!);
      expect(codes(s)).toContain(code);
      const f = s.findings.find((x) => x.code === code)!;
      expect(f.file).toBe(s.path);
      expect(f.line).toBeGreaterThanOrEqual(1);
      // Warnings leave the skill usable; errors make it invalid.
      expect(s.status).toBe(f.severity === 'error' ? 'invalid' : 'ok');
    });
  }

  it('SK006 suggests the key it probably meant', () => {
    writeToml(t.userSkills, 'typo', tomlSkill('typo', { descripton: '"x"' }));
    expect(discover().skills[0]!.findings[0]!.message).toContain('did you mean `description`');
  });

  it('SK009 points at the file line of the YAML error', () => {
    writeMd(t.userSkills, 'yamlline', '---\nname: yamlline\ndescription: Use when: PDFs\n---\nbody\n');
    expect(discover().skills[0]!.findings[0]).toMatchObject({ code: 'SK009', line: 3 });
  });

  it('a tool skill keeps its MCP settings; mcp:// means http://', () => {
    writeToml(
      t.userSkills,
      'clinical-db',
      tomlSkill('clinical-db', { skill_type: '"tool"', requires: '["mcp://127.0.0.1:5050/mcp"]', prompt_additions: '' }) +
        '[mcp]\nheaders = { Authorization = "Bearer ${CLINICAL_TOKEN}" }\ncall_timeout_ms = 5000\ntrust_annotations = false\n',
    );
    const s = discover().skills[0]!;
    expect(s.status).toBe('ok');
    expect(s.mcp).toEqual({ url: 'http://127.0.0.1:5050/mcp', headers: { Authorization: 'Bearer ${CLINICAL_TOKEN}' }, callTimeoutMs: 5000, trustAnnotations: false });
  });

  it('a tool skill keeps allow_tools and deny_tools; a wrong type there is SK004 at its line', () => {
    writeToml(
      t.userSkills,
      'filtered-db',
      tomlSkill('filtered-db', { skill_type: '"tool"', requires: '["mcp://127.0.0.1:5050/mcp"]', prompt_additions: '' }) + '[mcp]\nallow_tools = ["lookup*", "slow"]\ndeny_tools = ["slow"]\n',
    );
    expect(discover().skills[0]!.mcp).toMatchObject({ allowTools: ['lookup*', 'slow'], denyTools: ['slow'] });
    writeToml(
      t.userSkills,
      'filtered-db',
      tomlSkill('filtered-db', { skill_type: '"tool"', requires: '["mcp://127.0.0.1:5050/mcp"]', prompt_additions: '' }) + '[mcp]\nallow_tools = "lookup"\n',
    );
    const s = discover().skills[0]!;
    expect(s.findings.map((f) => f.code)).toContain('SK004');
    expect(s.mcp?.allowTools).toBeUndefined();
  });
});

describe('nothing in a skill is executed; hostile files are handled', () => {
  for (const language of ['js', 'javascript', 'JavaScript']) {
    it(`---${language} front matter is refused and its code never runs`, () => {
      const marker = path.join(t.root, `pwned-${language}`);
      const code = `({ name: "evil", description: String(require("fs").writeFileSync(${JSON.stringify(marker)}, "x")) })`;
      writeMd(t.userSkills, 'evil', `---${language}\n${code}\n---\nbody\n`);
      const s = discover().skills[0]!;
      expect(s.status).toBe('invalid');
      expect(codes(s)).toEqual(['SK010']);
      expect(existsSync(marker)).toBe(false);
    });
  }

  it('YAML tags cannot build functions (no implicit code)', () => {
    writeMd(t.userSkills, 'tagged', '---\nname: tagged\ndescription: !!js/function "function () { return 1 }"\n---\nbody\n');
    const s = discover().skills[0]!;
    expect(s.status).toBe('invalid');
    expect(codes(s)).toContain('SK009');
  });

  it('a symlinked skill directory outside the scan root is refused; one inside is followed', () => {
    const outside = path.join(t.root, 'outside');
    writeMd(outside, 'escape', mdSkill('escape'));
    symlinkSync(path.join(outside, 'escape'), path.join(t.userSkills, 'escape'));
    writeMd(t.userSkills, 'real-one', mdSkill('real-one'));
    symlinkSync(path.join(t.userSkills, 'real-one'), path.join(t.userSkills, 'alias-one'));
    const d = discover();
    expect(codes(only(d.skills, 'escape'))).toEqual(['SK013']);
    // Followed: it loads under its declared name, so two skills in one scope claim real-one.
    const alias = d.skills.find((s) => s.folderName === 'alias-one')!;
    expect(alias.name).toBe('real-one');
    expect(codes(alias)).toEqual(['SK002', 'SK019']);
  });

  it('a symlinked SKILL.md or TOML file pointing outside is refused', () => {
    const outside = path.join(t.root, 'secret.txt');
    writeFileSync(outside, 'name = "x"');
    symlinkSync(outside, path.join(t.userSkills, 'leak.skill.toml'));
    mkdirSync(path.join(t.userSkills, 'leak2'));
    symlinkSync(outside, path.join(t.userSkills, 'leak2', 'SKILL.md'));
    const d = discover();
    expect(codes(only(d.skills, 'leak'))).toEqual(['SK013']);
    expect(codes(only(d.skills, 'leak2'))).toEqual(['SK013']);
  });

  it('a FIFO named like a skill is reported and never opened (no hang)', () => {
    execFileSync('mkfifo', [path.join(t.userSkills, 'pipe.skill.toml')]);
    mkdirSync(path.join(t.userSkills, 'pipe2'));
    execFileSync('mkfifo', [path.join(t.userSkills, 'pipe2', 'SKILL.md')]);
    const d = discover();
    expect(codes(only(d.skills, 'pipe'))).toEqual(['SK012']);
    expect(only(d.skills, 'pipe').findings[0]!.message).toContain('FIFO');
    expect(codes(only(d.skills, 'pipe2'))).toEqual(['SK012']);
  });

  it('a directory of more than 10,000 entries is scanned up to its bound and reported; a listed skill is still found', () => {
    const dir = path.join(t.userSkills);
    for (let i = 0; i < 10_001; i++) writeFileSync(path.join(dir, `f${i}.txt`), '');
    writeToml(dir, 'zz-last', tomlSkill('zz-last'));
    writeMd(dir, 'zz-md', mdSkill('zz-md'));
    const d = discover();
    expect(d.diagnostics.map((x) => x.code)).toEqual(['SK021']);
    expect(d.skills.length).toBeLessThanOrEqual(2);
    const listed = discoverSkills({ projectDir: t.projectDir, homeDir: t.homeDir, builtinDir: t.builtinDir, wanted: ['zz-last', 'user/zz-md'] });
    expect(listed.skills.map((s) => [s.name, s.status])).toEqual([
      ['zz-last', 'ok'],
      ['zz-md', 'ok'],
    ]);
  });

  it('BOM and CRLF files load like plain ones', () => {
    writeMd(t.userSkills, 'crlf', Buffer.from('\ufeff---\r\nname: crlf\r\ndescription: CRLF skill\r\n---\r\nLine one.\r\nLine two.\r\n'));
    writeToml(t.userSkills, 'bom', '\ufeff' + tomlSkill('bom').replace(/\n/g, '\r\n'));
    const d = discover();
    expect(loaded(only(d.skills, 'crlf'))).toMatchObject({ status: 'ok', prompt: 'Line one.\nLine two.' });
    expect(only(d.skills, 'bom')).toMatchObject({ status: 'ok', prompt: 'Advice from bom.' });
  });

  it('one broken file does not affect the others', () => {
    writeToml(t.userSkills, 'good', tomlSkill('good'));
    writeToml(t.userSkills, 'broken', '[[[');
    const d = discover();
    expect(only(d.skills, 'good').status).toBe('ok');
    expect(only(d.skills, 'broken').status).toBe('invalid');
  });

  it('missing skill directories are fine (nothing found, no diagnostics)', () => {
    const d = discoverSkills({ projectDir: path.join(t.root, 'nope'), homeDir: path.join(t.root, 'nohome'), builtinDir: path.join(t.root, 'nobuiltin') });
    expect(d).toMatchObject({ skills: [], diagnostics: [] });
    expect(d.roots.every((r) => !r.exists)).toBe(true);
  });
});
