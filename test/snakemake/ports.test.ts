// Snakemake's own tests (its repository's tests/test*/ folders), ported to .oxoflow workflows: each
// folder here holds one main.oxoflow; this table holds what the Snakemake test starts from, how it is
// run, and its expected results. Each case runs through the built CLI in a folder whose name has a
// space, parentheses and a quote, checks the expected files byte for byte (and that the files
// Snakemake's test says must not exist do not), and checks that a second run does nothing (a case
// that must fail fails the same way again). Deliberate differences: docs/compatibility.md.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

interface Step {
  args: string[];
  code: 0 | 1;
  /** Codes that must be among the run's findings. */
  codes?: string[];
}

interface Case {
  /** The folder under test/snakemake/. */
  dir: string;
  /** The Snakemake test it ports (tests/<name>), and how that test runs it. */
  snakemake: string;
  given?: Record<string, string>;
  steps?: Step[];
  expected: Record<string, string>;
  absent?: string[];
  /** Arguments of the second run (default: the last step's). */
  again?: string[];
}

const IN = 'testz0r\n';
const part = (n: number) => `${IN}Part test.${n}.inter\n`;

const CASES: Case[] = [
  { dir: 'test01', snakemake: 'test01 (-j3)', given: { 'test.in': IN }, steps: [{ args: ['--cores', '3'], code: 0 }], expected: { 'dir/test.out': IN, 'test.inter': IN } },
  { dir: 'test02', snakemake: 'test02', given: { 'test.in': IN }, expected: { 'test.out': IN } },
  { dir: 'test03', snakemake: 'test03', given: { 'test.in': IN }, expected: { 'test.out': IN } },
  {
    dir: 'test05',
    snakemake: 'test05',
    given: { 'test.in': IN },
    expected: {
      'test.1.inter': part(1),
      'test.2.inter': part(2),
      'test.3.inter': part(3),
      'test.1.inter2': part(1),
      'test.2.inter2': part(2),
      'test.3.inter2': part(3),
      'test.predictions': part(1) + part(2) + part(3),
    },
  },
  { dir: 'test06', snakemake: 'test06', given: { 'test.in': IN }, expected: { 'test.bla.out': 'bla\n' } },
  { dir: 'test07', snakemake: 'test07 (targets test.out test2.out)', given: { 'test.in': IN }, steps: [{ args: ['test.out', 'test2.out'], code: 0 }], expected: { 'test.out': IN, 'test2.out': IN } },
  { dir: 'test08', snakemake: 'test08', given: { 'test.in': IN, 'test2.in': 'Hoi\n' }, expected: { 'test.out': IN, 'test2.out': 'Hoi\n' } },
  { dir: 'test09', snakemake: 'test09 (shouldfail)', given: { 'test.in': IN }, steps: [{ args: [], code: 1, codes: ['RUN020', 'RUN023'] }], expected: {}, absent: ['test.out', 'test.inter'] },
  {
    dir: 'test09_keep_going',
    snakemake: 'test09 with -k',
    given: { 'test.in': IN },
    steps: [{ args: ['-k'], code: 1, codes: ['RUN020', 'RUN023'] }],
    expected: { 'test2.out': IN },
    absent: ['test.out', 'test.inter'],
  },
  { dir: 'test10', snakemake: 'test10', given: { 'test.in': IN }, expected: { 'test.out': IN } },
  { dir: 'test12', snakemake: 'test12', given: { 'test.in': IN }, expected: { 'test.out': IN }, absent: ['test.inter'] },
  { dir: 'test13', snakemake: 'test13', given: { 'test.in': IN }, expected: { 'test.algo1-p7.out': 'algo1 / 7\n', 'test.algo1-p7-improved.out': 'algo1 / 7\nIMPROVED\n' } },
  {
    dir: 'test_temp',
    snakemake: 'test_temp (target test.realigned.bam)',
    given: { 'test.bam': '' },
    steps: [{ args: ['test.realigned.bam'], code: 0 }],
    expected: { 'test.realigned.bam': '' },
    absent: ['test.intervals', 'test.bam.bai'],
  },
  { dir: 'test_all_temp', snakemake: 'test_all_temp (--all-temp)', expected: { 'test2.txt': '' }, absent: ['test1.txt'] },
  {
    dir: 'test_until',
    snakemake: 'test_until (--until leveltwo_first leveltwo_second.txt second_wildcard)',
    steps: [{ args: ['leveltwo_first', 'leveltwo_second.txt', 'second_wildcard'], code: 0 }],
    expected: { 'levelone.txt': '', 'leveltwo_first.txt': '', 'leveltwo_second.txt': '', 'test1.second': '', 'test2.second': '' },
    absent: ['levelthree.txt', 'independent.txt', 'test1.final', 'test2.final'],
  },
  {
    dir: 'test_omitfrom',
    snakemake: 'test_omitfrom (--omit-from leveltwo_first leveltwo_second.txt second_wildcard)',
    steps: [{ args: ['--omit-from', 'leveltwo_first', '--omit-from', 'leveltwo_second.txt', '--omit-from', 'second_wildcard'], code: 0 }],
    expected: { 'independent.txt': '', 'levelone.txt': '', 'test1.first': '', 'test2.first': '' },
    absent: ['leveltwo_first.txt', 'leveltwo_second.txt', 'levelthree.txt', 'test1.second', 'test1.final', 'test2.final'],
  },
  { dir: 'test_params', snakemake: 'test_params', expected: { 'somedir/test.out': '' } },
  { dir: 'test_log_input', snakemake: 'test_log_input', expected: { 'test.a.txt': 'a\n' } },
  { dir: 'test_threads', snakemake: 'test_threads (cores=20)', steps: [{ args: ['--cores', '20'], code: 0 }], expected: { 'test.out': '20\n' } },
  { dir: 'test_threads', snakemake: 'test_threads_overwrite (-c20 --set-threads a=20)', steps: [{ args: ['--cores', '20', '--set-threads', 'a=20'], code: 0 }], expected: { 'test.out': '20\n' } },
  { dir: 'test_threads', snakemake: 'test_threads with -c2 (threads capped to the cores)', steps: [{ args: ['--cores', '2'], code: 0, codes: ['RUN015'] }], expected: { 'test.out': '2\n' } },
  { dir: 'test_set_threads', snakemake: 'test_set_threads (--set-threads a=5 -c 5)', given: { 'test.in': '' }, steps: [{ args: ['--cores', '5', '--set-threads', 'a=5'], code: 0 }], expected: { 'test.out': '5\n' } },
  { dir: 'test_multiext', snakemake: 'test_multiext', expected: { 'ref/genome.ann': '', 'ref/genome.bwt': '', 'ref/genome.sa': '' } },
  { dir: 'test_same_wildcard', snakemake: 'test_same_wildcard', given: { 'test_test.in': 'test\n' }, expected: { 'test_test.out': 'test\n' } },
  { dir: 'test_keyword_list', snakemake: 'test_keyword_list', given: { 'test.in1': '', 'test.in2': '' }, expected: { 'test.out': '' } },
  {
    dir: 'test_spaces_in_fnames',
    snakemake: 'test_spaces_in_fnames (target "test bam file realigned.bam")',
    given: { 'test bam file.bam': '' },
    steps: [{ args: ['test bam file realigned.bam'], code: 0 }],
    expected: { 'test bam file realigned.bam': '' },
    absent: ['test bam file.intervals', 'test bam file.bam.bai'],
  },
  { dir: 'test_retries', snakemake: 'test_retries', expected: { 'test.txt': 'test\n', attempts: '3\n' } },
  {
    dir: 'test_failed_intermediate',
    snakemake: 'test_failed_intermediate (fail=init, then true, then false)',
    steps: [
      { args: ['fail=init'], code: 0 },
      { args: ['fail=true'], code: 1, codes: ['RUN020'] },
      { args: ['fail=false'], code: 0 },
    ],
    expected: { 'test2.txt': 'false\n', 'test3.txt': 'false\n' },
  },
  { dir: 'test_temp_expand', snakemake: 'test_temp_expand', expected: { 'test.txt': '' }, absent: ['a.txt', 'b.txt', 'c.txt'] },
  { dir: 'test_default_target', snakemake: 'test_default_target', expected: { '1.txt': 'test\n', '2.txt': 'test\n' } },
  {
    dir: 'test_globwildcards',
    snakemake: 'test_globwildcards',
    given: { 'test.0.txt': '', 'test.1.txt': '', 'test.2.txt': '', 'test_a_a.txt': '', 'test_a_b.txt': '', 'test_b_b.txt': '' },
    expected: { 'test.0.out': '', 'test.1.out': '', 'test.2.out': '' },
  },
  { dir: 'test_directory', snakemake: 'test_directory (downstream, child_to_input, not_child_to_other)', given: { 'input_dir/child': '' }, expected: { 'child_to_input': '', 'some/dir-child': '', 'some/dir/some_file': '' } },
  {
    dir: 'test_directory_expecting_file',
    snakemake: 'test_directory (target dir_expecting_file, shouldfail)',
    steps: [{ args: [], code: 1, codes: ['RUN021'] }],
    expected: {},
    absent: ['is_a_dir'],
  },
  {
    dir: 'test_touch_pipeline_with_temp_dir',
    snakemake: 'test_touch_pipeline_with_temp_dir (forceall, touch)',
    given: { 'out.txt': 'tmp\n\n' },
    steps: [{ args: ['--touch', '--forcerun', 'make_input', '--forcerun', 'intermediate'], code: 0 }],
    expected: { 'out.txt': 'tmp\n\n' },
    absent: ['tmp.txt'],
    again: [],
  },
];

