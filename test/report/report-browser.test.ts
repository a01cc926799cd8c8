// Issue 20, acceptances 1 and 2: a real run of examples/variant-calling (fastp, bwa, samtools,
// bcftools, multiqc) writes a run record with traces and tool versions; its report opens in headless
// chromium from a file:// URL, makes no request but the document itself, shows every job in the
// table and the timeline, draws the rule graph and, on demand, the job graph; a screenshot is saved
// in the test's temp dir. A synthetic 10,000-job record makes a report under 5 MB that still draws.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, visit } from '../helpers/chromium.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools, toolsRequired } from '../helpers/tools.js';
import { CLIENT_SCRIPT } from '../../src/report/client-script.js';
import { STYLES } from '../../src/report/styles.js';

const EXAMPLE = path.resolve(__dirname, '../../examples/variant-calling');
const tools = requireTools(['fastp', 'bwa', 'samtools', 'bcftools', 'multiqc', 'chromium'], 'apt-get install fastp bwa samtools bcftools multiqc chromium (or run under CI=true to make this a failure)');
const noBrowser = CHROMIUM === undefined && !toolsRequired();

/** What the test asks the page once it has loaded (and after a click on "Show jobs"). */
const PROBE = `new Promise((done) => {
  const wait = () => (document.documentElement.getAttribute('data-ready') ? done(probe()) : setTimeout(wait, 50));
  const probe = () => {
  const q = (s) => Array.from(document.querySelectorAll(s));
  const out = {
    ready: document.documentElement.getAttribute('data-ready'),
    status: document.getElementById('run-status').textContent,
    rows: q('#job-table tbody tr').map((r) => r.getAttribute('data-job')),
    bars: q('#gantt rect.bar').map((r) => r.getAttribute('data-job')),
    ruleNodes: q('#dag-rules .dag-node').map((g) => g.getAttribute('data-rule')),
    cpuDots: q('#cpu-plot circle').length,
    rssDots: q('#rss-plot circle').length,
    tools: q('#tools tbody tr').map((r) => r.textContent),
    failuresFirst: q('section').map((s) => s.id).indexOf('failures'),
  };
  document.getElementById('show-jobs').click();
  out.jobNodes = q('#dag-jobs .dag-job').length;
  document.getElementById('show-jobs').click();
  return out;
  };
  wait();
})`;

interface Probe {
  ready: string;
  status: string;
  rows: string[];
  bars: string[];
  ruleNodes: string[];
  cpuDots: number;
  rssDots: number;
  tools: string[];
  failuresFirst: number;
  jobNodes: number;
}

describe('the page scripts', () => {
  it('are ASCII (the launcher reads bundles as latin1; esbuild cannot escape inside String.raw)', () => {
    expect(/^[\x00-\x7f]*$/.test(CLIENT_SCRIPT)).toBe(true);
    expect(/^[\x00-\x7f]*$/.test(STYLES)).toBe(true);
  });
});

