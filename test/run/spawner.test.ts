// The light spawner (issue 25): local jobs start through one helper process per run, not by forking
// the runner. What a job sees must not change: the same environment to the byte (values that would
// mean something to a shell included), its own session and process group, its log; a job that cannot
// start fails with RUN042 as before; where the helper cannot run, jobs start with Node's spawn and the
// run says so (RUN050); a helper killed mid-run fails the jobs it ran, loudly (RUN051), and the run goes on.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { processAlive, startCli, waitFor } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';

interface Diag {
  code: string;
  message: string;
}
interface JobJson {
  id: string;
  outcome: string;
  code?: string;
  message?: string;
}

const jobsOf = (json: Record<string, unknown>) => Object.fromEntries((json.jobs as (JobJson & { rule: string })[]).map((j) => [j.rule, j]));
const codes = (json: Record<string, unknown>) => (json.diagnostics as Diag[]).map((d) => d.code);

// Every byte a shell would act on, a newline, a tab, non-ASCII, an `=`, a leading dash.
const NASTY = `-a b\n$(touch pwned) \`touch pwned2\` "q" 'q' \\ ; | & * ? ~ $HOME = é\t!`;

function envProject(): string {
  const dir = tempDir('oxo-spawner-env-');
  writeFileSync(
    path.join(dir, 'main.oxoflow'),
    `[workflow]\nname = "env"\n\n[config]\nv = "plain"\n\n[[rules]]\nname = "dump"\noutput = ["env.bin", "ids.txt"]\nshell = "/usr/bin/env -0 > env.bin; cut -d' ' -f4,5,6 /proc/$$/stat > ids.txt; echo $$ >> ids.txt; tr '\\\\0' ' ' < /proc/$PPID/cmdline | cut -c1-40 >> ids.txt; echo {config.v} > /dev/null"\n`,
  );
  return dir;
}

function dumpEnv(env: Record<string, string | undefined>): { vars: Map<string, string>; ids: string[] } {
  const dir = envProject();
  const r = runCliJson(['run', `v=${NASTY}`], { cwd: dir, env: { ...env, OXO_TEST_EXTRA: NASTY } });
  expect(r.code, r.stderr).toBe(0);
  expect(codes(r.json)).not.toContain('RUN050');
  expect((r.json.jobs as JobJson[]).map((j) => j.outcome)).toEqual(['done']);
  // Nothing in a value was run.
  expect(existsSync(path.join(dir, 'pwned')) || existsSync(path.join(dir, 'pwned2'))).toBe(false);
  const vars = new Map<string, string>();
  for (const kv of readFileSync(path.join(dir, 'env.bin'), 'utf8').split('\0').filter((s) => s !== '')) {
    const i = kv.indexOf('=');
    vars.set(kv.slice(0, i), kv.slice(i + 1));
  }
  const ids = readFileSync(path.join(dir, 'ids.txt'), 'utf8').trim().split('\n');
  return { vars, ids };
}

