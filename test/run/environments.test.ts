// Environments: a missing backend program is RUN004 naming the rule before anything starts; venv
// puts its bin/ first on PATH; conda-style runners get the command once, as the argument of sh -c
// (a fake `conda` on PATH shows the exact argv it was given).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

function project(environment: string, shell: string): string {
  const dir = tempDir('oxo-env-');
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]\nname = "env"\n\n[[rules]]\nname = "tool_step"\noutput = ["out.txt"]\nshell = '''${shell}'''\n\n[rules.environment]\n${environment}\n`,
  );
  return dir;
}

function executable(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

const BARE_PATH = '/usr/bin:/bin';

describe('environments', () => {
  it('a missing backend program is RUN004, naming the rule, before anything starts', () => {
    for (const env of ['docker = "biocontainers/samtools:1.19"', 'singularity = "samtools.sif"', 'pixi = "pixi.toml"', 'modules = ["samtools/1.19"]']) {
      const dir = project(env, 'touch {output}');
      const r = runCliJson(['run'], { cwd: dir, env: { PATH: BARE_PATH, MODULESHOME: undefined } });
      expect(r.code, env).toBe(1);
      const d = (r.json.diagnostics as { code: string; message: string; rule?: string }[])[0]!;
      expect(d.code).toBe('RUN004');
      expect(d.message).toContain('rule tool_step');
      expect(existsSync(path.join(dir, 'out.txt'))).toBe(false);
    }
  }, 60_000);

  it('venv: the venv bin/ comes first on PATH; the job is up to date afterwards', () => {
    const dir = project('venv = ".venv"', 'greet > {output}');
    executable(path.join(dir, '.venv/bin/greet'), '#!/bin/sh\necho "hello from $VIRTUAL_ENV"\n');
    const r = runCliJson(['run'], { cwd: dir, env: { PATH: BARE_PATH } });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe(`hello from ${path.join(dir, '.venv')}\n`);
    // The recorded hash covers the environment, and so does the plan's (a job with an environment
    // once read as "command changed" after every run).
    const again = runCliJson(['dry-run'], { cwd: dir, env: { PATH: BARE_PATH } });
    expect((again.json.jobs as { status: string; reason: string }[]).map((j) => `${j.status} ${j.reason}`)).toEqual(['skip up to date']);
    // With the environment as a [defaults] entry, the same.
    writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "env"\n\n[defaults.environment]\nvenv = ".venv"\n\n[[rules]]\nname = "tool_step"\noutput = ["out.txt"]\nshell = "greet > {output}"\n`);
    expect(runCliJson(['run'], { cwd: dir, env: { PATH: BARE_PATH } }).code).toBe(0);
    const third = runCliJson(['dry-run'], { cwd: dir, env: { PATH: BARE_PATH } });
    expect((third.json.jobs as { status: string; reason: string }[]).map((j) => `${j.status} ${j.reason}`)).toEqual(['skip up to date']);
  }, 60_000);

  it('conda: `conda run -n NAME /bin/sh -c COMMAND`, the command passed once and intact', () => {
    const dir = project('conda = "bio"', `printf '%s|' "it's" 'a $HOME' > {output}`);
    // A stand-in conda: records its arguments, then runs what follows `-n NAME`.
    executable(
      path.join(dir, 'fakebin/conda'),
      '#!/bin/sh\nprintf "%s\\n" "$@" > conda-args.txt\nshift 4\nexec "$@"\n',
    );
    const r = runCliJson(['run'], { cwd: dir, env: { PATH: `${path.join(dir, 'fakebin')}:${BARE_PATH}` } });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'conda-args.txt'), 'utf8').split('\n').slice(0, 6)).toEqual([
      'run',
      '--no-capture-output',
      '-n',
      'bio',
      '/bin/sh',
      '-c',
    ]);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe("it's|a $HOME|");
  }, 60_000);
});
