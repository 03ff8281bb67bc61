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
  /**
   * While no event is ready, a `: keepalive` comment goes to the client every this many ms
   * (DESIGN.md: 15 s), so proxies and clients with read timeouts keep a waiting stream open. 0 or
   * absent: none. Comments are the client side only: the upstream idle limit is not reset by them.
   */
  keepaliveMs?: number;
}

const keepaliveComment = new TextEncoder().encode(': keepalive\n\n');

/**
 * A pull-based byte stream of encoded events: nothing is read from `events` until the consumer asks
 * (highWaterMark 0), so a slow client slows the upstream read instead of filling memory. cancel()
 * calls the source's return(), which ends the upstream call.
 */
export function sseResponseStream(events: AsyncIterable<SseEvent>, options: SseResponseStreamOptions = {}): ReadableStream<Uint8Array> {
  const iterator = events[Symbol.asyncIterator]();
  const keepaliveMs = options.keepaliveMs ?? 0;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  const stopKeepalive = (): void => {
    if (keepalive !== undefined) clearInterval(keepalive);
    keepalive = undefined;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (keepaliveMs > 0) {
          keepalive = setInterval(() => {
            // Each chunk is a whole event, so a comment between two chunks never splits one. Only
            // when nothing is queued: a client that is not reading gets at most one comment waiting.
            if ((controller.desiredSize ?? 0) >= 0) controller.enqueue(keepaliveComment);
          }, keepaliveMs);
        }
        let next: IteratorResult<SseEvent>;
        try {
          next = await iterator.next();
        } finally {
          stopKeepalive();
        }
        if (next.done === true) controller.close();
        else controller.enqueue(encodeSseEvent(next.value));
      },
      cancel() {
        stopKeepalive();
        options.onCancel?.();
        // Not awaited: it may wait for a pending next() (see onCancel), and cancel must not hang on it.
        iterator.return?.().catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
