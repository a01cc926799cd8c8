// `oxo-flow template`, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the TypeScript sources).
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

const templatesDir = path.resolve(__dirname, '../../templates');
let work: string;
beforeEach(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'oxo-template-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('oxo-flow template (list)', () => {
  it('lists names and descriptions on stderr, nothing on stdout', async () => {
    const r = await runCli(['template'], { cwd: work });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/rnaseq-quant\s+paired-end RNA-seq/);
    expect(r.stderr).toMatch(/tumor-normal\s+somatic calling/);
    expect(r.stderr).toContain('(5 rules)');
  });

  it('--json gives {templates:[{name, description, rules}]} with real rule counts', async () => {
    const r = await runCliJson(['template'], { cwd: work });
    expect(r.code).toBe(0);
    const templates = r.json.templates as { name: string; description: string; rules: number }[];
    expect(templates.length).toBeGreaterThanOrEqual(10);
    for (const t of templates) {
      const text = readFileSync(path.join(templatesDir, `${t.name}.oxoflow`), 'utf8');
      expect(t.rules).toBe(text.match(/^\[\[rules\]\]$/gm)!.length);
      expect(t.description.length).toBeGreaterThan(10);
    }
    expect(r.json).toMatchObject({ command: 'template', ok: true, exit_code: 0 });
  });
});

describe('oxo-flow template NAME', () => {
  it('writes ./<name>.oxoflow byte for byte, and nothing else', async () => {
    const r = await runCli(['template', 'chipseq'], { cwd: work });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('wrote chipseq.oxoflow');
    expect(readFileSync(path.join(work, 'chipseq.oxoflow'), 'utf8')).toBe(readFileSync(path.join(templatesDir, 'chipseq.oxoflow'), 'utf8'));
    expect(readdirSync(work)).toEqual(['chipseq.oxoflow']);
  });

  it('-o names the file, or a folder to write <name>.oxoflow into', async () => {
    expect((await runCli(['template', 'hello-world', '-o', 'pipeline.oxoflow'], { cwd: work })).code).toBe(0);
    expect(readFileSync(path.join(work, 'pipeline.oxoflow'), 'utf8')).toContain('name = "hello-world"');
    mkdirSync(path.join(work, 'wf'));
    const r = await runCliJson(['template', 'file-chain', '-o', 'wf'], { cwd: work });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ template: 'file-chain', path: path.join(work, 'wf', 'file-chain.oxoflow'), rules: 3, written: true });
  });

  it('never overwrites an existing file without --force (CLI004, exit 1), and leaves it untouched', async () => {
    const target = path.join(work, 'rnaseq-quant.oxoflow');
    writeFileSync(target, 'my own work\n');
    const r = await runCli(['template', 'rnaseq-quant'], { cwd: work });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error CLI004');
    expect(r.stderr).toContain('pass --force');
    expect(readFileSync(target, 'utf8')).toBe('my own work\n');
    const j = await runCliJson(['template', 'rnaseq-quant'], { cwd: work });
    expect(j.code).toBe(1);
    expect(j.json).toMatchObject({ ok: false, exit_code: 1, written: false });
    expect((j.json.diagnostics as { code: string }[])[0]!.code).toBe('CLI004');

    const forced = await runCli(['template', 'rnaseq-quant', '--force'], { cwd: work });
    expect(forced.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toContain('name = "rnaseq-quant"');
    expect(readdirSync(work)).toEqual(['rnaseq-quant.oxoflow']);
  });

  it('an unknown name is a usage error (exit 2) with "did you mean" and the list', async () => {
    const r = await runCli(['template', 'rnaseq'], { cwd: work });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error CLI020: unknown template "rnaseq" (did you mean rnaseq-quant?)');
    expect(r.stderr).toContain('hello-world, file-chain');
    const j = await runCliJson(['template', 'qwertyuiop'], { cwd: work });
    expect(j.code).toBe(2);
    expect(j.json).toMatchObject({ ok: false, exit_code: 2, suggestion: null });
    expect(j.json.templates).toContain('chipseq');
    expect(readdirSync(work)).toEqual([]);
  });

  it('a folder that does not exist is a clear CLI005, not a crash', async () => {
    const r = await runCli(['template', 'hello-world', '-o', 'no/such/dir/x.oxoflow'], { cwd: work });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error CLI005');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
