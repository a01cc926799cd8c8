// Acceptance 3: kill -9 of the runner mid-way, then the same command again: no completed job reruns,
// the job that was running (whose process group outlived the runner, with a half-written output that
// is newer than its input) is stopped and rerun, and the final outputs are right.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { lines, processAlive, startCli, waitFor } from '../helpers/run-async.js';
import { runCliJson } from '../helpers/run-cli.js';

const SAMPLES = ['A', 'B', 'C', 'D'];

describe('crash safety', () => {
  it('resumes after kill -9 without rerunning finished jobs or trusting a partial output', async () => {
    const dir = tempDir('oxo-crash-');
    mkdirSync(path.join(dir, 'raw'));
    for (const s of SAMPLES) writeFileSync(path.join(dir, 'raw', `${s}.txt`), s);
    writeFileSync(
      path.join(dir, 'main.oxoflow'),
      `[workflow]
name = "crash"

[[sample_groups]]
name = "all"
samples = [${SAMPLES.map((s) => `"${s}"`).join(', ')}]

[[rules]]
name = "slow"
input = ["raw/{sample}.txt"]
output = ["out/{sample}.txt"]
# Hold for sample C until told, so the runner dies while C runs with a partial output.
shell = "echo {sample} >> ran.txt; echo $$ >> pids; echo partial > {output}; if [ {sample} = C ] && [ ! -e release ]; then sleep 60; fi; cat {input} > {output}"
`,
    );
    const first = startCli(['run', '-j', '1'], dir);
    // C's shell has written its pid and its partial output (it then waits for `release`).
    const partialC = () => lines(path.join(dir, 'pids')).length === 3 && existsSync(path.join(dir, 'out/C.txt')) && readFileSync(path.join(dir, 'out/C.txt'), 'utf8') === 'partial\n';
    await waitFor(partialC, 'job C to write its partial output');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(lines(path.join(dir, 'ran.txt'))).toEqual(['A', 'B', 'C']);
    expect(readFileSync(path.join(dir, 'out/C.txt'), 'utf8')).toBe('partial\n');
    // C's shell outlived the runner (own process group).
    const cPid = Number(lines(path.join(dir, 'pids'))[2]);
    expect(processAlive(cPid)).toBe(true);

    // dry-run already knows C is not finished, though its output is newer than its input.
    const dry = runCliJson(['dry-run'], { cwd: dir });
    const planned = (dry.json.jobs as { id: string; status: string; reason: string }[]).filter((j) => j.status === 'run');
    expect(planned.map((j) => [j.id, j.reason])).toEqual([
      ['slow[sample=C]', 'incomplete'],
      ['slow[sample=D]', 'never completed'],
    ]);

    writeFileSync(path.join(dir, 'release'), '');
    const second = runCliJson(['run', '-j', '1'], { cwd: dir, env: { OXO_FLOW_KILL_GRACE: '1' } });
    expect(second.code, second.stderr).toBe(0);
    expect(lines(path.join(dir, 'ran.txt'))).toEqual(['A', 'B', 'C', 'C', 'D']);
    expect(processAlive(cPid)).toBe(false);
    for (const s of SAMPLES) expect(readFileSync(path.join(dir, `out/${s}.txt`), 'utf8')).toBe(s);
    expect((runCliJson(['dry-run'], { cwd: dir }).json.summary as { run: number }).run).toBe(0);
  }, 90_000);
});
