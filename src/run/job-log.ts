// A job's log, as the runner writes it: one section per attempt, each opened by a header (what ran and
// when). The first attempt starts the log afresh; a retry appends after the earlier ones. Written here
// for executors whose jobs write into a descriptor the runner opens (Node's spawn, the cluster
// executors' submit); the light spawner's helper does the same itself (src/run/spawner/helper.ts).
import { fstatSync, openSync, writeSync } from 'node:fs';

/** The log opened for an attempt, its header written: the descriptor and where the attempt's part begins. */
export function openJobLog(file: string, header: string, fresh: boolean): { fd: number; offset: number } {
  const fd = openSync(file, fresh ? 'w' : 'a');
  const offset = fresh ? 0 : fstatSync(fd).size;
  writeSync(fd, header);
  return { fd, offset };
}
