// Start records written ahead (issue 25): while the slots are busy, the jobs next in line get their
// `running` record appended and synced, so no disk flush sits between a free slot and the next start.
// What must hold: a job that then never starts (the run stopped first) has its record taken back, so
// the state says what it said before; a withdrawal speaks only for its own journal, never hiding what
// an earlier (crashed) run recorded; and every job that did start had its record on disk first.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateStore, type JobRecord } from '../../src/run/state.js';
import { jobRecord as rec } from '../helpers/job-records.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { lines, processAlive, startCli, waitFor } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';

describe('withdrawing a start record written ahead', () => {
  it('speaks for its own journal only: the index, and an earlier crashed run, keep their word', () => {
    const dir = tempDir('oxo-ahead-');
    const old = new StateStore(dir, true, 'run-1');
    old.write(rec('done-before', 'done', '2026-01-01T00:00:00.000Z'));
    old.close();
    old.compact();
    // A run that crashed while `crashed` ran: its journal stays, its record says `running`.
    const crashed = new StateStore(dir, true, 'run-2');
    crashed.write(rec('crashed', 'running', '2026-01-01T00:00:01.000Z'));
    crashed.close();
    // This run wrote three records ahead, then stopped before any of them started.
    const store = new StateStore(dir, true, 'run-3');
    const before = { done: store.records().get('done-before'), crashed: store.records().get('crashed'), none: store.records().get('none') };
    for (const id of ['done-before', 'crashed', 'none']) store.write(rec(id, 'running', '2026-01-01T00:00:02.000Z'));
    store.withdraw('done-before', before.done);
    store.withdraw('crashed', before.crashed);
    store.withdraw('none', before.none);
    // In memory, as before.
    expect(store.records().get('done-before')?.status).toBe('done');
    expect(store.records().get('crashed')?.status).toBe('running');
    expect(store.records().has('none')).toBe(false);
    store.close();
    // Read back from disk, as a later start reads it, and after folding.
    for (const read of [() => new StateStore(dir).records(), () => (new StateStore(dir).compact(), new StateStore(dir).records())]) {
      const records = read();
      expect(records.get('done-before')?.status).toBe('done');
      expect(records.get('crashed')?.status).toBe('running');
      expect(records.get('crashed')?.startedAt).toBe('2026-01-01T00:00:01.000Z');
      expect(records.has('none')).toBe(false);
    }
  });
});

