// An append-only file written off the job's path: lines are queued and written together, in one
// system call, at most `delayMs` later (or at once when a lot is queued, and on flush()). A runner
// killed with -9 loses at most the lines of its last `delayMs`; the job state (the run's journal in
// .oxo-flow/state/jobs/, src/run/state.ts) is appended at once and synced, and is what a resumed run trusts.
import { closeSync, openSync, writeSync } from 'node:fs';

/** Queued text past this is written at once. */
const HIGH_WATER = 64 * 1024;

export class Appender {
  #fd: number | undefined;
  #queue: string[] = [];
  #queued = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #delayMs: number;
  readonly #scrub: (text: string) => string;

  constructor(file: string, scrub: (text: string) => string = (t) => t, delayMs = 200) {
    this.#fd = openSync(file, 'a');
    this.#scrub = scrub;
    this.#delayMs = delayMs;
  }

  write(text: string): void {
    if (this.#fd === undefined) return;
    this.#queue.push(text);
    this.#queued += text.length;
    if (this.#queued >= HIGH_WATER) this.flush();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#delayMs);
      this.#timer.unref();
    }
  }

  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#fd === undefined || this.#queue.length === 0) return;
    const text = this.#scrub(this.#queue.join(''));
    this.#queue = [];
    this.#queued = 0;
    writeSync(this.#fd, text);
  }

  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
