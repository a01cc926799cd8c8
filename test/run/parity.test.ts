// Acceptance 1: on each disk state (eleven, then five temp and protected ones), the jobs `run`
// executes are exactly the jobs `dry-run --json` says will run. Each job also appends its id to a file, so "executed" is what the jobs did, not only
// what run reports.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateStore } from '../../src/run/state.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

const workflow = (mergeShell = 'cat {input} > {output}') => `[workflow]
name = "parity"

[config]
suffix = "x"

[[sample_groups]]
name = "all"
samples = ["S1", "S2", "S3"]

[[rules]]
name = "up"
input = ["raw/{sample}.txt"]
output = ["up/{sample}.txt"]
shell = "echo up:{sample} >> ran.txt; tr a-z A-Z < {input} > {output}"

[[rules]]
name = "tag"
input = ["up/{sample}.txt"]
output = ["tag/{sample}.txt"]
shell = "echo tag:{sample} >> ran.txt; cat {input} > {output}; echo {config.suffix} >> {output}"

[[rules]]
name = "merge"
input = ["tag/S1.txt", "tag/S2.txt", "tag/S3.txt"]
output = ["merged.txt"]
shell = "echo merge >> ran.txt; ${mergeShell}"
`;

function project(): string {
  const dir = tempDir('oxo-parity-');
  writeFileSync(path.join(dir, 'main.oxoflow'), workflow());
  mkdirSync(path.join(dir, 'raw'));
  for (const s of ['S1', 'S2', 'S3']) writeFileSync(path.join(dir, 'raw', `${s}.txt`), `${s.toLowerCase()}\n`);
  return dir;
}

