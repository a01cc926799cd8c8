// The job lifecycle's promises (issue 18), through the built CLI: outputs are removed before a job
// reruns (tools that refuse to overwrite work), and touched after it succeeds (cp -p keeps an old time);
// `priority` orders ready jobs; the failure tail shows only the failing attempt; a second Ctrl-C
// SIGKILLs a job that ignores SIGTERM and records it.
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { processAlive, startCli, waitFor } from '../helpers/run-async.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

function project(rules: string): string {
  const dir = tempDir('oxo-life-');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "life"\n\n${rules}`);
  return dir;
}

describe('the job lifecycle', () => {
  it('removes outputs before a job reruns: mkdir and ln -s work on every rerun', () => {
    const rules = (tag: string) => `[config]\ntag = "${tag}"\n\n[[rules]]\nname = "dir"\noutput = ["made", "link"]\nshell = "mkdir made && echo {config.tag} > made/f && ln -s made/f link"\n`;
    const dir = project(rules('one'));
    expect(runCli(['run'], { cwd: dir }).code).toBe(0);
    writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "life"\n\n${rules('two')}`);
    const r = runCli(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'link'), 'utf8')).toBe('two\n');
  }, 60_000);

  it('touches outputs after a successful job, so cp -p does not make them look older than their inputs', () => {
    const dir = project(`[[rules]]\nname = "copy"\ninput = ["in.txt"]\noutput = ["out.txt"]\nshell = "cp -p in.txt out.txt"\n\n[[rules]]\nname = "next"\ninput = ["out.txt"]\noutput = ["next.txt"]\nshell = "cat out.txt > next.txt"\n`);
    writeFileSync(path.join(dir, 'in.txt'), 'x\n');
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(path.join(dir, 'in.txt'), old, old);
    const before = Date.now() - 1000;
    expect(runCli(['run'], { cwd: dir }).code).toBe(0);
    expect(statSync(path.join(dir, 'out.txt')).mtimeMs).toBeGreaterThan(before);
    // And so the next run has nothing to do.
    const again = runCliJson(['run'], { cwd: dir });
    expect((again.json.summary as { to_run: number }).to_run).toBe(0);
  }, 60_000);

  it('priority: among ready jobs the higher priority starts first', () => {
    const dir = project(`[[rules]]\nname = "low"\noutput = ["low.txt"]\nshell = "echo low >> order.txt; touch low.txt"\n\n[[rules]]\nname = "high"\npriority = 10\noutput = ["high.txt"]\nshell = "echo high >> order.txt; touch high.txt"\n`);
    expect(runCli(['run', '-j', '1'], { cwd: dir }).code).toBe(0);
    expect(readFileSync(path.join(dir, 'order.txt'), 'utf8')).toBe('high\nlow\n');
  }, 60_000);

  it('the failure tail shows only the failing attempt, not earlier attempts or runs', () => {
    const dir = project(`[[rules]]\nname = "bad"\noutput = ["b.txt"]\nretries = 1\nshell = "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; echo output-of-try-$n; exit 1"\n`);
    const first = runCli(['run'], { cwd: dir });
    expect(first.code).toBe(1);
    const second = runCli(['run'], { cwd: dir });
    expect(second.code).toBe(1);
    const tail = second.stderr.split('\n').filter((l) => l.includes('│'));
    expect(tail.join('\n')).toContain('output-of-try-4');
    for (const n of [1, 2, 3]) expect(second.stderr).not.toContain(`output-of-try-${n}`);
    expect(tail.filter((l) => l.includes('# oxo-flow:'))).toHaveLength(1);
  }, 60_000);

  it('a second Ctrl-C SIGKILLs a job that ignores SIGTERM and records it as not finished', async () => {
    const dir = project(`[[rules]]\nname = "stubborn"\noutput = ["s.txt"]\nshell = "trap '' TERM; echo $$ > pid; echo half > s.txt; while true; do sleep 0.2; done"\n`);
    const bg = startCli(['--json', 'run'], dir, { OXO_FLOW_KILL_GRACE: '120' });
    await waitFor(() => existsSync(path.join(dir, 'pid')) && readFileSync(path.join(dir, 'pid'), 'utf8').endsWith('\n'), 'the job to start');
    const pid = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
    bg.child.kill('SIGINT');
    // The first Ctrl-C only asks (SIGTERM, which the job ignores) and waits out a long grace.
    await new Promise((r) => setTimeout(r, 500));
    expect(processAlive(pid)).toBe(true);
    bg.child.kill('SIGINT');
    const { code } = await bg.exited;
    expect(code).toBe(130);
    // The same JSON document as on every other exit path.
    const doc = JSON.parse(bg.stdout()) as { interrupted: boolean; jobs: { id: string; outcome: string }[] };
    expect(doc.interrupted).toBe(true);
    expect(doc.jobs).toEqual([expect.objectContaining({ id: 'stubborn', outcome: 'interrupted' })]);
    await waitFor(() => !processAlive(pid), 'the job to be killed', 10_000);
    const dry = runCliJson(['dry-run'], { cwd: dir });
    const job = (dry.json.jobs as { id: string; reason: string }[]).find((j) => j.id === 'stubborn')!;
    expect(job.reason).toBe('incomplete');
    expect(existsSync(path.join(dir, '.oxo-flow', 'lock'))).toBe(false);
  }, 60_000);
});
