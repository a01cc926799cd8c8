// Signalling (issue 17): `run` signals only process groups it can prove are its own. A stale `running`
// record naming a live process of someone else (a `setsid sleep`), or naming process group 1, is
// left alone, and the run says so (RUN044). A group the crashed run really left is stopped: that is
// test/run/crash.test.ts.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateStore, jobHash } from '../../src/run/state.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { processAlive } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';

const others: number[] = [];
afterAll(() => {
  for (const pid of others) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

function procStart(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

describe('signalling', () => {
  it("leaves a live process of someone else and process group 1 alone, and says so", async () => {
    const dir = tempDir('oxo-signal-');
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]\nname = "sig"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a > a.txt"\n\n[[rules]]\nname = "b"\noutput = ["b.txt"]\nshell = "echo b > b.txt"\n`,
    );
    // Someone else's process in its own session and group, started outside any oxo-flow run (not
    // detached: setsid then needs no fork, and the pid we know is the group's leader).
    const sleeper = spawn('setsid', ['sleep', '300'], { stdio: 'ignore' });
    others.push(sleeper.pid!);
    await new Promise((r) => setTimeout(r, 200));
    const store = new StateStore(dir);
    const base = { version: 1 as const, status: 'running' as const, startedAt: new Date().toISOString(), preexisting: [], executor: 'local', log: '' };
    // Its start time matches (as if its pid were recorded by a run), but it does not carry that run's id.
    store.write({ ...base, id: 'a', rule: 'a', hash: jobHash({ command: 'echo a > a.txt', outputs: ['a.txt'] }), pgid: sleeper.pid!, procStart: procStart(sleeper.pid!), runId: 'an-old-run' });
    store.write({ ...base, id: 'b', rule: 'b', hash: jobHash({ command: 'echo b > b.txt', outputs: ['b.txt'] }), pgid: 1, procStart: 1, runId: 'an-old-run' });
    const r = runCliJson(['run'], { cwd: dir, env: { OXO_FLOW_KILL_GRACE: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const notes = (r.json.diagnostics as { code: string; message: string }[]).filter((d) => d.code === 'RUN044').map((d) => d.message);
    expect(notes).toHaveLength(2);
    expect(notes.find((m) => m.startsWith('a:'))).toContain(`process group ${sleeper.pid} is alive, but none of its processes carries this job's run id`);
    expect(notes.find((m) => m.startsWith('b:'))).toContain('process group 1 is never signalled');
    expect(processAlive(sleeper.pid!)).toBe(true);
    // The jobs themselves ran again (their records said they had not finished).
    expect((r.json.summary as { done: number }).done).toBe(2);
  }, 60_000);
});
