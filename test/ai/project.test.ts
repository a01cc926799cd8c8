import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAiToml, resolveProjectDir } from '../../src/ai/project.js';

describe('project directory', () => {
  it('--project wins, then the workflow directory, then the current directory', () => {
    expect(resolveProjectDir({ cwd: '/a', project: 'p', workflowPath: '/w/main.oxoflow' })).toBe(path.resolve('/a/p'));
    expect(resolveProjectDir({ cwd: '/a', workflowPath: 'sub/main.oxoflow' })).toBe(path.resolve('/a/sub'));
    expect(resolveProjectDir({ cwd: '/a' })).toBe(path.resolve('/a'));
  });
});

describe('.oxo-flow/ai.toml', () => {
  const parse = (text: string) => parseAiToml(text, '/p/.oxo-flow/ai.toml', '/p');

  it('reads skills, command lists, skill_paths, provider and model', () => {
    const c = parse('[ai]\nenabled = true\nskills = ["qc-expert"]\nskill_paths = [".agents/skills"]\nprovider = "ollama"\nmodel = "llama3.1"\n[ai.lint]\nskills = ["lint-helper"]\n');
    expect(c.diagnostics).toEqual([]);
    expect(c.table).toEqual({ enabled: true, skills: ['qc-expert'], provider: 'ollama', model: 'llama3.1', commands: { lint: { skills: ['lint-helper'] } } });
    expect(c.skillPaths).toEqual([path.resolve('/p/.agents/skills')]);
  });

  it('positions come from the key-position index: a key is found in its own table, not by its first mention', () => {
    const c = parse('[ai]\nskills = ["a"]\n\n[ai.lint]\nskills = "not-a-list"\nmodel = "x"\n');
    expect(c.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['SK041', 5, 1],
      ['SK042', 6, 1],
    ]);
  });

  it('`~` in skill_paths is the home folder; globs are kept for discovery to expand', () => {
    const c = parse('[ai]\nskill_paths = ["~/skills", "~", "vendor/bio/*"]\n');
    expect(c.skillPaths).toEqual([path.join(os.homedir(), 'skills'), os.homedir(), path.resolve('/p/vendor/bio/*')]);
  });

  it('a key is an error and is not kept; unknown keys warn with a suggestion; wrong types and bad TOML are located', () => {
    const c = parse('[ai]\napi_key = "sk-123"\nskils = ["x"]\nenabled = "yes"\n');
    expect(c.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['SK043', 2],
      ['SK042', 3],
      ['SK041', 4],
    ]);
    expect(c.diagnostics[1]!.message).toContain('did you mean `skills`');
    expect(JSON.stringify(c)).not.toContain('sk-123');
    expect(parse('[ai\n').diagnostics.map((d) => [d.code, d.line])).toEqual([['SK040', 1]]);
  });
});