// A space, parentheses and a quote: every path a job sees must survive the shell.
const root = path.join(tempDir('oxo-snakemake-'), "snake (port) it's");
afterAll(() => rmSync(path.dirname(root), { recursive: true, force: true }));

const codesOf = (json: Record<string, unknown>) => ((json.diagnostics ?? []) as { code: string }[]).map((d) => d.code);

describe.each(CASES.map((c, i) => [c.snakemake, i] as const))('Snakemake %s', (_name, index) => {
  it('gives the expected results, and a second run does nothing', () => {
    const c = CASES[index]!;
    const dir = path.join(root, `${index}-${c.dir}`);
    mkdirSync(dir, { recursive: true });
    cpSync(path.join(__dirname, c.dir, 'main.oxoflow'), path.join(dir, 'main.oxoflow'));
    for (const [file, text] of Object.entries(c.given ?? {})) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const steps = c.steps ?? [{ args: [], code: 0 }];
    for (const step of steps) {
      const r = runCliJson(['run', ...step.args], { cwd: dir });
      expect(r.code, `${step.args.join(' ')}\n${r.stderr}\n${JSON.stringify(r.json.diagnostics)}`).toBe(step.code);
      for (const code of step.codes ?? []) expect(codesOf(r.json)).toContain(code);
    }
    for (const [file, text] of Object.entries(c.expected)) expect(readFileSync(path.join(dir, file), 'utf8'), file).toBe(text);
    for (const file of c.absent ?? []) expect(existsSync(path.join(dir, file)), `${file} must not exist`).toBe(false);

    const last = steps[steps.length - 1]!;
    const again = c.again ?? last.args;
    if (last.code === 0) {
      const dry = runCliJson(['dry-run', ...again.filter((a) => a !== '-k')], { cwd: dir });
      expect((dry.json.summary as { run: number }).run, JSON.stringify(dry.json.jobs)).toBe(0);
      const second = runCliJson(['run', ...again], { cwd: dir });
      expect(second.code).toBe(0);
      expect(second.json.jobs).toEqual([]);
    } else {
      // A failing case fails the same way again and still leaves nothing behind.
      const second = runCliJson(['run', ...again], { cwd: dir });
      expect(second.code).toBe(last.code);
      for (const file of c.absent ?? []) expect(existsSync(path.join(dir, file)), `${file} must not exist`).toBe(false);
    }
    for (const [file, text] of Object.entries(c.expected)) expect(readFileSync(path.join(dir, file), 'utf8'), file).toBe(text);
  }, 120_000);
});
