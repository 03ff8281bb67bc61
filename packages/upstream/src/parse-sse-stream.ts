import type { SseEvent } from '@infergate/core';
import { createSseEventReader } from './sse-event-reader.js';

export interface SseStreamOptions {
  /** Largest line, and largest sum of one event's data lines, in bytes; past it the stream is refused (fault-matrix row 26). */
  maxEventBytes: number;
}

/**
 * Server-sent events from a byte stream, each yielded as soon as its blank line arrives: the port's
 * event reader without its limits, for callers that iterate a body of their own.
 */
export async function* parseSseStream(
  chunks: AsyncIterable<Uint8Array>,
  options: SseStreamOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  const reader = createSseEventReader(chunks, {
    maxEventBytes: options.maxEventBytes,
    signal: new AbortController().signal,
    idleMs: 0,
    onIdle: () => {},
  });
  try {
    for (;;) {
      const result = await reader.read(false);
      if (result.done === true) return;
      yield result.value;
    }
  } finally {
    reader.release();
  }
}
