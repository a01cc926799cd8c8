// Issue 20, acceptance 1: every run leaves a record. A calibrated job (200 MiB held, 2 CPU-seconds
// burnt, its own getrusage printed as the reference) is measured within 10 %; a kill -9 of the runner
// leaves a readable record that `runs` calls incomplete; sensitive config never reaches the record.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { lines, startCli, waitFor } from '../helpers/run-async.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

// Debian's python3, not a version manager's shim (whose own shell script would add to the job's cost).
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const MIB = 1024 * 1024;

const CALIBRATED = `import resource, time
b = bytearray(200 * 1024 * 1024)
for i in range(0, len(b), 4096):
    b[i] = 1
while time.process_time() < 2.0:
    pass
r = resource.getrusage(resource.RUSAGE_SELF)
print(r.ru_utime + r.ru_stime, r.ru_maxrss * 1024)
`;

function recordDir(dir: string): string {
  const runs = readdirSync(path.join(dir, '.oxo-flow', 'runs'));
  expect(runs).toHaveLength(1);
  return path.join(dir, '.oxo-flow', 'runs', runs[0]!);
}

function tsvRows(file: string): Record<string, string>[] {
  const [head, ...rows] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const cols = head!.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v])));
}

describe('run record', () => {
  it('measures a calibrated job within 10 % (CPU and peak RSS) and writes the same row to --json and trace.tsv', () => {
    const dir = tempDir('oxo-record-');
    writeFileSync(path.join(dir, 'calib.py'), CALIBRATED);
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]
name = "calibrated"

[config]
token = { default = "s3cr3t-value-123", sensitive = true }
label = "plain"

[[rules]]
name = "burn"
output = ["out/burn.txt"]
version_command = "${PY} --version"
shell = "echo {config.token} > /dev/null; ${PY} calib.py > {output}"

[[rules]]
name = "versions"
input = ["out/burn.txt"]
output = ["out/versions.yml"]
shell = "printf '\\"WF:BURN\\":\\\\n  python: 3.11.2\\\\n' > {output}"
`,
    );
    const r = runCliJson(['run', '-j', '1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const [cpuRef, rssRef] = readFileSync(path.join(dir, 'out/burn.txt'), 'utf8').trim().split(' ').map(Number) as [number, number];
    const job = (r.json.jobs as { id: string; trace: Record<string, unknown> }[]).find((j) => j.id === 'burn')!;
    const t = job.trace as { cpuUserSeconds: number; cpuSystemSeconds: number; peakRssBytes: number; exitCode: number; executor: string; executorId: string; cpuMethod: string; command: string; wallSeconds: number };
    const cpu = t.cpuUserSeconds + t.cpuSystemSeconds;
    // Against the nominal job (2 CPU-s, 200 MiB) and against the job's own getrusage.
    expect(cpu).toBeGreaterThan(2.0 * 0.9);
    expect(cpu).toBeLessThan(2.0 * 1.1);
    expect(Math.abs(cpu - cpuRef) / cpuRef).toBeLessThan(0.1);
    expect(t.peakRssBytes).toBeGreaterThan(200 * MIB * 0.9);
    expect(t.peakRssBytes).toBeLessThan(200 * MIB * 1.1);
    expect(Math.abs(t.peakRssBytes - rssRef) / rssRef).toBeLessThan(0.1);
    expect(t.exitCode).toBe(0);
    expect(t.executor).toBe('local');
    expect(Number(t.executorId)).toBeGreaterThan(1);
    expect(t.wallSeconds).toBeGreaterThan(1.5);
    expect(t.command).toContain('***');

    const rec = recordDir(dir);
    expect(r.json.run_id).toBe(path.basename(rec));
    // trace.tsv carries the same figures.
    const rows = tsvRows(path.join(rec, 'trace.tsv'));
    expect(rows.map((x) => x.id)).toEqual(['burn', 'versions']);
    expect(Number(rows[0]!.cpu_user_s) + Number(rows[0]!.cpu_sys_s)).toBeCloseTo(cpu, 2);
    expect(Number(rows[0]!.peak_rss_bytes)).toBe(t.peakRssBytes);

    const meta = JSON.parse(readFileSync(path.join(rec, 'run.json'), 'utf8'));
    expect(meta.status).toBe('ok');
    expect(meta.exitCode).toBe(0);
    expect(meta.workflow.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(meta.config).toEqual({ token: '***', label: 'plain' });
    expect(meta.commandLine).toEqual(['--json', 'run', '-j', '1']);
    expect(meta.tools).toEqual([{ rule: 'burn', command: `${PY} --version`, version: expect.stringMatching(/^Python 3\./) }]);
    expect(meta.versionsFiles).toEqual([{ path: 'out/versions.yml', versions: { 'WF:BURN': { python: '3.11.2' } } }]);
    expect(meta.counts).toMatchObject({ toRun: 2, done: 2, failed: 0 });
    // events.jsonl: each job's start and process group, with times; its end is its trace row only.
    const events = lines(path.join(rec, 'events.jsonl')).map((l) => JSON.parse(l) as { t: string; kind: string; id: string; pgid?: number });
    expect(events.map((e) => [e.kind, e.id])).toEqual([
      ['start', 'burn'],
      ['spawned', 'burn'],
      ['start', 'versions'],
      ['spawned', 'versions'],
    ]);
    expect(events[1]!.pgid).toBe(Number(t.executorId));
    for (const e of events) expect(Date.parse(e.t)).not.toBeNaN();
    // The log is what the terminal showed, without colour; no file of the record holds the secret.
    const log = readFileSync(path.join(rec, 'log.txt'), 'utf8');
    expect(log).toMatch(/start {3}burn/);
    expect(log).toMatch(/Summary: calibrated — 2 done/);
    for (const f of readdirSync(rec)) expect(readFileSync(path.join(rec, f), 'utf8'), f).not.toContain('s3cr3t-value-123');

    // runs and runs show read it back.
    const list = runCliJson(['runs'], { cwd: dir });
    expect(list.code).toBe(0);
    expect(list.json.runs).toEqual([expect.objectContaining({ id: meta.id, status: 'ok', jobs_done: 2, jobs_failed: 0, exit_code: 0 })]);
    const show = runCliJson(['runs', 'show', meta.id.slice(0, 17)], { cwd: dir });
    expect(show.code).toBe(0);
    expect((show.json.trace as unknown[]).length).toBe(2);
    const human = runCli(['runs', 'show'], { cwd: dir });
    expect(human.stderr).toContain('burn: Python 3.');
  }, 120_000);

  it('a sensitive value a job prints into its log reaches neither the record nor the report, in any escaped form', () => {
    const dir = tempDir('oxo-record-escaped-');
    const secret = 'pa"ss\\word-42';
    // The TOML basic string of the secret: " and \ escaped.
    const toml = secret.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "escaped"\n\n[config]\ntoken = { default = "${toml}", sensitive = true }\n\n[[rules]]\nname = "leak"\noutput = ["out/leak.txt"]\nshell = "echo token is {config.token} >&2; echo marker-line >&2; exit 3"\n`,
    );
    const r = runCliJson(['run', '-j', '1'], { cwd: dir });
    expect(r.code).toBe(1);
    const forms = [secret, JSON.stringify(secret).slice(1, -1)];
    for (const form of forms) expect(r.stdout + r.stderr).not.toContain(form);
    const rec = recordDir(dir);
    for (const f of readdirSync(rec)) for (const form of forms) expect(readFileSync(path.join(rec, f), 'utf8'), `${f}: ${form}`).not.toContain(form);
    // The job's own log holds what it printed; the report shows its end, masked.
    expect(readFileSync(path.join(dir, '.oxo-flow', 'logs', 'leak.log'), 'utf8')).toContain(secret);
    for (const format of ['html', 'json']) {
      const out = path.join(dir, `report.${format}`);
      const rep = runCli(['report', '--format', format, '-o', out], { cwd: dir });
      expect(rep.code, rep.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(text).toContain('marker-line');
      expect(text).toContain('token is ***');
      for (const form of forms) expect(text, `${format}: ${form}`).not.toContain(form);
    }
  });

  it('--no-record keeps none; an unknown run id is REP001', () => {
    const dir = tempDir('oxo-record-');
    writeFileSync(path.join(dir, 'main.oxoflow'), '[workflow]\nname = "n"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "touch {output}"\n');
    expect(runCli(['run', '--no-record'], { cwd: dir }).code).toBe(0);
    expect(existsSync(path.join(dir, '.oxo-flow', 'runs'))).toBe(false);
    const none = runCliJson(['runs', 'show', 'nope'], { cwd: dir });
    expect(none.code).toBe(1);
    expect(JSON.stringify(none.json)).toContain('REP001');
  });

  it('a failed job gets its exit code and message; the report lists failures first', () => {
    const dir = tempDir('oxo-record-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      '[workflow]\nname = "f"\n\n[[rules]]\nname = "ok"\noutput = ["ok.txt"]\nshell = "touch {output}"\n\n[[rules]]\nname = "bad"\noutput = ["bad.txt"]\nshell = "echo going down >&2; exit 3"\n\n[[rules]]\nname = "after"\ninput = ["bad.txt"]\noutput = ["after.txt"]\nshell = "touch {output}"\n',
    );
    const r = runCliJson(['run', '-j', '1', '-k'], { cwd: dir });
    expect(r.code).toBe(1);
    const rows = tsvRows(path.join(recordDir(dir), 'trace.tsv'));
    const bad = rows.find((x) => x.id === 'bad')!;
    expect([bad.outcome, bad.exit]).toEqual(['failed', '3']);
    expect(rows.find((x) => x.id === 'after')!.outcome).toBe('blocked');
    const rep = runCliJson(['report', '--format', 'json', '-o', 'r.json'], { cwd: dir });
    expect(rep.code, rep.stderr).toBe(0);
    const data = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(data.status).toBe('failed');
    const failed = data.jobs.find((j: { id: string }) => j.id === 'bad');
    expect(failed.logTail.join('\n')).toContain('going down');
    expect(data.rules.find((x: { name: string }) => x.name === 'bad').state).toBe('failed');
  });

  it('kill -9 of the runner mid-run leaves a readable record marked incomplete', async () => {
    const dir = tempDir('oxo-record-kill-');
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      '[workflow]\nname = "k"\n\n[[rules]]\nname = "first"\noutput = ["out/first.txt"]\nshell = "echo one > {output}"\n\n[[rules]]\nname = "hold"\ninput = ["out/first.txt"]\noutput = ["out/hold.txt"]\nshell = "while [ ! -e release ]; do sleep 0.1; done; touch {output}"\n',
    );
    const bg = startCli(['run', '-j', '1'], dir);
    let rec = '';
    const holdStarted = () => {
      const root = path.join(dir, '.oxo-flow', 'runs');
      if (!existsSync(root) || readdirSync(root).length === 0) return false;
      rec = path.join(root, readdirSync(root)[0]!);
      return lines(path.join(rec, 'events.jsonl')).some((l) => l.includes('"spawned"') && l.includes('"hold"')) && lines(path.join(rec, 'trace.jsonl')).length === 1;
    };
    await waitFor(holdStarted, 'the second job to start after the first was traced');
    bg.child.kill('SIGKILL');
    await bg.exited;
    // trace.tsv is written as a run ends; this runner never got there.
    expect(existsSync(path.join(rec, 'trace.tsv'))).toBe(false);
    const spawned = lines(path.join(rec, 'events.jsonl')).map((l) => JSON.parse(l)).find((e) => e.kind === 'spawned' && e.id === 'hold');
    try {
      const list = runCliJson(['runs'], { cwd: dir });
      expect(list.json.runs).toEqual([expect.objectContaining({ status: 'incomplete', jobs_done: 1, exit_code: null })]);
      // `runs` wrote it from trace.jsonl: the finished job's row, with the figures of its JSON row.
      const [tsv] = tsvRows(path.join(rec, 'trace.tsv'));
      const [json] = lines(path.join(rec, 'trace.jsonl')).map((l) => JSON.parse(l));
      expect(tsvRows(path.join(rec, 'trace.tsv'))).toHaveLength(1);
      expect(tsv).toMatchObject({ id: 'first', rule: 'first', outcome: 'done', exit: '0', start: json.startedAt, end: json.endedAt, command: json.command, executor_id: json.executorId });
      const show = runCli(['runs', 'show'], { cwd: dir });
      expect(show.code).toBe(0);
      expect(show.stderr).toMatch(/incomplete/);
      const rep = runCliJson(['report', '--format', 'json', '-o', 'r.json'], { cwd: dir });
      expect(rep.code, rep.stderr).toBe(0);
      const data = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8'));
      expect(data.status).toBe('incomplete');
      expect(data.jobs.map((j: { id: string; state: string }) => [j.id, j.state])).toEqual([
        ['first', 'done'],
        ['hold', 'running'],
      ]);
    } finally {
      // The job's group outlived the runner (that is the point of its own group): end it.
      try {
        process.kill(-spawned.pgid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }, 120_000);

  it('the trace.tsv written for a runner that died is the one the finished run wrote', () => {
    const dir = tempDir('oxo-record-tsv-');
    // A command with a tab and a backslash in it, which trace.tsv escapes.
    const make = JSON.stringify("printf '%s\t\\n' {sample} > {output}");
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "t"\n\n[[sample_groups]]\nname = "all"\nsamples = ["a", "b", "c"]\n\n[[rules]]\nname = "make"\noutput = ["out/{sample}.txt"]\nshell = ${make}\n\n[[rules]]\nname = "bad"\nshell = "exit 3"\n`,
    );
    expect(runCli(['run', '-k', '-j', '2'], { cwd: dir }).code).toBe(1);
    const rec = recordDir(dir);
    const tsvFile = path.join(rec, 'trace.tsv');
    const finished = readFileSync(tsvFile, 'utf8');
    expect(finished.trimEnd().split('\n')).toHaveLength(5);
    // As a runner killed after its last row leaves it: run.json `running` with a pid that is gone, no trace.tsv.
    const meta = JSON.parse(readFileSync(path.join(rec, 'run.json'), 'utf8'));
    const gone = spawnSync('true').pid;
    writeFileSync(path.join(rec, 'run.json'), JSON.stringify({ ...meta, status: 'running', pid: gone, endedAt: undefined, exitCode: undefined }));
    rmSync(tsvFile);
    // `runs`, `runs show` and `report` each write it back, the same bytes.
    for (const args of [['runs'], ['runs', 'show'], ['report', '-o', 'r.html']]) {
      const r = runCliJson(args, { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(tsvFile, 'utf8')).toBe(finished);
      rmSync(tsvFile);
    }
    // One that is there is left as it is.
    writeFileSync(tsvFile, 'kept\n');
    expect(runCliJson(['runs'], { cwd: dir }).code).toBe(0);
    expect(readFileSync(tsvFile, 'utf8')).toBe('kept\n');
  });
});
