// Real skill trees in temporary directories: a project, an OXO_FLOW_HOME and a built-in library.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SkillTree {
  root: string;
  projectDir: string;
  homeDir: string;
  builtinDir: string;
  projectSkills: string;
  userSkills: string;
  cleanup(): void;
}

export function makeSkillTree(): SkillTree {
  const root = mkdtempSync(path.join(os.tmpdir(), 'oxo-skills-'));
  const projectDir = path.join(root, 'project');
  const homeDir = path.join(root, 'home');
  const builtinDir = path.join(root, 'builtin');
  const projectSkills = path.join(projectDir, '.oxo-flow', 'skills');
  const userSkills = path.join(homeDir, 'skills');
  for (const d of [projectSkills, userSkills, builtinDir]) mkdirSync(d, { recursive: true });
  return { root, projectDir, homeDir, builtinDir, projectSkills, userSkills, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function tomlSkill(name: string, extra: Partial<Record<string, string>> = {}): string {
  const fields: Record<string, string> = {
    name: JSON.stringify(name),
    version: '"1.0.0"',
    description: JSON.stringify(`${name} advice`),
    skill_type: '"knowledge"',
    prompt_additions: JSON.stringify([`Advice from ${name}.`]),
    ...extra,
  };
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n')
    .concat('\n');
}

export function mdSkill(name: string, body = `Guidance from ${name}.`, frontMatter = ''): string {
  return `---\nname: ${name}\ndescription: ${name} guidance\n${frontMatter}---\n${body}\n`;
}

export function writeToml(dir: string, name: string, text: string, fileStem = name): string {
  const file = path.join(dir, `${fileStem}.skill.toml`);
  writeFileSync(file, text);
  return file;
}

export function writeMd(dir: string, dirName: string, text: string | Buffer): string {
  mkdirSync(path.join(dir, dirName), { recursive: true });
  const file = path.join(dir, dirName, 'SKILL.md');
  writeFileSync(file, text);
  return file;
}
