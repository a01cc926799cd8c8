// The small pure parts of the run record and the report: /proc stat lines, versions.yml, sacct rows,
// TSV cells and rows, the recorder's ISO times, the report's slot assignment for records without slots, and the page's escaping.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStat } from '../../src/run/record/proc.js';
import { parseVersionsYml } from '../../src/run/record/provenance.js';
import { parseSacct } from '../../src/run/record/recorder.js';
import { ResourceSampler } from '../../src/run/record/sampler.js';
import { loadRun } from '../../src/run/record/store.js';
import { isoTime } from '../../src/run/record/iso-time.js';
import { TRACE_COLUMNS, traceHeader, traceLine, tsvCell } from '../../src/run/record/types.js';
import { buildReport } from '../../src/report/data.js';
import { renderHtml } from '../../src/report/html.js';
import { tempDir } from '../helpers/plan-workflow.js';

describe('the run record\'s text', () => {
  it('isoTime writes what Date#toISOString writes, across seconds and for every millisecond width', () => {
    const base = Date.UTC(2026, 11, 31, 23, 59, 58);
    for (const ms of [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1999, 2000, 2005]) expect(isoTime(base + ms)).toBe(new Date(base + ms).toISOString());
    // Back in time (a clock set back) and a fraction of a millisecond.
    expect(isoTime(base - 1)).toBe(new Date(base - 1).toISOString());
    expect(isoTime(base + 0.5)).toBe(new Date(base + 0.5).toISOString());
  });

  it('a trace.tsv row has one cell per column, in the header\'s order, escaped', () => {
    const row = {
      id: 'align[s=a]', rule: 'align', wildcards: { s: 'a', lane: '2' }, outcome: 'failed', attempts: 2, exitCode: null, signal: 'SIGKILL', message: 'x',
      startedAt: '2026-12-01T21:15:30.042Z', endedAt: '2026-12-01T21:15:31.500Z', wallSeconds: 1.4581234, cpuUserSeconds: 0.01, cpuSystemSeconds: null,
      peakRssBytes: 1234567, readBytes: 0, writtenBytes: 99, cpuMethod: 'exact', executor: 'slurm', executorId: '77', slot: 1,
      slurm: { state: 'FAILED', elapsed: '00:00:01', maxRss: '1024K' }, log: 'l.log', ruleLog: 'logs/a\tb', command: 'printf "a\\n"\n| cat',
    };
    const cells = traceLine(row).replace(/\n$/, '').split('\t');
    expect(traceHeader()).toBe(`${TRACE_COLUMNS.join('\t')}\n`);
    expect(Object.fromEntries(TRACE_COLUMNS.map((name, i) => [name, cells[i]]))).toEqual({
      id: 'align[s=a]', rule: 'align', wildcards: 's=a,lane=2', outcome: 'failed', attempts: '2', exit: 'SIGKILL', start: '2026-12-01T21:15:30.042Z', end: '2026-12-01T21:15:31.500Z',
      wall_s: '1.458', cpu_user_s: '0.01', cpu_sys_s: '', peak_rss_bytes: '1234567', read_bytes: '0', written_bytes: '99', cpu_method: 'exact', executor: 'slurm', executor_id: '77',
      slurm_state: 'FAILED', slurm_elapsed: '00:00:01', slurm_total_cpu: '', slurm_max_rss: '1024K', log: 'l.log', rule_log: 'logs/a\\tb', command: 'printf "a\\\\n"\\n| cat',
    });
    expect(cells).toHaveLength(TRACE_COLUMNS.length);
  });
});

describe('/proc/<pid>/stat', () => {
  it('reads fields after the last parenthesis, whatever the command name holds', () => {
    const line = '4242 (we ird) (name) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 30 7 3 20 0 1 0 12345 1000 200 18446744073709551615';
    expect(parseStat(4242, line)).toEqual({ pid: 4242, ppid: 1, pgrp: 4242, utime: 150, stime: 30, cutime: 7, cstime: 3, zombie: false });
    expect(parseStat(1, '1 (x) Z 0 1 1 0 -1 0 0 0 0 0 1 2 3 4')?.zombie).toBe(true);
    expect(parseStat(1, 'garbage')).toBeUndefined();
  });

  it('a sampler without /proc reports nothing and never throws', () => {
    const s = new ResourceSampler({ enabled: false });
    s.begin('a#1', 123);
    expect(s.end('a#1')).toMatchObject({ userSeconds: null, peakRssBytes: null, cpuMethod: 'none' });
    s.close();
  });
});

describe('versions.yml', () => {
  it('reads MultiQC-style process → tool → version maps', () => {
    expect(parseVersionsYml('"NFCORE:FASTQC":\n    fastqc: 0.11.9\n# note\nSAMTOOLS:\n  samtools: "1.16"\n  htslib: 1.16 # bundled\n')).toEqual({
      'NFCORE:FASTQC': { fastqc: '0.11.9' },
      SAMTOOLS: { samtools: '1.16', htslib: '1.16' },
    });
  });

  it('rejects what is not one', () => {
    expect(parseVersionsYml('just text')).toBeUndefined();
    expect(parseVersionsYml('  indented: first\n')).toBeUndefined();
    expect(parseVersionsYml('a: 1\n')).toBeUndefined();
    expect(parseVersionsYml('')).toBeUndefined();
  });
});

