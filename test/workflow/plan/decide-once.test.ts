// The plan decides once, from files, times and the run state together: state reasons, removed temp
// outputs, the run's resource settings, and when each temp output may go.
import { describe, expect, it } from 'vitest';
import { jobHash, planWorkflow, tempOutputs, type JobSpec, type PlanSettings } from '../../../src/workflow/plan/index.js';
import { diskFs, makeWorkflow, tempDir, touch, type RuleInput } from '../../helpers/plan-workflow.js';

// raw → (temp) mid → final, and a second reader of mid.
const rules: RuleInput[] = [
  { name: 'make', input: ['raw.txt'], output: ['mid.txt'], tempOutput: ['mid.txt'], shell: 'cp {input} {output}' },
  { name: 'use', input: ['mid.txt'], output: ['final.txt'], shell: 'cp {input} {output}' },
  { name: 'other', input: ['mid.txt'], output: ['other.txt'], shell: 'cp {input} {output}' },
];

function plan(dir: string, settings: PlanSettings = {}, r = rules) {
  const result = planWorkflow(makeWorkflow({ rules: r, dir }), settings, diskFs);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.plan!;
}
const statusOf = (jobs: readonly JobSpec[]) => Object.fromEntries(jobs.map((j) => [j.id, `${j.status}: ${j.reason}`]));
/** Records as a finished run leaves them. */
const done = (jobs: readonly JobSpec[]) => new Map(jobs.map((j) => [j.id, { status: 'done', hash: jobHash(j) }]));

describe('one decision', () => {
  it('a removed temp output keeps its producer skipped until a running job needs it', () => {
    const dir = tempDir();
    touch(dir, 'raw.txt', 100);
    touch(dir, 'final.txt', 50);
    touch(dir, 'other.txt', 50);
    const records = done(plan(dir).jobs);
    expect(statusOf(plan(dir, { state: { records } }).jobs)).toEqual({ make: 'skip: up to date', use: 'skip: up to date', other: 'skip: up to date' });
    // A reader must run: the producer runs first, and the other reader follows it.
    const stale = plan(dir, { state: { records: new Map([...records, ['use', { status: 'failed', hash: '' }]]) } });
    expect(statusOf(stale.jobs)).toEqual({ make: 'run: outputs missing', use: 'run: incomplete', other: 'run: upstream will run' });
    expect(stale.jobs[0]!.detail).toBe('mid.txt (a removed temp_output) is needed by use');
    expect(stale.summary).toMatchObject({ run: 3, skip: 0 });
    // A newer raw input reaches through the removed temp file.
    touch(dir, 'raw.txt', 0);
    expect(statusOf(plan(dir, { state: { records } }).jobs)).toEqual({ make: 'run: outputs missing', use: 'run: upstream will run', other: 'run: upstream will run' });
  });

  it('a temp output that nobody reads is excused only once its job has finished, or unless it is a target', () => {
    const dir = tempDir();
    const lone: RuleInput[] = [{ name: 'scratch', output: ['s.tmp'], tempOutput: ['s.tmp'], shell: 'touch {output}' }];
    expect(statusOf(plan(dir, {}, lone).jobs)).toEqual({ scratch: 'run: never completed' });
    const records = done(plan(dir, {}, lone).jobs);
    expect(statusOf(plan(dir, { state: { records } }, lone).jobs)).toEqual({ scratch: 'skip: up to date' });
    expect(statusOf(plan(dir, { state: { records }, targets: ['s.tmp'] }, lone).jobs)).toEqual({ scratch: 'run: never completed' });
  });

  it('state reasons: forced, then incomplete, then command changed, before upstream', () => {
    const dir = tempDir();
    touch(dir, 'raw.txt', 100);
    touch(dir, 'mid.txt', 60);
    touch(dir, 'final.txt', 50);
    touch(dir, 'other.txt', 50);
    const records = done(plan(dir).jobs);
    const p = plan(dir, { state: { records: new Map([...records, ['other', { status: 'done', hash: 'old' }]]), forcerun: ['make'] } });
    expect(statusOf(p.jobs)).toEqual({ make: 'run: forced', use: 'run: upstream will run', other: 'run: command changed' });
    expect(p.summary.byReason).toMatchObject({ forced: 1, 'upstream will run': 1, 'command changed': 1 });
    expect(Object.keys(p.summary.byReason)[0]).toBe('never completed');
  });
});

