// The model reaches the built-in library and the format whatever is active: read_skill reads
// builtin/NAME (and only ours, paths confined), read_format returns the schema or a template.
import { describe, expect, it } from 'vitest';
import { loadSkillContext } from '../../../src/ai/skills/index.js';
import { readFormatTool } from '../../../src/ai/tools/read-format.js';
import { readSkillTools } from '../../../src/ai/tools/read-skill.js';
import { tempDir } from '../../helpers/plan-workflow.js';

async function tools() {
  const dir = tempDir('oxo-reach-');
  const sc = await loadSkillContext({ cwd: dir, env: { OXO_FLOW_HOME: `${dir}/home` } });
  expect(sc.activation.active).toEqual([]);
  const [readSkill, readFile] = readSkillTools(sc.activation.active, sc.discovery.skills.filter((s) => s.scope === 'builtin'));
  return { readSkill: readSkill!, readFile: readFile! };
}

describe('read_skill and the built-in library', () => {
  it('reads builtin/star-align with no skill active, and the bare name too', async () => {
    const { readSkill } = await tools();
    const out = await readSkill.invoke({ name: 'builtin/star-align' });
    expect(out).toMatchObject({ isError: false });
    expect(out.text).toContain('# STAR alignment');
    expect((await readSkill.invoke({ name: 'star-align' })).text).toContain('# STAR alignment');
  });

  it('an unknown name says how built-ins are named; a path-like name reads nothing', async () => {
    const { readSkill } = await tools();
    const out = await readSkill.invoke({ name: 'builtin/no-such-skill' });
    expect(out).toMatchObject({ isError: true, code: 'TOOL003' });
    expect(out.text).toContain('builtin/NAME');
    for (const name of ['builtin/../../etc/passwd', '../star-align', 'builtin/']) expect((await readSkill.invoke({ name })).isError).toBe(true);
  });

  it('an inactive user skill stays unreadable, by name or scope/name, even when handed in as a built-in', async () => {
    const user = { name: 'lab-secrets', scope: 'project', format: 'md', type: 'knowledge', status: 'ok', findings: [], path: '/x/SKILL.md', dir: '/x', domains: [], prompt: 'private' } as const;
    const [readSkill] = readSkillTools([], [{ ...user, findings: [], domains: [] }]);
    for (const name of ['lab-secrets', 'project/lab-secrets', 'builtin/lab-secrets']) expect(await readSkill!.invoke({ name })).toMatchObject({ isError: true });
  });

  it('read_skill_file stays inside the built-in skill directory', async () => {
    const { readFile } = await tools();
    expect((await readFile.invoke({ name: 'builtin/star-align', path: 'SKILL.md' })).text).toContain('name: star-align');
    for (const p of ['../deseq2-de/SKILL.md', '/etc/passwd', '../../package.json']) expect((await readFile.invoke({ name: 'builtin/star-align', path: p })).isError).toBe(true);
  });
});

describe('read_format', () => {
  it('"schema" is the JSON Schema oxo-flow schema prints; a template name its text', async () => {
    const tool = readFormatTool();
    const schema = await tool.invoke({ what: 'schema' });
    expect(schema.isError).toBe(false);
    expect(JSON.parse(schema.text)).toHaveProperty('properties.workflow');
    const template = await tool.invoke({ what: 'sample-fanout' });
    expect(template.text).toContain('[[sample_groups]]');
    expect(template.text).toContain('expand_inputs');
    const unknown = await tool.invoke({ what: '../package.json' });
    expect(unknown).toMatchObject({ isError: true, code: 'TOOL003' });
    expect(unknown.text).toContain('hello-world');
  });
});
