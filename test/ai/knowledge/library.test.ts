// The built-in skill library as shipped: every skill passes `oxo-flow ai skills validate` (the built
// CLI) and carries the metadata lookup relies on; the library is large and broad enough.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMdSkill } from '../../../src/ai/skills/parse-md-skill.js';
import { BUILTIN_DIR, builtinSkillNames } from '../../helpers/builtin-skills.js';
import { runCliJson } from '../../helpers/run-cli.js';

const names = builtinSkillNames();
const parsed = names.map((name) => {
  const file = path.join(BUILTIN_DIR, name, 'SKILL.md');
  return { name, ...parseMdSkill(readFileSync(file, 'utf8').replace(/\r\n?/g, '\n'), file, name) };
});

describe('the built-in skill library', () => {
  it('passes `oxo-flow ai skills validate` with no findings', () => {
    const r = runCliJson(['ai', 'skills', 'validate', BUILTIN_DIR]);
    expect(r.code, r.stderr).toBe(0);
    expect((r.json as any).statuses).toEqual({ ok: names.length });
    expect((r.json as any).diagnostics).toEqual([]);
  });

  it('every skill has metadata domain, primary_tool and tool_type, and a description that says when to use it', () => {
    const missing = parsed.filter((s) => !s.metadata?.domain || !s.metadata.primary_tool || !s.metadata.tool_type).map((s) => s.name);
    expect(missing).toEqual([]);
    const types = new Set(parsed.map((s) => s.metadata?.tool_type));
    expect([...types].filter((t) => !['cli', 'r-package', 'python-package', 'container', 'workflow'].includes(t!))).toEqual([]);
    expect(parsed.filter((s) => !/\buse\b/i.test(s.description ?? '')).map((s) => s.name)).toEqual([]);
  });

  it('holds at least 350 skills across at least 60 domains', () => {
    expect(names.length).toBeGreaterThanOrEqual(350);
    expect(new Set(parsed.map((s) => s.metadata?.domain)).size).toBeGreaterThanOrEqual(60);
  });

  it('every skill written for this library names its sources', () => {
    // Every skill names its sources: the tool's documentation, its paper, the nf-core module that runs it.
    const withSources = parsed.filter((s) => /^## Sources$/m.test(readFileSync(path.join(BUILTIN_DIR, s.name, 'SKILL.md'), 'utf8')));
    expect(withSources.map((s) => s.name)).toEqual(parsed.map((s) => s.name));
    for (const s of withSources) expect(readFileSync(path.join(BUILTIN_DIR, s.name, 'SKILL.md'), 'utf8'), s.name).toMatch(/## Sources\n(- .+\n)+/);
  });
});
