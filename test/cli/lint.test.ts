// `oxo-flow lint`, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the TypeScript
// sources): counts, --strict, and errors from the checks included once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

let dir: string;
const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);
const tidyRule = 'description = "d"\nlog = "logs/a.log"\n[rules.environment]\ndocker = "img:1"\n';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'oxo-lint-'));
  write('clean.oxoflow', `[workflow]\nname = "c"\ndescription = "d"\nauthor = "a"\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output} 2> {log}"\n${tidyRule}`);
  write('warn.oxoflow', `[workflow]\nname = "w"\ndescription = "d"\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\n${tidyRule}`);
  write('info.oxoflow', `[workflow]\nname = "i"\ndescription = "d"\nauthor = "a"\n[[rules]]\nname = "a-b"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\n${tidyRule}`);
  write('error.oxoflow', `[workflow]\nname = "e"\ndescription = "d"\nauthor = "a"\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo hi > {output}"\ndepends_on = ["nope"]\n${tidyRule}`);
});

describe('oxo-flow lint', () => {
  it('passes a clean workflow with a zero summary', async () => {
    const r = await runCli(['lint', 'clean.oxoflow'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe('✓ clean.oxoflow — 0 errors, 0 warnings, 0 info');
  });

  it('passes with warnings, and fails on them with --strict', async () => {
    const r = await runCli(['lint', 'warn.oxoflow'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning W002');
    expect(r.stderr).toContain('0 errors, 1 warning, 0 info');
    const strict = await runCli(['lint', '--strict', 'warn.oxoflow'], { cwd: dir });
    expect(strict.code).toBe(1);
  });

  it('never fails on info, even with --strict', async () => {
    const r = await runCli(['lint', '--strict', 'info.oxoflow'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('info W006');
  });

  it('includes check errors once and fails', async () => {
    const r = await runCliJson(['lint', 'error.oxoflow'], { cwd: dir });
    expect(r.code).toBe(1);
    const codes = (r.json.diagnostics as { code: string }[]).map((d) => d.code);
    expect(codes.filter((c) => c === 'E007')).toHaveLength(1);
    expect(r.json).toMatchObject({ command: 'lint', strict: false, passed: false, counts: { error: 1 } });
  });

  it('exits 2 on unreadable input and still prints JSON', async () => {
    const r = await runCliJson(['lint', 'missing.oxoflow'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ ok: false, exit_code: 2 });
  });
});