describe('sacct', () => {
  it('takes state, elapsed and CPU from the job line and the largest MaxRSS of its steps', () => {
    const out = parseSacct('41|COMPLETED|00:00:05|00:03.200||0:0\n41.batch|COMPLETED|00:00:05|00:03.100|12044K|0:0\n41.0|COMPLETED|00:00:04|00:00.1|2M|0:0\n42|FAILED|00:00:01|||1:0\n');
    expect(out.get('41')).toEqual({ state: 'COMPLETED', elapsed: '00:00:05', totalCpu: '00:03.200', exitCode: '0:0', maxRss: '12044K' });
    expect(out.get('42')).toEqual({ state: 'FAILED', elapsed: '00:00:01', exitCode: '1:0' });
  });
});

describe('trace.tsv', () => {
  it('keeps every row on one line', () => {
    expect(tsvCell('a\tb\nc\\d')).toBe('a\\tb\\nc\\\\d');
    expect(tsvCell(null)).toBe('');
  });
});

function record(dir: string, rows: object[], jobs: object[]): string {
  const rec = path.join(dir, '.oxo-flow', 'runs', '20260101-000000-0001');
  mkdirSync(rec, { recursive: true });
  writeFileSync(path.join(rec, 'jobs.json'), JSON.stringify(jobs));
  writeFileSync(path.join(rec, 'trace.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n{"cut short`);
  const meta = {
    version: 1, id: '20260101-000000-0001', status: 'ok', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:10.000Z', exitCode: 0, oxoFlowVersion: '0.1.0',
    workflow: { name: 'w</script><b>', file: 'main.oxoflow', sha256: '0' }, config: {}, sampleSheets: [], commandLine: ['run'], host: { name: 'h', platform: 'linux', arch: 'x64', cpus: 1, memoryBytes: 1, node: 'v20' },
    pid: 1, cwd: dir, executor: 'local', environments: [], tools: [], versionsFiles: [], counts: { planned: 3, toRun: 3, done: 3, failed: 0, blocked: 0, interrupted: 0, notStarted: 0 },
  };
  writeFileSync(path.join(rec, 'run.json'), JSON.stringify(meta));
  return rec;
}

describe('report data', () => {
  const row = (id: string, rule: string, start: number, end: number) => ({
    id, rule, wildcards: {}, outcome: 'done', attempts: 1, exitCode: 0, signal: null, message: null, startedAt: new Date(Date.parse('2026-01-01T00:00:00Z') + start).toISOString(),
    endedAt: new Date(Date.parse('2026-01-01T00:00:00Z') + end).toISOString(), wallSeconds: (end - start) / 1000, cpuUserSeconds: 1, cpuSystemSeconds: 0, peakRssBytes: 10, readBytes: 0, writtenBytes: 0,
    cpuMethod: 'exact', executor: 'local', executorId: '1', slot: null, log: '', ruleLog: null, command: 'x',
  });
  const job = (id: string, rule: string, dependsOn: string[], level: number) => ({ id, rule, wildcards: {}, dependsOn, level, status: 'run', reason: 'never completed', threads: 1, command: 'x', log: '' });

  it('gives slots to records without them (overlapping jobs get different lanes), skips a cut-short line, layers rules', () => {
    const dir = tempDir('oxo-report-unit-');
    const rec = record(dir, [row('a1', 'a', 0, 5000), row('a2', 'a', 1000, 3000), row('b', 'b', 5000, 9000)], [job('a1', 'a', [], 0), job('a2', 'a', [], 0), job('b', 'b', ['a1', 'a2'], 1), job('c', 'c', ['b'], 2)]);
    const data = buildReport(loadRun(rec)!);
    expect(data.jobs.map((j) => [j.id, j.slot, j.state])).toEqual([
      ['a1', 0, 'done'],
      ['a2', 1, 'done'],
      ['b', 1, 'done'], // the lane that freed first
      ['c', null, 'not started'],
    ]);
    expect(data.slots).toBe(2);
    expect(data.rules.map((r) => [r.name, r.layer, r.state])).toEqual([
      ['a', 0, 'done'],
      ['b', 1, 'done'],
      ['c', 2, 'not started'],
    ]);
    expect(data.ruleEdges).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(data.jobs[2]!.deps).toEqual([0, 1]);
    // A name that tries to close the data script stays inside it.
    const html = renderHtml(data);
    expect(html).not.toContain('</script><b>');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(traceLine(row('a1', 'a', 0, 1) as never).split('\t').length).toBeGreaterThan(20);
  });
});
