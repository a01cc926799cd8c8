// The .gitignore that `init` writes keeps the run state out of git but not the project's own skills
// (`oxo-flow ai skills new` writes them under .oxo-flow/skills/); ai.toml may hold a key and stays ignored: checked with git itself.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCli } from '../helpers/run-cli.js';

describe('init .gitignore', () => {
  it('ignores .oxo-flow/ state and logs, and keeps project skills', () => {
    const work = tempDir('oxo-gitignore-');
    expect(runCli(['init', 'proj'], { cwd: work }).code).toBe(0);
    const dir = path.join(work, 'proj');
    expect(spawnSync('git', ['init', '-q'], { cwd: dir }).status).toBe(0);
    const made = runCli(['ai', 'skills', 'new', 'my-qc'], { cwd: dir });
    expect(made.code, made.stderr).toBe(0);
    expect(runCli(['run'], { cwd: dir }).code).toBe(0);
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8' }).stdout;
    const files = status.split('\n').filter((l) => l !== '').map((l) => l.slice(3));
    expect(files.some((f) => f === '.oxo-flow/skills/my-qc.skill.toml')).toBe(true);
    expect(files.filter((f) => f.startsWith('.oxo-flow/') && !f.startsWith('.oxo-flow/skills/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('results/') || f.startsWith('logs/'))).toEqual([]);
  }, 60_000);
});
