// Nothing fails silently (issue 18): an error in preparing, starting or recording a job fails that
// job with a code, and the run's exit code says so: a full disk (a 1 MB tmpfs), a state directory
// that cannot be written, a command over 128 KiB (spawn E2BIG), a file name too long. The state fails
// closed: a record that cannot be read makes its job rerun, with a notice, and leaks no temporaries.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

type Job = { id: string; outcome: string; code: string | null; message: string | null };
const jobs = (json: Record<string, unknown>) => Object.fromEntries((json.jobs as Job[]).map((j) => [j.id, j]));
const codes = (json: Record<string, unknown>) => (json.diagnostics as { code: string }[]).map((d) => d.code);

function project(rules: string, dir = tempDir('oxo-silent-')): string {
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "silent"\n\n${rules}`);
  return dir;
}

const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) spawnSync('umount', [m]);
});

describe('nothing fails silently', () => {
  it('a command over 128 KiB (E2BIG) fails its job with RUN042 and exit 1', () => {
    const dir = project(`[[rules]]\nname = "huge"\noutput = ["h.txt"]\nshell = "echo ${'x'.repeat(140 * 1024)} > h.txt"\n`);
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(jobs(r.json).huge).toMatchObject({ outcome: 'failed', code: 'RUN042' });
    expect(jobs(r.json).huge!.message).toContain('E2BIG');
  }, 60_000);

  it('a state directory that cannot be written fails the job with RUN042 and exit 1', () => {
    const dir = project(`[[rules]]\nname = "one"\noutput = ["o.txt"]\nshell = "echo o > o.txt"\n`);
    // A file where the records' directory belongs: even root cannot write there.
    mkdirSync(path.join(dir, '.oxo-flow', 'state'), { recursive: true });
    writeFileSync(path.join(dir, '.oxo-flow', 'state', 'jobs'), 'not a directory');
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(jobs(r.json).one).toMatchObject({ outcome: 'failed', code: 'RUN042' });
    expect(jobs(r.json).one!.message).toMatch(/record its start: (ENOTDIR|EEXIST)/);
    expect(existsSync(path.join(dir, 'o.txt'))).toBe(false);
  }, 60_000);

  it('an output whose file name is too long fails its job with a code', () => {
    const dir = project(`[[rules]]\nname = "long"\noutput = ["${'d'.repeat(300)}/x.txt"]\nshell = "echo x > {output}"\n`);
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(jobs(r.json).long).toMatchObject({ outcome: 'failed', code: 'RUN042' });
    expect(jobs(r.json).long!.message).toContain('ENAMETOOLONG');
  }, 60_000);

  it('a full disk (a 1 MB tmpfs) fails a job, exit 1, and leaves no temporary record files', (ctx) => {
    const mnt = tempDir('oxo-tmpfs-');
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]).status !== 0) {
      console.warn('skipped: cannot mount a tmpfs here (needs root)');
      ctx.skip();
    }
    mounts.push(mnt);
    const dir = project(
      `[[rules]]\nname = "fill"\noutput = ["f.txt"]\nshell = "echo f > f.txt; if [ ! -e filled ]; then touch filled; head -c 2000000 /dev/zero > filler 2>/dev/null; fi; true"\n\n[[rules]]\nname = "after"\ninput = ["f.txt"]\noutput = ["g.txt"]\nshell = "cp f.txt g.txt"\n`,
      mnt,
    );
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code).toBe(1);
    // fill's end record fits in the journal's block, which the disk had given it before it filled:
    // fill is done, and the next job, whose own writes find no space, fails with its code.
    expect(jobs(r.json).fill).toMatchObject({ outcome: 'done' });
    expect(jobs(r.json).after).toMatchObject({ outcome: 'failed', code: 'RUN020' });
    for (const sub of ['state', 'state/jobs']) expect(readdirSync(path.join(dir, '.oxo-flow', sub)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    rmSync(path.join(dir, 'filler'), { force: true });
    // Space again: the job was not trusted, so it runs again and everything completes.
    const again = runCliJson(['run'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'g.txt'), 'utf8')).toBe('f\n');
  }, 60_000);

  it('a record that cannot be read means its job reruns, with a notice (dry-run agrees)', () => {
    const dir = project(`[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a >> a.txt"\n\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "cat a.txt > b.txt"\n`);
    expect(runCliJson(['run'], { cwd: dir }).code).toBe(0);
    const record = path.join(dir, '.oxo-flow', 'state', 'jobs', `${createHash('sha256').update('a').digest('hex').slice(0, 32)}.json`);
    writeFileSync(record, '');
    const dry = runCliJson(['dry-run'], { cwd: dir });
    expect((dry.json.summary as { run: number }).run).toBe(2);
    const r = runCliJson(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(codes(r.json)).toContain('RUN043');
    expect(Object.keys(jobs(r.json)).sort()).toEqual(['a', 'b']);
    // Its outputs were removed before it ran again: the command appends, and there is one line.
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('a\n');
  }, 60_000);
});
