// `oxo-flow validate` on real files in a temp directory, run in-process (runInProcess, imported as
// runCli: src/cli/main.ts on the TypeScript sources; test/cli/built-cli.test.ts spawns the built CLI).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

let dir: string;
const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'oxo-validate-'));
  write('good.oxoflow', '[workflow]\nname = "g"\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "cp {input} {output}"\n');
  write('typo.oxoflow', '[workflow]\nname = "t"\n[config]\nreference = "r.fa"\n[[rules]]\nname = "a"\noutput = ["o"]\nshell = "cat {config.refernce} > {output}"\n');
  write('syntax.oxoflow', '[workflow]\nname = "s\n');
  write('cycle.oxoflow', '[workflow]\nname = "c"\n[[rules]]\nname = "a"\ninput = ["b.txt"]\noutput = ["a.txt"]\nshell = "x"\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "x"\n');
});

describe('oxo-flow validate', () => {
  it('prints a one-line verdict and exits 0 for a valid workflow', async () => {
    const r = await runCli(['validate', 'good.oxoflow'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe('✓ good.oxoflow — 2 rules');
    expect(r.stdout).toBe('');
  });

  it('refuses a FIFO as the workflow (CLI003, exit 2) instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(dir, 'pipe.oxoflow')]);
    const r = await runCli(['validate', 'pipe.oxoflow'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error CLI003: cannot read workflow pipe.oxoflow: it is not a regular file');
  });

  it('without a file argument and no .oxoflow choice, exits 2 with CLI002', async () => {
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CLI002');
  });

  it('reports E005 with file:line:col, a caret and the suggestion, and exits 1', async () => {
    const r = await runCli(['validate', 'typo.oxoflow'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('typo.oxoflow:8:14: error E005: {config.refernce} is not defined in [config] (did you mean reference?)');
    expect(r.stderr).toMatch(/\n\s+\|\s+\^/);
    expect(r.stderr).toContain('✗ typo.oxoflow — 1 error');
  });

  it('exits 2 for a TOML syntax error, with the position', async () => {
    const r = await runCli(['validate', 'syntax.oxoflow'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/syntax\.oxoflow:2:\d+: error E000: TOML syntax error/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('exits 2 for a missing file', async () => {
    expect((await runCli(['validate', 'nope.oxoflow'], { cwd: dir })).code).toBe(2);
  });

  it('reports a cycle as E006 (the DAG check runs after the format checks pass)', async () => {
    const r = await runCliJson(['validate', 'cycle.oxoflow'], { cwd: dir });
    expect(r.code).toBe(1);
    const diags = r.json.diagnostics as { code: string; message: string }[];
    expect(diags.map((d) => d.code)).toContain('E006');
  });

  it('--json gives one document with workflow, valid, rules and the envelope, on success and failure', async () => {
    const ok = await runCliJson(['validate', 'good.oxoflow'], { cwd: dir });
    expect(ok.json).toMatchObject({ schema_version: 1, command: 'validate', ok: true, exit_code: 0, workflow: 'good.oxoflow', valid: true, rules: 2, diagnostics: [] });
    const bad = await runCliJson(['validate', 'typo.oxoflow'], { cwd: dir });
    expect(bad.json).toMatchObject({ ok: false, exit_code: 1, valid: false, counts: { error: 1, warning: 0, info: 0 } });
    expect((bad.json.diagnostics as object[])[0]).toMatchObject({ code: 'E005', severity: 'error', file: 'typo.oxoflow', line: 8, column: 14, rule: 'a' });
    const syntax = await runCliJson(['validate', 'syntax.oxoflow'], { cwd: dir });
    expect(syntax.json).toMatchObject({ ok: false, exit_code: 2, valid: false });
    expect(syntax.stderr).toBe('');
  });
});
