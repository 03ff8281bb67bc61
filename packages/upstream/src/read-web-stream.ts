import type { AbortSignalLike } from '@infergate/core';
/**
 * A Web ReadableStream as an async iterable, pulling one chunk per step (so backpressure holds). The
 * stream is cancelled when the reader stops early or `signal` aborts, even while a read is pending
 * (a stalled producer would otherwise hold the read forever). Written out because not every runtime
 * makes ReadableStream async-iterable.
 */
export async function* readWebStream(
  stream: ReadableStream<Uint8Array> | null,
  signal: AbortSignalLike,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (stream === null) return;
  const reader = stream.getReader();
  const cancel = () => {
    reader.cancel(signal.reason).catch(() => {});
  };
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      if (value.length > 0) yield value;
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