describe('run settings in the plan', () => {
  const heavy: RuleInput[] = [{ name: 'big', output: ['o.txt'], threads: 8, memoryMb: 8192, memoryText: '8G', shell: 'echo {threads} {memory} > {output}' }];

  it('caps threads and memory with one notice each, renders the capped values, and keeps a hard minimum', () => {
    const dir = tempDir();
    const p = planWorkflow(makeWorkflow({ rules: heavy, dir }), { resources: { cores: 2, memoryMb: 1024 } }, diskFs);
    expect(p.diagnostics.map((d) => `${d.code} ${d.rule}`)).toEqual(['RUN015 big', 'RUN016 big']);
    const job = p.plan!.jobs[0]!;
    expect([job.threads, job.memoryMb, job.env.OXO_THREADS, job.env.OXO_MEMORY]).toEqual([2, 1024, '2', '1024M']);
    const hard = planWorkflow(makeWorkflow({ rules: [{ ...heavy[0]!, resources: { memoryHard: true } }], dir }), { resources: { cores: 2, memoryMb: 1024 } }, diskFs);
    expect(hard.diagnostics.map((d) => d.code)).toEqual(['RUN015']);
    expect(hard.plan!.jobs[0]!.memoryMb).toBe(8192);
    const set = planWorkflow(makeWorkflow({ rules: heavy, dir }), { resources: { cores: 16, threads: new Map([['big', 4]]), memory: new Map([['big', { mb: 2048, text: '2G' }]]) } }, diskFs);
    expect(set.diagnostics).toEqual([]);
    expect([set.plan!.jobs[0]!.threads, set.plan!.jobs[0]!.memory]).toEqual([4, '2G']);
  });

  it('capping and --set-threads are no changed command: the state compares the declared threads and memory', () => {
    const dir = tempDir();
    touch(dir, 'o.txt', 10);
    const capped = planWorkflow(makeWorkflow({ rules: heavy, dir }), { resources: { cores: 2, memoryMb: 1024 } }, diskFs).plan!;
    const records = done(capped.jobs);
    const wide = planWorkflow(makeWorkflow({ rules: heavy, dir }), { resources: { cores: 64 }, state: { records } }, diskFs).plan!;
    expect(statusOf(wide.jobs)).toEqual({ big: 'skip: up to date' });
    const set = planWorkflow(makeWorkflow({ rules: heavy, dir }), { resources: { cores: 64, threads: new Map([['big', 3]]) }, state: { records } }, diskFs).plan!;
    expect(statusOf(set.jobs)).toEqual({ big: 'skip: up to date' });
    expect(set.jobs[0]!.env.OXO_THREADS).toBe('3');
    // A changed command is still one.
    const changed = planWorkflow(makeWorkflow({ rules: [{ ...heavy[0]!, shell: 'echo {threads} > {output}' }], dir }), { resources: { cores: 2 }, state: { records } }, diskFs).plan!;
    expect(statusOf(changed.jobs)).toEqual({ big: 'run: command changed' });
  });

  it('--env none drops every environment, the default one included; auto asks per rule', () => {
    const dir = tempDir();
    const envRules: RuleInput[] = [
      { name: 'a', output: ['a.txt'], shell: 'x', environment: { kind: 'conda', spec: 'envs/a.yaml' } },
      { name: 'b', output: ['b.txt'], shell: 'x' },
    ];
    const defaults = { environment: { kind: 'docker' as const, spec: 'img' } };
    const none = planWorkflow(makeWorkflow({ rules: envRules, dir, defaults }), { environments: 'none' }, diskFs);
    expect(none.plan!.jobs.map((j) => j.environment)).toEqual([undefined, undefined]);
    expect(none.diagnostics).toEqual([]);
    const auto = planWorkflow(makeWorkflow({ rules: envRules, dir, defaults }), { environments: (e) => (e.kind === 'conda' ? 'conda is not installed' : undefined) }, diskFs);
    expect(auto.plan!.jobs.map((j) => j.environment?.kind)).toEqual([undefined, 'docker']);
    expect(auto.diagnostics.map((d) => `${d.code} ${d.rule}`)).toEqual(['RUN017 a']);
  });
});

describe('tempOutputs: when the runner removes each temp output', () => {
  const spec = (id: string, inputs: string[], outputs: string[], temp: string[], status: 'run' | 'skip' = 'run', targeted = false) =>
    ({ id, inputs, outputs, tempOutputs: temp, status, ...(targeted ? { targeted: true } : {}) }) as unknown as JobSpec;

  it('after the last reader of the run, at the end when nobody reads it, never when a reader failed or it is a target', () => {
    const t = tempOutputs([
      spec('p', [], ['a.tmp', 'b.tmp', 'lone.tmp'], ['a.tmp', 'b.tmp', 'lone.tmp']),
      spec('r1', ['a.tmp'], ['r1'], []),
      spec('r2', ['a.tmp', 'b.tmp'], ['r2'], []),
      spec('kept', [], ['k.tmp'], ['k.tmp'], 'run', true),
      spec('k1', ['k.tmp'], ['k1'], []),
    ]);
    expect(t.done('p')).toEqual([]);
    expect(t.done('r1')).toEqual([]);
    expect(t.done('r2')).toEqual(['a.tmp', 'b.tmp']);
    expect(t.done('kept')).toEqual([]);
    expect(t.done('k1')).toEqual([]);
    expect(t.atEnd()).toEqual(['lone.tmp']);
    // A reader that never finishes (failed) keeps its input.
    const failed = tempOutputs([spec('p', [], ['a.tmp'], ['a.tmp']), spec('r', ['a.tmp'], ['r'], [])]);
    expect(failed.done('p')).toEqual([]);
    expect(failed.atEnd()).toEqual([]);
    // A temp output of a skipped producer goes once this run's readers are done; never at the end.
    const old = tempOutputs([spec('p', [], ['a.tmp', 'z.tmp'], ['a.tmp', 'z.tmp'], 'skip'), spec('r', ['a.tmp'], ['r'], [])]);
    expect(old.done('r')).toEqual(['a.tmp']);
    expect(old.atEnd()).toEqual([]);
  });
});
