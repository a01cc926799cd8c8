// The --json document, written as it is made. A command whose document holds one row per job (dry-run
// of 120,000 jobs: over 100 MB of text) hands that list over as a StreamedArray, whose rows are built
// and written a chunk at a time, so neither the rows nor the text are ever all in memory. The bytes are
// exactly those of JSON.stringify(document, null, 2) with the list built whole.
import type { TextSink } from './std-streams.js';

/** A list in the --json document whose items are made on demand, in order, each once. */
export class StreamedArray {
  constructor(
    readonly length: number,
    readonly item: (index: number) => unknown,
  ) {}

  /** The whole list, for a reader that wants the value (not the writer, which streams it). */
  toJSON(): unknown[] {
    return Array.from({ length: this.length }, (_, i) => this.item(i));
  }
}

/**
 * Items serialised per write: enough that a write is not per job, few enough that a chunk's text
 * (about 60 KB for dry-run's rows) stays an ordinary young string (V8 gives a string over 128 KiB a
 * page of its own, and 256 rows took 0.96× the CPU time of 64) and fits one pipe buffer.
 */
const CHUNK = 64;
const INDENT = 2;

/**
 * Write `doc` as JSON.stringify(doc, null, 2) + "\n" would, each piece passed through `redact` first.
 * A StreamedArray value of one of the document's own fields is written chunk by chunk (anywhere else it
 * is serialised whole, through its toJSON). A piece boundary always falls between two items, where the
 * text has a raw newline, which no JSON string holds: a redaction (of a value inside a string) never
 * straddles two pieces.
 */
export function writeJsonDocument(doc: Record<string, unknown>, sink: TextSink, redact: (text: string) => string): void {
  const streamed: StreamedArray[] = [];
  const marker = `\u0000oxo-flow-stream-${process.pid}-${Math.random().toString(36).slice(2)}-`;
  const shallow: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    if (value instanceof StreamedArray) {
      shallow[key] = `${marker}${streamed.length}`;
      streamed.push(value);
    } else shallow[key] = value;
  }
  const text = JSON.stringify(shallow, null, INDENT);
  if (streamed.length === 0) {
    sink.write(`${redact(text)}\n`);
    return;
  }
  const quoted = JSON.stringify(marker).slice(0, -1); // the opening quote and the escaped marker
  let at = 0;
  for (let n = 0; n < streamed.length; n++) {
    const token = `${quoted}${n}"`;
    const found = text.indexOf(token, at);
    sink.write(redact(text.slice(at, found)));
    // A field of the document: its items sit two levels in.
    writeItems(streamed[n]!, 2, sink, redact);
    at = found + token.length;
  }
  sink.write(`${redact(text.slice(at))}\n`);
}

/** `[`, the items at `depth` levels of indentation, `]`: as JSON.stringify lays them out. */
function writeItems(list: StreamedArray, depth: number, sink: TextSink, redact: (text: string) => string): void {
  if (list.length === 0) {
    sink.write('[]');
    return;
  }
  // Wrapped in depth - 1 arrays, a chunk's items are laid out at `depth`; the wrapping is cut off.
  let prefix = '';
  let suffix = '';
  for (let level = 0; level < depth; level++) {
    prefix += `${' '.repeat(level * INDENT)}[\n`;
    suffix = `\n${' '.repeat(level * INDENT)}]${suffix}`;
  }
  sink.write('[\n');
  const chunk: unknown[] = [];
  for (let start = 0; start < list.length; start += CHUNK) {
    const end = Math.min(list.length, start + CHUNK);
    chunk.length = 0;
    for (let i = start; i < end; i++) chunk.push(list.item(i));
    let wrapped: unknown = chunk;
    for (let level = 1; level < depth; level++) wrapped = [wrapped];
    const text = JSON.stringify(wrapped, null, INDENT);
    // The separator goes by itself: joined to the chunk, the chunk would be copied once more.
    if (start > 0) sink.write(',\n');
    sink.write(redact(text.slice(prefix.length, text.length - suffix.length)));
  }
  sink.write(`\n${' '.repeat((depth - 1) * INDENT)}]`);
}
