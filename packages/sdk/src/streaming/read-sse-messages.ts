import type { SseEvent } from '@infergate/core';
// Core's parser, the gateway's own, is bundled at build time: the SDK keeps no copy of the SSE rules.
import { createSseParser } from '@infergate/core';

/** Decodes a byte stream into server-sent events as bytes arrive; UTF-8 sequences may be split across chunks. */
export async function* readSseMessages(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const parser = createSseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // An event not closed by a blank line at the end of the stream is dropped, as the SSE rules say.
      if (done) break;
      yield* parser.push(value);
    }
  } finally {
    // Reached on break/return too: cancelling closes the connection, and the gateway aborts the generation.
    await reader.cancel().catch(() => undefined);
  }
}
