import type { SseEvent } from '@infergate/core';
import { createSseParser } from './create-sse-parser.js';
import type { SseParserOptions } from './create-sse-parser.js';

/** Server-sent events from a byte stream, each yielded as soon as its blank line arrives. */
export async function* parseSseStream(chunks: AsyncIterable<Uint8Array>, options: SseParserOptions): AsyncGenerator<SseEvent, void, undefined> {
  const parser = createSseParser(options);
  for await (const chunk of chunks) {
    for (const event of parser.push(chunk)) yield event;
  }
}
