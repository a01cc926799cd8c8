// The process's standard streams, as the CLI uses them: is a descriptor a terminal, and write text to
// it. Both avoid Node's stream stack where they can: building process.stdout/stderr loads tty, net and
// the streams modules, a noticeable share of a short command's run time.
import { fstatSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface TextSink {
  write(text: string): void;
}

/** Only a character device can be a terminal; ask tty (and load it) only for those. */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed descriptor
  }
  const tty = createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
  return tty.isatty(fd);
}

/**
 * Synchronous writes straight to fd 1 or 2, so output is complete when the process exits. A reader
 * that has gone away (`oxo-flow dry-run | head`) ends the output quietly. A descriptor someone made
 * non-blocking (EAGAIN) hands the rest, and everything after it, to Node's stream, which waits.
 */
export function fdSink(fd: 1 | 2): TextSink & { readonly written: boolean } {
  let stream: NodeJS.WritableStream | undefined;
  let closed = false;
  return {
    /** True while every write so far has reached the descriptor (none is waiting in a stream). */
    get written() {
      return stream === undefined;
    },
    write(text: string) {
      if (closed || text === '') return;
      if (stream) {
        stream.write(text);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < bytes.length) {
        try {
          offset += writeSync(fd, bytes, offset);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') {
            closed = true;
            return;
          }
          if (code !== 'EAGAIN') throw err;
          stream = fd === 1 ? process.stdout : process.stderr;
          stream.write(bytes.subarray(offset));
          return;
        }
      }
    },
  };
}