describe('the light spawner', () => {
  it('gives a job exactly the environment Node spawn gives it, byte for byte, in its own session and group', () => {
    const light = dumpEnv({});
    const forked = dumpEnv({ OXO_FLOW_SPAWNER: 'fork' });
    // The values reach the job intact, never through a shell.
    expect(light.vars.get('OXO_TEST_EXTRA')).toBe(NASTY);
    expect(light.vars.get('OXO_CONFIG_V')).toBe(NASTY);
    // Everything but the run id (new for each run), the folder (sh sets PWD; each run has its own) and
    // what the forced mode itself set is the same.
    const strip = (m: Map<string, string>) => [...m].filter(([k]) => !['OXO_FLOW_RUN_ID', 'OXO_FLOW_SPAWNER', 'PWD'].includes(k)).sort();
    expect(strip(light.vars)).toEqual(strip(forked.vars));
    for (const { ids } of [light, forked]) {
      const [, pgrp, session] = ids[0]!.split(' ').map(Number);
      const pid = Number(ids[1]);
      // The job's shell leads its own process group and session (setsid), as with detached spawn.
      expect(pgrp).toBe(pid);
      expect(session).toBe(pid);
    }
    // Started by the helper, not by a fork of the runner (whose parent is node).
    expect(light.ids[2]).toMatch(/perl/);
    expect(forked.ids[2]).not.toMatch(/perl/);
  }, 60_000);

  it('a command that cannot be started (no such program; E2BIG) fails with RUN042 and the errno', () => {
    const dir = tempDir('oxo-spawner-enoent-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "e"\n\n[[rules]]\nname = "huge"\noutput = ["h.txt"]\nshell = "echo ${'x'.repeat(140 * 1024)} > h.txt"\n\n[[rules]]\nname = "fine"\noutput = ["f.txt"]\nshell = "echo f > f.txt"\n`,
    );
    const r = runCliJson(['run', '-k'], { cwd: dir });
    expect(r.code).toBe(1);
    const jobs = jobsOf(r.json);
    expect(jobs.huge).toMatchObject({ outcome: 'failed', code: 'RUN042' });
    expect(jobs.huge!.message).toMatch(/^could not start: E2BIG: exec \/bin\/sh: /);
    expect(jobs.fine).toMatchObject({ outcome: 'done' });
  }, 60_000);

  it('without perl, or with one that cannot run the helper, jobs start with Node spawn and the run says so (RUN050)', () => {
    for (const perl of ['/nonexistent/perl', '/bin/false']) {
      const dir = tempDir('oxo-spawner-noperl-');
      writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "p"\n\n[[sample_groups]]\nname = "all"\nsamples = ["a", "b", "c"]\n\n[[rules]]\nname = "t"\noutput = ["out/{sample}.txt"]\nshell = "echo {sample} > {output}"\n`);
      const r = runCliJson(['run', '-j', '2'], { cwd: dir, env: { OXO_FLOW_PERL: perl } });
      expect(r.code, r.stderr).toBe(0);
      expect((r.json.jobs as JobJson[]).map((j) => j.outcome)).toEqual(['done', 'done', 'done']);
      const notes = (r.json.diagnostics as Diag[]).filter((d) => d.code === 'RUN050');
      expect(notes.length, perl).toBe(1);
      expect(notes[0]!.message).toMatch(perl === '/bin/false' ? /could not start \(exit 1\)/ : /no perl was found/);
      expect(readFileSync(path.join(dir, 'out/b.txt'), 'utf8')).toBe('b\n');
    }
  }, 60_000);

  it('a helper killed mid-run: its running job is stopped and failed (RUN020), RUN051 says why, later jobs start by Node spawn', async () => {
    const dir = tempDir('oxo-spawner-killed-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "k"\n\n[[rules]]\nname = "slow"\noutput = ["slow.txt"]\nshell = "echo $$ > slow.pid; sleep 60; echo late > slow.txt"\n\n[[rules]]\nname = "after"\noutput = ["after.txt"]\nshell = "tr '\\\\0' ' ' < /proc/$PPID/cmdline > after.txt"\n`,
    );
    const run = startCli(['--json', 'run', '-j', '1', '-k', '-t', 'slow', '-t', 'after'], dir, { OXO_FLOW_KILL_GRACE: '1' });
    const pidFile = path.join(dir, 'slow.pid');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the slow job to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const helper = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    expect(readFileSync(`/proc/${helper}/cmdline`, 'utf8')).toMatch(/perl/);
    process.kill(helper, 'SIGKILL');
    const { code } = await run.exited;
    expect(code).toBe(1);
    // The job's group was stopped (its status is lost with the helper): it never finished.
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(path.join(dir, 'slow.txt'))).toBe(false);
    const json = JSON.parse(run.stdout()) as Record<string, unknown>;
    const jobs = jobsOf(json);
    expect(jobs.slow).toMatchObject({ outcome: 'failed', code: 'RUN020' });
    expect(jobs.slow!.message).toMatch(/job spawner ended while the job ran/);
    expect(jobs.after).toMatchObject({ outcome: 'done' });
    expect(readFileSync(path.join(dir, 'after.txt'), 'utf8')).not.toMatch(/perl/);
    expect(codes(json)).toContain('RUN051');
  }, 90_000);
});
