// A project folder for one of the pipelines under examples/: the example's own generator writes its
// tiny data (reference, reads, sample sheet, config file) into a fresh temporary folder.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir } from './plan-workflow.js';

export const EXAMPLES = path.resolve(__dirname, '../../examples');

/** The example's pipeline folder and a new project folder with its generated data. */
export function exampleProject(example: string): { pipeline: string; project: string } {
  const pipeline = path.join(EXAMPLES, example);
  const project = tempDir(`oxo-${example}-`);
  const made = spawnSync(process.execPath, [path.join(pipeline, 'make-data.mjs'), project], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make-data.mjs of ${example} failed: ${made.stderr}`);
  return { pipeline, project };
}

/** A TSV file as rows of cells, without its empty last line. */
export function readTsv(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

/** Ids of the jobs a `run --json` did. */
export function doneJobs(json: Record<string, unknown>): string[] {
  return (json.jobs as { id: string; outcome: string }[]).filter((j) => j.outcome === 'done').map((j) => j.id).sort();
}