describe.skipIf(tools.skip)('report of a real run of examples/variant-calling, in headless chromium', () => {
  it('records the run and opens offline with every job drawn', async () => {
    expect(tools.missing, 'tools missing under CI=true').toEqual([]);
    const dir = tempDir('oxo-report-vc-');
    expect(spawnSync(process.execPath, [path.join(EXAMPLE, 'make-data.mjs'), dir]).status).toBe(0);
    const run = runCliJson(['run', path.join(EXAMPLE, 'main.oxoflow'), '--configfile', 'config.toml', '-j', '2'], { cwd: dir, timeoutMs: 280_000 });
    expect(run.code, run.stderr).toBe(0);
    const jobs = run.json.jobs as { id: string; trace: { cpuUserSeconds: number | null; peakRssBytes: number | null; slot: number; startedAt: string } }[];
    expect(jobs).toHaveLength(15);
    for (const j of jobs) {
      expect(j.trace.cpuUserSeconds, j.id).not.toBeNull();
      expect([0, 1]).toContain(j.trace.slot);
    }
    // fastp and bwa run long enough to be sampled: their memory is known.
    expect(jobs.filter((j) => j.trace.peakRssBytes !== null).length).toBeGreaterThan(0);
    const rec = path.join(dir, run.json.record as string);
    const meta = JSON.parse(readFileSync(path.join(rec, 'run.json'), 'utf8'));
    expect(meta.tools.map((t: { rule: string; version: string }) => [t.rule, t.version])).toEqual([
      ['index_reference', expect.stringMatching(/^Version: 0\.7/)],
      ['fastp', expect.stringMatching(/^fastp \d/)],
      ['align', expect.stringMatching(/^samtools \d/)],
      ['call', expect.stringMatching(/^bcftools \d/)],
      ['multiqc', expect.stringMatching(/version/)],
    ]);
    expect(readFileSync(path.join(rec, 'trace.tsv'), 'utf8').trimEnd().split('\n')).toHaveLength(16);

    const rep = runCliJson(['report', '-o', 'report.html'], { cwd: dir });
    expect(rep.code, rep.stderr).toBe(0);
    const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
    // Nothing that could be fetched: no URL other than the SVG namespace name.
    expect(html.match(/(?:https?|ftp):\/\/[^\s"'<>)]+/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg') ?? []).toEqual([]);
    const shot = path.join(dir, 'report.png');
    const seen = await visit(`file://${path.join(dir, 'report.html')}`, { expression: PROBE, screenshot: shot });
    expect(seen.requests).toEqual([`file://${path.join(dir, 'report.html')}`]);
    const p = seen.value as Probe;
    expect(p.ready).toBe('1');
    expect(p.status).toBe('succeeded');
    expect([...p.rows].sort()).toEqual(jobs.map((j) => j.id).sort());
    expect([...p.bars].sort()).toEqual(jobs.map((j) => j.id).sort());
    expect(p.ruleNodes.sort()).toEqual(['align', 'call', 'fastp', 'index_bam', 'index_reference', 'joint_call', 'multiqc']);
    expect(p.jobNodes).toBe(15);
    expect(p.cpuDots).toBeGreaterThan(0);
    expect(p.tools.some((t) => t.includes('bcftools'))).toBe(true);
    expect(p.failuresFirst).toBe(-1);
    const png = readFileSync(shot);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(20_000);
  }, 600_000);
});

/** A record of 10,000 jobs written directly (no run needed): a → b → c chains and one final merge. */
function syntheticRecord(dir: string, failed: number): void {
  const id = '20260101-000000-beef';
  const rec = path.join(dir, '.oxo-flow', 'runs', id);
  mkdirSync(rec, { recursive: true });
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const planned: Record<string, unknown>[] = [];
  const rows: string[] = [];
  const n = 3333;
  let clock = 0;
  const add = (jobId: string, rule: string, dependsOn: string[], level: number, i: number) => {
    planned.push({ id: jobId, rule, wildcards: { sample: `s${i}` }, dependsOn, level, status: 'run', reason: 'never completed', threads: 1, command: `tool --sample s${i} > out/${rule}/s${i}.txt`, log: `.oxo-flow/logs/${jobId}.log` });
    const start = t0 + clock;
    clock += 50;
    const outcome = rule === 'b' && i < failed ? 'failed' : 'done';
    rows.push(
      JSON.stringify({
        id: jobId, rule, wildcards: { sample: `s${i}` }, outcome, attempts: 1, exitCode: outcome === 'done' ? 0 : 1, signal: null, message: outcome === 'done' ? null : 'exit 1',
        startedAt: new Date(start).toISOString(), endedAt: new Date(start + 90).toISOString(), wallSeconds: 0.09, cpuUserSeconds: 0.05 + (i % 7) / 100, cpuSystemSeconds: 0.01,
        peakRssBytes: 1e6 + i * 1000, readBytes: 4096, writtenBytes: 4096, cpuMethod: 'exact', executor: 'local', executorId: String(10000 + i), slot: i % 2,
        log: `.oxo-flow/logs/${jobId}.log`, ruleLog: null, command: `tool --sample s${i}`,
      }),
    );
  };
  for (let i = 0; i < n; i++) add(`a[sample=s${i}]`, 'a', [], 0, i);
  for (let i = 0; i < n; i++) add(`b[sample=s${i}]`, 'b', [`a[sample=s${i}]`], 1, i);
  for (let i = 0; i < n; i++) add(`c[sample=s${i}]`, 'c', [`b[sample=s${i}]`], 2, i);
  add('merge', 'merge', Array.from({ length: n }, (_, i) => `c[sample=s${i}]`), 3, 0);
  writeFileSync(path.join(rec, 'jobs.json'), JSON.stringify(planned));
  writeFileSync(path.join(rec, 'trace.jsonl'), `${rows.join('\n')}\n`);
  writeFileSync(path.join(dir, 'main.oxoflow'), '[workflow]\nname = "big"\n');
  const meta = {
    version: 1, id, status: failed > 0 ? 'failed' : 'ok', startedAt: new Date(t0).toISOString(), endedAt: new Date(t0 + clock + 100).toISOString(), exitCode: failed > 0 ? 1 : 0,
    oxoFlowVersion: '0.1.0', workflow: { name: 'big', file: 'main.oxoflow', sha256: 'f'.repeat(64) }, config: {}, sampleSheets: [], commandLine: ['run'],
    host: { name: 'test', platform: 'linux', arch: 'x64', cpus: 2, memoryBytes: 1, node: 'v20' }, pid: 1, cwd: dir, executor: 'local', environments: [], tools: [], versionsFiles: [],
    counts: { planned: planned.length, toRun: planned.length, done: planned.length - failed, failed, blocked: 0, interrupted: 0, notStarted: 0 },
  };
  writeFileSync(path.join(rec, 'run.json'), JSON.stringify(meta));
}

describe.skipIf(noBrowser)('a report of 10,000 jobs', () => {
  it('stays under 5 MB and draws every job, failures first', async () => {
    const dir = tempDir('oxo-report-big-');
    syntheticRecord(dir, 3);
    const rep = runCliJson(['report', '-o', 'big.html'], { cwd: dir });
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.json.jobs).toBe(10_000);
    const file = path.join(dir, 'big.html');
    expect(statSync(file).size).toBeLessThan(5 * 1024 * 1024);
    const seen = await visit(`file://${file}`, { expression: PROBE, screenshot: path.join(dir, 'big.png') });
    const p = seen.value as Probe;
    expect(p.rows).toHaveLength(10_000);
    expect(new Set(p.rows).size).toBe(10_000);
    expect(p.rows.slice(0, 3)).toEqual(['b[sample=s0]', 'b[sample=s1]', 'b[sample=s2]']);
    expect(p.bars).toHaveLength(10_000);
    expect(p.jobNodes).toBe(10_000);
    expect(p.ruleNodes).toEqual(['a', 'b', 'c', 'merge']);
    expect(p.failuresFirst).toBe(0);
    expect(p.status).toBe('failed');
    expect(seen.requests).toEqual([`file://${file}`]);
  }, 300_000);
});
