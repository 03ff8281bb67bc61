import { wholeBytes } from '@infergate/core';

/**
 * Reads a whole body into one buffer, throwing `tooLarge()` as soon as its bytes pass `maxBytes`, so
 * an endless or huge body never grows memory past the cap. Used for model-server answers (an
 * UpstreamError, 502) and the edge app's request bodies (413 naming the limit). A Web ReadableStream
 * is read through its own reader (not every runtime makes it async-iterable) whose lock is released
 * on the way out with the rest left unread: the caller decides whether to drain it or drop it. An
 * async iterable is returned early, which cancels what it reads from. `admit`, when given, sees every
 * chunk within the cap and may refuse it by throwing (the edge app's in-flight body budget on Node).
 * `signal`, when given, stops a Web stream's read when it aborts (the edge app's body idle limit on Node):
 * the lock is released with the rest unread, and its reason is thrown.
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
