import { wholeBytes } from '@infergate/core';

/**
 * Reads a whole body into one buffer, throwing `tooLarge()` as soon as it passes `maxBytes`:
 * model-server answers (502) and the edge app's request bodies (413). A Web stream is read through its
 * own reader, its lock released with the rest unread for the caller to drain or drop; an async iterable
 * is returned early. `admit` sees every chunk and may refuse it by throwing (the edge app's body
 * budget); `signal` stops the read when it aborts (its body idle limit), throwing its reason.
 */
export async function readBoundedBytes(
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  admit?: (chunk: Uint8Array) => void,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let total = 0;
  const add = (chunk: Uint8Array): void => {
    total += chunk.byteLength;
    if (total > maxBytes) throw tooLarge();
    admit?.(chunk);
    pieces.push(chunk);
  };
  if ('getReader' in source) {
    const reader = source.getReader();
    // Releasing the lock rejects the read waiting on it, and leaves the stream itself uncancelled.
    const stop = (): void => reader.releaseLock();
    signal?.addEventListener('abort', stop);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        add(value);
      }
    } catch (error) {
      throw signal?.aborted ? signal.reason : error;
    } finally {
      signal?.removeEventListener('abort', stop);
      reader.releaseLock();
    }
  } else {
    for await (const chunk of source) add(chunk);
  }
  return wholeBytes(pieces, total);
}
