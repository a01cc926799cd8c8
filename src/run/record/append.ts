// An append-only file written off the job's path: lines are queued and written in one system call
// on the next turn of the event loop (after the runner has started or finished the job that caused
// them), and at once on flush(). A runner killed with -9 loses at most the lines of its last turn.
import { closeSync, openSync, writeSync } from 'node:fs';

export class Appender {
  #fd: number | undefined;
  #queue: string[] = [];
  #scheduled = false;
  readonly #scrub: (text: string) => string;

  constructor(file: string, scrub: (text: string) => string = (t) => t) {
    this.#fd = openSync(file, 'a');
    this.#scrub = scrub;
  }

  write(text: string): void {
    if (this.#fd === undefined) return;
    this.#queue.push(text);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#fd === undefined || this.#queue.length === 0) return;
    const text = this.#scrub(this.#queue.join(''));
    this.#queue = [];
    writeSync(this.#fd, text);
  }

  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
