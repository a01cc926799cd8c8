// Server-sent events over an HTTP body, with eventsource-parser: events are handed over as they
// are parsed, total bytes and one event's size are capped. Used by MCP replies and provider streams.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type SseEvent = EventSourceMessage;

export class SseTooLarge extends Error {
  override readonly name = 'SseTooLarge';
  constructor(readonly what: 'event' | 'response', readonly limit: number) {
    super(what === 'event' ? `an SSE event larger than ${limit} bytes` : `more than ${limit} bytes in one response`);
  }
}

export interface SseReadOptions {
  /** Cap on one event and on the whole body. */
  maxBytes: number;
  onEvent(event: SseEvent): void;
  onRetry?(ms: number): void;
  /** Checked after each chunk: stop reading (and close the body) when it returns true. */
  stop?(): boolean;
}

/**
 * Read an SSE body to its end (or until `stop`). Network errors propagate as src/net/http.ts raised them;
 * an over-size event or body throws SseTooLarge. The body is always closed.
 */
export async function readSse(body: AsyncIterable<unknown> & { destroy(): unknown }, options: SseReadOptions): Promise<void> {
  let tooLarge: SseTooLarge | undefined;
  const parser = createParser({
    maxBufferSize: options.maxBytes,
    onEvent: options.onEvent,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') tooLarge ??= new SseTooLarge('event', options.maxBytes);
    },
  });
  const decoder = new TextDecoder();
  let total = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Uint8Array;
      total += bytes.length;
      if (total > options.maxBytes) tooLarge ??= new SseTooLarge('response', options.maxBytes);
      if (tooLarge === undefined) parser.feed(decoder.decode(bytes, { stream: true }));
      if (tooLarge !== undefined || options.stop?.()) break;
    }
    if (tooLarge === undefined && !options.stop?.()) parser.feed(decoder.decode());
  } finally {
    body.destroy();
  }
  if (tooLarge !== undefined) throw tooLarge;
}
