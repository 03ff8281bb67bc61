import { createSseParser, type SseEvent } from '@infergate/core';
import { upstreamFailure } from './upstream-failure.js';

export interface SseStreamOptions {
  /** Largest line, and largest sum of one event's data lines, in bytes; past it the stream is refused (fault-matrix row 26). */
  maxEventBytes: number;
}

const eventTooLarge = () => upstreamFailure('too_large', 'body', undefined, 'A streamed event exceeded the size limit.');

/** Server-sent events from a byte stream, each yielded as soon as its blank line arrives. */
export async function* parseSseStream(chunks: AsyncIterable<Uint8Array>, options: SseStreamOptions): AsyncGenerator<SseEvent, void, undefined> {
  const parser = createSseParser({ maxEventLength: options.maxEventBytes, tooLarge: eventTooLarge });
  for await (const chunk of chunks) {
    for (const event of parser.push(chunk)) yield event;
  }
}
