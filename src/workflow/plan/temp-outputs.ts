// When a run may remove each temp output: the plan decides, the runner (any executor) asks. A temp
// output is removed once every job of this run that reads it has finished; one that no job of the
// run reads is removed at the end, when the run made it. Outputs of a job named as a target are what
// the user asked for and stay. A reader that fails keeps the file: the next run needs it.
import { pathKey } from '../dag/build-dag.js';
import type { JobSpec } from './types.js';

export interface TempOutputs {
  /** A job finished successfully: the temp outputs (as written) that may be removed now. */
  done(id: string): string[];
  /** The run is over: temp outputs this run made that no job of it read. */
  atEnd(): string[];
}

interface Entry {
  path: string;
  /** The producer runs in this run (false: it was up to date, so the file is from an earlier run). */
  producerRuns: boolean;
  producerDone: boolean;
  /** How many jobs of this run read it, and those that have not finished yet. */
  readers: number;
  left: Set<string>;
  removed: boolean;
}

/** `jobs`: every job of the plan, in plan order (status `run` is what this run executes). */
export function tempOutputs(jobs: readonly JobSpec[]): TempOutputs {
  const entries = new Map<string, Entry>();
  /** Job id → the temp outputs whose fate its end can decide. */
  const touches = new Map<string, Entry[]>();
  const touch = (id: string, e: Entry) => {
    const list = touches.get(id);
    if (list === undefined) touches.set(id, [e]);
    else list.push(e);
  };
  for (const j of jobs) {
    if (j.targeted === true) continue;
    for (const t of j.tempOutputs) {
      const runs = j.status === 'run';
      const e: Entry = { path: t, producerRuns: runs, producerDone: !runs, readers: 0, left: new Set(), removed: false };
      entries.set(pathKey(t), e);
      if (runs) touch(j.id, e);
    }
  }
  if (entries.size > 0) {
    for (const j of jobs) {
      if (j.status !== 'run') continue;
      for (const input of j.inputs) {
        const e = entries.get(pathKey(input));
        if (e === undefined || e.left.has(j.id) || j.tempOutputs.includes(input)) continue;
        e.readers += 1;
        e.left.add(j.id);
        touch(j.id, e);
      }
    }
  }
  const take = (e: Entry, out: string[]) => {
    if (e.removed || !e.producerDone || e.left.size > 0) return;
    e.removed = true;
    out.push(e.path);
  };
  return {
    done(id) {
      const list = touches.get(id);
      if (list === undefined) return [];
      const out: string[] = [];
      for (const e of list) {
        if (!e.left.delete(id)) e.producerDone = true;
        // Read by no job of this run: it waits for the end (atEnd).
        if (e.readers > 0) take(e, out);
      }
      return out;
    },
    atEnd() {
      const out: string[] = [];
      for (const e of entries.values()) if (e.producerRuns && e.readers === 0) take(e, out);
      return out;
    },
  };
}
