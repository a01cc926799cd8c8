// `oxo-flow init`, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the TypeScript sources).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

let work: string;
beforeEach(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'oxo-init-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('oxo-flow init', () => {
  it('creates a hello-world project named after the folder', async () => {
    const r = await runCli(['init', 'my-project'], { cwd: work });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('created my-project/ from template hello-world');
    const root = path.join(work, 'my-project');
    expect(readdirSync(root).sort()).toEqual(['.gitignore', 'README.md', 'data', 'main.oxoflow', 'results']);
    expect(statSync(path.join(root, 'data')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(root, 'main.oxoflow'), 'utf8')).toMatch(/^\[workflow\]\nname = "my-project"$/m);
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toMatch(/^# my-project\n/);
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8')).toMatch(/^results\/$/m);
    // Nothing left over from the staging folder.
    expect(readdirSync(work)).toEqual(['my-project']);
  });

  it('-t TEMPLATE copies its environments and writes its placeholder inputs', async () => {
    const r = await runCliJson(['init', 'rna', '-t', 'rnaseq-quant'], { cwd: work });
    expect(r.code).toBe(0);
    const root = path.join(work, 'rna');
    expect(r.json).toMatchObject({ project: 'rna', template: 'rnaseq-quant', path: root });
    const placeholders = r.json.placeholders as string[];
    expect(placeholders).toContain('data/kd_2_R2.fastq.gz');
    expect(placeholders).toContain('ref/transcripts.fa');
    for (const p of placeholders) expect(existsSync(path.join(root, p)), p).toBe(true);
    expect(readdirSync(path.join(root, 'envs')).sort()).toEqual(['fastp.yaml', 'multiqc.yaml', 'salmon.yaml']);
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('`data/ctrl_1_R1.fastq.gz`');
  });

  it('accepts an existing empty folder (keeping that folder itself) and a nested path', async () => {
    mkdirSync(path.join(work, 'empty'));
    const before = statSync(path.join(work, 'empty')).ino;
    expect((await runCli(['init', '.'], { cwd: path.join(work, 'empty') })).code).toBe(0);
    expect(readFileSync(path.join(work, 'empty', 'main.oxoflow'), 'utf8')).toContain('name = "empty"');
    expect(statSync(path.join(work, 'empty')).ino).toBe(before);
    expect(readdirSync(work)).toEqual(['empty']);
    expect((await runCli(['init', 'projects/deep/one'], { cwd: work })).code).toBe(0);
    expect(readFileSync(path.join(work, 'projects/deep/one/main.oxoflow'), 'utf8')).toContain('name = "one"');
  });

  it('refuses a non-empty folder (CLI021, exit 1) and changes nothing in it', async () => {
    mkdirSync(path.join(work, 'busy'));
    writeFileSync(path.join(work, 'busy', 'notes.txt'), 'keep me');
    const r = await runCli(['init', 'busy'], { cwd: work });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error CLI021: busy exists and is not empty');
    expect(readdirSync(path.join(work, 'busy'))).toEqual(['notes.txt']);
    const j = await runCliJson(['init', 'busy'], { cwd: work });
    expect(j.json).toMatchObject({ ok: false, exit_code: 1, created: false });
  });

  it('an unknown template or an unusable name is a usage error (exit 2) and creates nothing', async () => {
    const t = await runCli(['init', 'x', '-t', 'chip-seq'], { cwd: work });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('unknown template "chip-seq" (did you mean chipseq?)');
    const n = await runCli(['init', '-dash'], { cwd: work });
    expect(n.code).toBe(2);
    const bad = await runCli(['init', 'has space'], { cwd: work });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error CLI022');
    expect(readdirSync(work)).toEqual([]);
  });
});
