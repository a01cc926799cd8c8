// Every built-in template, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the
// TypeScript sources): `init -t NAME` gives a project whose dry-run
// plans every job with nothing missing; the default project and the README's example also validate
// and lint without errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/workflow/templates/index.js';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

let work: string;
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'oxo-projects-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface DryRunJob {
  id: string;
  status: string;
  reason: string;
  inputs: string[];
  outputs: string[];
  missing_inputs: string[];
}

describe.each(TEMPLATES.map((t) => t.name))('init -t %s', (name) => {
  it('creates a project whose dry-run plans every job, with no input missing', async () => {
    expect((await runCli(['init', name, '-t', name], { cwd: work })).code).toBe(0);
    // Cores and memory of a large machine: on a small one, capping the templates' threads is a notice.
    const r = await runCliJson(['dry-run', '--cores', '64', '--memory', '1T'], { cwd: path.join(work, name) });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.counts).toEqual({ error: 0, warning: 0, info: 0 });
    const jobs = r.json.jobs as DryRunJob[];
    expect(jobs.filter((j) => j.status === 'run').length).toBeGreaterThan(1);
    for (const job of jobs) {
      expect(job.missing_inputs, job.id).toEqual([]);
      // A fresh project has run nothing yet; only a `when` that is false may skip a job.
      expect(['run: never completed', 'skip: when false'], job.id).toContain(`${job.status}: ${job.reason}`);
      for (const p of [...job.inputs, ...job.outputs]) expect(p, job.id).not.toContain('{');
    }
  });
});

describe('the default project and the README example', () => {
  it('oxo-flow init, then validate, lint and dry-run in it with no arguments', async () => {
    expect((await runCli(['init', 'first'], { cwd: work })).code).toBe(0);
    const cwd = path.join(work, 'first');
    const validate = await runCli(['validate'], { cwd });
    expect(validate.code).toBe(0);
    expect(validate.stderr).toMatch(/✓ .*main\.oxoflow/);
    const lint = await runCliJson(['lint', '--strict'], { cwd });
    expect(lint.code).toBe(0);
    expect((lint.json.counts as { error: number }).error).toBe(0);
    const dry = await runCli(['dry-run'], { cwd });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('greet[sample=ada]');
    expect(dry.stderr).toContain('echo "Hello, ada!"');
  });

  it('examples/rnaseq validates, lints without errors, and dry-runs with a mix of statuses', async () => {
    const example = path.resolve(__dirname, '../../examples/rnaseq/main.oxoflow');
    expect((await runCli(['validate', example])).code).toBe(0);
    const lint = await runCliJson(['lint', example]);
    expect(lint.code).toBe(0);
    expect(lint.json.counts).toMatchObject({ error: 0, warning: 0 });
    // The README's command: the example's folder is the project (-d; without a workflow argument its main.oxoflow).
    const dry = await runCli(['dry-run', '-d', path.dirname(example)]);
    expect(dry.code).toBe(0);
    for (const status of ['skip: up to date', 'skip: when false', 'run: outputs missing', 'run: never completed', 'run: upstream will run']) {
      expect(dry.stderr).toContain(status);
    }
  });
});
