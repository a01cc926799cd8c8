// The end of a job's log, as the report shows it: a few lines of a job that ran well, more of one that
// failed, and for a failed job the end of the rule's own log too. The recorder reads it as each job
// finishes, so it goes into the trace row through the same secret scrub as the rest of the record (a
// job may print a sensitive value into its own log; the report, a page people mail around, must not).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';

const TAIL_LINES = 6;
const FAILED_TAIL_LINES = 40;
/** How much of a log's end is read: logs can be large. */
const TAIL_BYTES = 8 * 1024;
/** Longer lines are cut (a progress bar can be one line of megabytes). */
const LINE_CHARS = 400;

/** The runner's header lines in a job log: which attempt, and the command (shown apart in the report). */
const HEADER = /^# (oxo-flow: |\$ | {2})/;

/** The end of a job's log (paths relative to `dir`); for a failed job also its rule log's. */
export function jobLogTail(dir: string, log: string, ruleLog: string | null, failed: boolean): string[] {
  if (log === '') return [];
  const lines = tail(path.resolve(dir, log), failed ? FAILED_TAIL_LINES : TAIL_LINES, !failed);
  if (failed && ruleLog !== null) {
    const more = tail(path.resolve(dir, ruleLog), FAILED_TAIL_LINES);
    if (more.length > 0) lines.push(`── rule log ${ruleLog} ──`, ...more);
  }
  return lines;
}

/**
 * The last lines of a file, read from its end; none when it cannot be read (a silent job leaves no
 * log). `quiet` leaves out the runner's header lines (a successful job's log is often nothing else).
 */
function tail(file: string, lines: number, quiet = false): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf
      .toString('utf8')
      .replace(/\n$/, '')
      .split('\n')
      .filter((l) => !quiet || !HEADER.test(l))
      .slice(-lines)
      .map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS)}…` : l));
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
