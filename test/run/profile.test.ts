// The executor profile (.oxo-flow/profile.toml or --profile FILE): its defaults apply, flags win over
// it, and a bad setting is RUN045 (exit 2) naming the file and line, before anything starts.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

function project(): string {
  const dir = tempDir('oxo-profile-');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "p"\n\n[[rules]]\nname = "one"\noutput = ["o.txt"]\nshell = "echo o > o.txt"\n`);
  mkdirSync(path.join(dir, '.oxo-flow'));
  return dir;
}

type D = { code: string; message: string; file?: string; line?: number };

describe('the executor profile', () => {
  it('a misspelt setting is RUN045 with its line, and nothing runs', () => {
    const dir = project();
    writeFileSync(path.join(dir, '.oxo-flow/profile.toml'), 'jobs = 2\n\n[slurm]\npartition = "short"\npartiton = "long"\n');
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code).toBe(2);
    const d = (r.json.diagnostics as D[]).find((x) => x.code === 'RUN045')!;
    expect(d.message).toContain('slurm.partiton');
    expect(d.line).toBe(5);
    expect(d.file).toContain('profile.toml');
  }, 60_000);

  it('--profile FILE must exist; an unknown executor is refused; flags win over the profile', () => {
    const dir = project();
    expect(runCliJson(['run', '--profile', 'nope.toml'], { cwd: dir }).code).toBe(2);
    writeFileSync(path.join(dir, 'site.toml'), 'executor = "condor"\n');
    const bad = runCliJson(['run', '--profile', 'site.toml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(JSON.stringify(bad.json.diagnostics)).toContain('executor condor is not known');
    const ok = runCliJson(['run', '--profile', 'site.toml', '--executor', 'local'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.executor).toBe('local');
  }, 60_000);
});
