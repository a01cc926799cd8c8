// A temporary project with a tool skill pointing at a fixture server (the user story's layout).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ToolSkillProject {
  dir: string;
  /** An empty OXO_FLOW_HOME so the developer's own skills never leak into a test. */
  home: string;
  cleanup(): void;
}

export function makeToolSkillProject(options: { name: string; url: string; headers?: Record<string, string>; activate?: boolean; extraMcp?: string }): ToolSkillProject {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-mcp-project-'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'oxo-mcp-home-'));
  mkdirSync(path.join(dir, '.oxo-flow', 'skills'), { recursive: true });
  const headerLines = Object.entries(options.headers ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  const skill = [
    `name = ${JSON.stringify(options.name)}`,
    'version = "1.0.0"',
    'description = "Query the clinical variant database"',
    'skill_type = "tool"',
    `requires = [${JSON.stringify(options.url.replace(/^http:/, 'mcp:'))}]`,
    '',
    '[mcp]',
    ...(options.extraMcp ? [options.extraMcp] : []),
    ...(headerLines.length > 0 ? [`headers = { ${headerLines.join(', ')} }`] : []),
    '',
  ].join('\n');
  writeFileSync(path.join(dir, '.oxo-flow', 'skills', `${options.name}.skill.toml`), skill);
  if (options.activate !== false) writeFileSync(path.join(dir, '.oxo-flow', 'ai.toml'), `[ai]\nskills = [${JSON.stringify(options.name)}]\n`);
  return {
    dir,
    home,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}
