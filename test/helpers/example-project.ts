// A project folder for one of the pipelines under examples/: the example's own generator writes its
// tiny data (reference, reads, sample sheet, config file) into a fresh temporary folder, and the
// pipeline is run from there, as a facility runs one pipeline for many projects.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir } from './plan-workflow.js';

export const EXAMPLES = path.resolve(__dirname, '../../examples');

/** The example's pipeline file and a new project folder with the data its generator writes. */
export function exampleProject(example: string, generatorArgs: string[] = []): { pipeline: string; project: string } {
  const dir = path.join(EXAMPLES, example);
  const project = tempDir(`oxo-${example}-`);
  const made = spawnSync(process.execPath, [path.join(dir, 'make-data.mjs'), project, ...generatorArgs], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make-data.mjs of ${example} failed: ${made.stderr}`);
  return { pipeline: path.join(dir, 'main.oxoflow'), project };
}

/** Every file under a folder with its size and modification time: to show a run left it as it was. */
export function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        const s = statSync(full);
        out.push(`${path.relative(dir, full)} ${s.size} ${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** A TSV file as rows of cells, without its empty last line. */
export function readTsv(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

/** One column of a TSV file's rows after the header, sorted (MultiQC's tables: the sample names). */
export function firstColumn(file: string): string[] {
  return readTsv(file)
    .slice(1)
    .map((r) => r[0] ?? '')
    .sort();
}

/** Ids of the jobs a `run --json` did. */
export function doneJobs(json: Record<string, unknown>): string[] {
  return (json.jobs as { id: string; outcome: string }[]).filter((j) => j.outcome === 'done').map((j) => j.id).sort();
}
