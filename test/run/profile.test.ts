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

  it('--profile FILE must exist; an unknown executor is refused, whatever the flag; flags win over the profile', () => {
    const dir = project();
    expect(runCliJson(['run', '--profile', 'nope.toml'], { cwd: dir }).code).toBe(2);
    writeFileSync(path.join(dir, 'site.toml'), 'executor = "condor"\n');
    for (const args of [['run', '--profile', 'site.toml'], ['run', '--profile', 'site.toml', '--executor', 'local'], ['dry-run', '--profile', 'site.toml']]) {
      const bad = runCliJson(args, { cwd: dir });
      expect(bad.code, args.join(' ')).toBe(2);
      expect(JSON.stringify(bad.json.diagnostics)).toContain('executor must be one of local, slurm, sge');
    }
    writeFileSync(path.join(dir, 'site.toml'), 'executor = "slurm"\n');
    const ok = runCliJson(['run', '--profile', 'site.toml', '--executor', 'local'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.executor).toBe('local');
  }, 60_000);

  it('a profile that chooses a cluster plans like --executor on a cluster: threads are not capped to this machine', () => {
    const dir = tempDir('oxo-profile-cap-');
    writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "p"\n\n[[rules]]\nname = "big"\noutput = ["o.txt"]\nthreads = 64\nshell = "echo {threads} > {output}"\n`);
    mkdirSync(path.join(dir, '.oxo-flow'));
    const plan = (args: string[]) => {
      const r = runCliJson(['dry-run', '--cores', '2', ...args], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const job = (r.json.jobs as { threads: number; command: string }[])[0]!;
      return { threads: job.threads, command: job.command, capped: JSON.stringify(r.json.diagnostics).includes('RUN015') };
    };
    expect(plan([])).toEqual({ threads: 2, command: 'echo 2 > o.txt', capped: true });
    writeFileSync(path.join(dir, '.oxo-flow/profile.toml'), 'executor = "slurm"\n');
    expect(plan([])).toEqual({ threads: 64, command: 'echo 64 > o.txt', capped: false });
    expect(plan(['--executor', 'sge'])).toEqual({ threads: 64, command: 'echo 64 > o.txt', capped: false });
    // The flag wins over the profile: planned for this machine again.
    expect(plan(['--executor', 'local'])).toEqual({ threads: 2, command: 'echo 2 > o.txt', capped: true });
  }, 60_000);
});