describe('a run that stops before the jobs written ahead start', () => {
  it('leaves their state as it was: a job forced to rerun but never started is still up to date', () => {
    const dir = tempDir('oxo-ahead-run-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "ahead"\n\n[[sample_groups]]\nname = "all"\nsamples = ["s1", "s2", "s3", "s4"]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "cat .oxo-flow/state/jobs/*.jsonl > journal-{sample}.txt; test ! -e fail-{sample} && echo {sample} >> ran.txt && touch {output}"\n`,
    );
    const first = runCliJson(['run', '-j', '1'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    // s1 now fails; without -k nothing starts after it, though s2 (next in line) had its start written ahead.
    writeFileSync(path.join(dir, 'fail-s1'), '');
    const second = runCliJson(['run', '-j', '1', '--forcerun', 't'], { cwd: dir });
    expect(second.code).toBe(1);
    const outcomes = Object.fromEntries((second.json.jobs as { id: string; outcome: string }[]).map((j) => [j.id, j.outcome]));
    expect(outcomes).toEqual({ 't[sample=s1]': 'failed', 't[sample=s2]': 'not started', 't[sample=s3]': 'not started', 't[sample=s4]': 'not started' });
    expect(readFileSync(path.join(dir, 'ran.txt'), 'utf8')).toBe('s1\ns2\ns3\ns4\n');
    // While s1 ran, s2's start was already in the journal (written ahead); the run's end took it back
    // and folded the journal into the index.
    const journal = readFileSync(path.join(dir, 'journal-s1.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Partial<JobRecord>);
    expect(journal.some((x) => x.id === 't[sample=s2]' && x.status === 'running')).toBe(true);
    expect(readdirSync(path.join(dir, '.oxo-flow/state/jobs'))).toEqual([]);
    const dry = runCliJson(['dry-run'], { cwd: dir });
    const planned = (dry.json.jobs as { id: string; status: string; reason?: string }[]).map((j) => [j.id, j.status, j.reason ?? null]);
    // Without the withdrawal s2 would read `incomplete` (a run stopped while it ran) and run again.
    expect(planned).toEqual([
      ['t[sample=s1]', 'run', 'never completed'],
      ['t[sample=s2]', 'skip', 'up to date'],
      ['t[sample=s3]', 'skip', 'up to date'],
      ['t[sample=s4]', 'skip', 'up to date'],
    ]);
  }, 60_000);

  it('every job finds its own `running` record in the journal when it runs, and its record names its group and start time', () => {
    const dir = tempDir('oxo-ahead-order-');
    const samples = Array.from({ length: 12 }, (_, i) => `"s${i}"`).join(', ');
    // Each job copies the run's journal as it starts: its own start record must be in it already.
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "order"\n\n[[sample_groups]]\nname = "all"\nsamples = [${samples}]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "cat .oxo-flow/state/jobs/*.jsonl > {output}"\n`,
    );
    const r = runCliJson(['run', '-j', '2'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    for (let i = 0; i < 12; i++) {
      const seen = readFileSync(path.join(dir, `out/s${i}.txt`), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as JobRecord & { withdrawn?: string });
      expect(seen.some((x) => x.id === `t[sample=s${i}]` && x.status === 'running'), `s${i}`).toBe(true);
    }
    const index = readFileSync(path.join(dir, '.oxo-flow/state/index.jsonl'), 'utf8').trim().split('\n').slice(1);
    expect(index).toHaveLength(12);
    for (const line of index) {
      const record = JSON.parse(line.slice(line.indexOf('\t') + 1)) as JobRecord;
      expect(record.status).toBe('done');
      expect(record.pgid).toBeGreaterThan(1);
      // The leader's start time, read by the spawner's helper before it reaped the job.
      expect(record.procStart).toBeGreaterThan(0);
    }
  }, 60_000);

  it('a runner killed before it recorded a started job\'s group: the next run finds the group by the job\'s log and run id, and stops it', async () => {
    const dir = tempDir('oxo-ahead-unnamed-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "unnamed"\n\n[[rules]]\nname = "slow"\noutput = ["slow.txt"]\nshell = "echo $$ >> pids; echo partial > slow.txt; if [ ! -e release ]; then sleep 60; fi; echo whole > slow.txt"\n`,
    );
    const first = startCli(['run'], dir);
    await waitFor(() => lines(path.join(dir, 'pids')).length === 1 && existsSync(path.join(dir, 'slow.txt')), 'the job to start');
    first.child.kill('SIGKILL');
    await first.exited;
    const pid = Number(lines(path.join(dir, 'pids'))[0]);
    expect(processAlive(pid)).toBe(true);
    // As if the runner had died before the record naming the job's group was appended.
    const jobsDir = path.join(dir, '.oxo-flow/state/jobs');
    const [journal] = readdirSync(jobsDir);
    const file = path.join(jobsDir, journal!);
    const kept = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => !l.includes('"pgid"'));
    writeFileSync(file, kept.join('\n'));
    expect(readFileSync(file, 'utf8')).toContain('"status":"running"');
    writeFileSync(path.join(dir, 'release'), '');
    const second = runCliJson(['run'], { cwd: dir, env: { OXO_FLOW_KILL_GRACE: '1' } });
    expect(second.code, second.stderr).toBe(0);
    expect(processAlive(pid)).toBe(false);
    expect(readFileSync(path.join(dir, 'slow.txt'), 'utf8')).toBe('whole\n');
    expect(lines(path.join(dir, 'pids'))).toHaveLength(2);
  }, 60_000);
});