/** dry-run's "will run" ids, then run's executed ids (from its JSON and from what the jobs wrote). */
function compare(dir: string, args: string[]): { planned: string[]; reported: string[]; executed: string[] } {
  const dry = runCliJson(['dry-run', ...args], { cwd: dir });
  expect(dry.code, dry.stderr).toBe(0);
  const planned = (dry.json.jobs as { id: string; status: string }[]).filter((j) => j.status === 'run').map((j) => j.id).sort();
  rmSync(path.join(dir, 'ran.txt'), { force: true });
  const r = runCliJson(['run', '-j', '2', ...args], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const reported = (r.json.jobs as { id: string; outcome: string }[]).filter((j) => j.outcome === 'done').map((j) => j.id).sort();
  const ranFile = path.join(dir, 'ran.txt');
  const executed = (existsSync(ranFile) ? readFileSync(ranFile, 'utf8').trim().split('\n') : [])
    .filter((l) => l !== '')
    .map((l) => (l === 'merge' ? 'merge' : l.replace(/^(\w+):(\w+)$/, '$1[sample=$2]')))
    .sort();
  return { planned, reported, executed };
}

function expectParity(dir: string, args: string[], expected: string[]): void {
  const { planned, reported, executed } = compare(dir, args);
  expect(planned).toEqual([...expected].sort());
  expect(reported).toEqual(planned);
  expect(executed).toEqual(planned);
}

const ALL = ['up[sample=S1]', 'up[sample=S2]', 'up[sample=S3]', 'tag[sample=S1]', 'tag[sample=S2]', 'tag[sample=S3]', 'merge'];

/** New content, written after every output so far: newer than all of them. */
function change(dir: string, file: string): void {
  writeFileSync(path.join(dir, file), `changed ${file}\n`);
}

describe('run and dry-run agree', () => {
  it('over a sequence of disk states', () => {
    const dir = project();
    // 1. a target subset on a fresh project: only what tag[S1] needs.
    expectParity(dir, ['-t', 'tag/S1.txt'], ['up[sample=S1]', 'tag[sample=S1]']);
    // 2. partial: the rest of the workflow.
    expectParity(dir, [], ALL.filter((id) => id !== 'up[sample=S1]' && id !== 'tag[sample=S1]'));
    // 3. up to date: nothing.
    expectParity(dir, [], []);
    // 4. a changed input: S2's chain and merge.
    change(dir, 'raw/S2.txt');
    expectParity(dir, [], ['up[sample=S2]', 'tag[sample=S2]', 'merge']);
    // 5. a changed config value (used by tag's command): every tag and merge.
    expectParity(dir, ['suffix=y'], ['tag[sample=S1]', 'tag[sample=S2]', 'tag[sample=S3]', 'merge']);
    // 6. the same override again: up to date, the state remembers the command that ran.
    expectParity(dir, ['suffix=y'], []);
    // 7. a deleted output: that job and everything downstream.
    rmSync(path.join(dir, 'up/S3.txt'));
    expectParity(dir, ['suffix=y'], ['up[sample=S3]', 'tag[sample=S3]', 'merge']);
    // 8. a changed command: merge only.
    writeFileSync(path.join(dir, 'main.oxoflow'), workflow('cat {input} | sort > {output}'));
    expectParity(dir, ['suffix=y'], ['merge']);
    // 9. a --samples subset with a changed input in and out of the subset.
    change(dir, 'raw/S1.txt');
    change(dir, 'raw/S3.txt');
    expectParity(dir, ['suffix=y', '--samples', 'S1,S2'], ['up[sample=S1]', 'tag[sample=S1]', 'merge']);
    // 10. --forcerun: every job of the rule and what follows.
    expectParity(dir, ['suffix=y', '--forcerun', 'tag'], ['up[sample=S3]', 'tag[sample=S1]', 'tag[sample=S2]', 'tag[sample=S3]', 'merge']);
    // 11. a job left `running` by a crashed runner, with outputs that look newer than its inputs.
    // (What a runner killed after the job's start record leaves: a `running` line in its journal.)
    const store = new StateStore(dir);
    const rec = store.records().get('tag[sample=S2]')!;
    store.write({ ...rec, status: 'running', startedAt: new Date().toISOString(), endedAt: undefined, pgid: undefined });
    expectParity(dir, ['suffix=y'], ['tag[sample=S2]', 'merge']);
    expectParity(dir, ['suffix=y'], []);
  }, 400_000);

  it('over temp and protected states', () => {
    // up's outputs are temp (removed once tag read them), tag's are protected.
    const dir = project();
    const text = workflow()
      .replace('output = ["up/{sample}.txt"]', 'temp_output = ["up/{sample}.txt"]')
      .replace('output = ["tag/{sample}.txt"]', 'protected_output = ["tag/{sample}.txt"]');
    writeFileSync(path.join(dir, 'main.oxoflow'), text);
    // 1. fresh; 2. up to date although every temp file is gone.
    expectParity(dir, [], ALL);
    expect(existsSync(path.join(dir, 'up', 'S1.txt'))).toBe(false);
    expectParity(dir, [], []);
    // 3. a deleted protected output: its temp input is made again, then it, then merge.
    rmSync(path.join(dir, 'tag', 'S1.txt'), { force: true });
    expectParity(dir, [], ['up[sample=S1]', 'tag[sample=S1]', 'merge']);
    // 4. a target subset whose temp input is gone: nothing; 5. --forcerun of the temp producer: it
    // and what follows, but the protected outputs would be remade: refused before anything starts.
    expectParity(dir, ['-t', 'tag/S2.txt'], []);
    const forced = runCliJson(['run', '--forcerun', 'up'], { cwd: dir });
    expect(forced.code).toBe(1);
    expect(JSON.stringify(forced.json.diagnostics)).toContain('RUN007');
    expectParity(dir, [], []);
  }, 400_000);

  it('dry-run names the state reasons', () => {
    const dir = project();
    expect(runCliJson(['run'], { cwd: dir }).code).toBe(0);
    const dry = runCliJson(['dry-run', 'suffix=z', '--forcerun', 'up'], { cwd: dir });
    const reasons = Object.fromEntries((dry.json.jobs as { id: string; reason: string }[]).map((j) => [j.id, j.reason]));
    expect(reasons['up[sample=S1]']).toBe('forced');
    expect(reasons['tag[sample=S1]']).toBe('command changed');
    expect(reasons.merge).toBe('upstream will run');
    const bad = runCliJson(['dry-run', '--forcerun', 'nope'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(JSON.stringify(bad.json.diagnostics)).toContain('RUN006');
  }, 60_000);
});
