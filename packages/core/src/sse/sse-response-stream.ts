import { encodeSseEvent } from './encode-sse-event.js';
import type { SseEvent } from './sse-event.js';

/**
 * Headers of every SSE response: no caching or transforming proxies (gzip would hold events back),
 * and `x-accel-buffering: no` so nginx-style proxies flush each event (fault matrix row 23).
 */
export function sseResponseHeaders(): Record<string, string> {
  return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };
}

export interface SseResponseStreamOptions {
  /**
   * Called at once when the client cancels. An async generator's return() waits until its pending
   * next() settles, that is until the upstream sends another event; this hook lets the caller abort
   * the upstream call without that wait.
   */
  onCancel?: () => void;
}

/**
 * A pull-based byte stream of encoded events: nothing is read from `events` until the consumer asks
 * (highWaterMark 0), so a slow client slows the upstream read instead of filling memory. cancel()
 * calls the source's return(), which ends the upstream call.
 */
export function sseResponseStream(events: AsyncIterable<SseEvent>, options: SseResponseStreamOptions = {}): ReadableStream<Uint8Array> {
  const iterator = events[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(encodeSseEvent(next.value));
      },
      cancel() {
        options.onCancel?.();
        // Not awaited: it may wait for a pending next() (see onCancel), and cancel must not hang on it.
        iterator.return?.().catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
