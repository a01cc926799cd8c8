// The README's example must validate and show a realistic mix of statuses, whatever order git
// happened to write its files in (no status below depends on modification times).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkflow } from '../../../src/workflow/checks/index.js';
import { loadWorkflow } from '../../../src/workflow/load/index.js';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import { diskFs } from '../../helpers/templates-fs.js';

const dir = path.resolve(__dirname, '../../../examples/rnaseq');
const file = path.join(dir, 'main.oxoflow');

describe('examples/rnaseq', () => {
  const loaded = loadWorkflow(readFileSync(file, 'utf8'), file, { dir });

  it('loads and checks cleanly', () => {
    expect(loaded.diagnostics).toEqual([]);
    expect(checkWorkflow(loaded.workflow!)).toEqual([]);
  });

  it('plans every kind of status, with no input missing', () => {
    const { plan, diagnostics } = planWorkflow(loaded.workflow!, {}, diskFs);
    expect(diagnostics).toEqual([]);
    const status = Object.fromEntries(plan!.jobs.map((j) => [j.id, `${j.status}: ${j.reason}`]));
    expect(status).toMatchObject({
      fetch_transcriptome: 'skip: up to date',
      'raw_qc[sample=ctrl_1]': 'skip: when false',
      'fastp[sample=ctrl_1]': 'run: outputs missing',
      'fastp[sample=kd_2]': 'run: never completed',
      salmon_index: 'run: never completed',
      merge_counts: 'run: upstream will run',
    });
    expect(plan!.jobs).toHaveLength(16);
    expect(plan!.jobs.flatMap((j) => j.missingInputs)).toEqual([]);
  });

  it('turns the optional QC on from the command line', () => {
    const { plan } = planWorkflow(loaded.workflow!, { overrides: ['raw_qc=true'] }, diskFs);
    const qc = plan!.jobs.filter((j) => j.rule === 'raw_qc');
    expect(qc.map((j) => j.reason)).toEqual(['never completed', 'never completed', 'never completed', 'never completed']);
  });
});
