import type { AbortSignalLike, SseEvent, TakeableIterator, UpstreamError } from '@infergate/core';
import type { SseEventReader } from './sse-event-reader.js';
import { upstreamFailure } from './upstream-failure.js';

export interface EventIteratorHooks {
  /** The attempt's signal: once aborted, the next pull throws its reason. */
  signal: AbortSignalLike;
  /** Aborts the upstream request (closes the socket) with a reason. */
  abort(reason: UpstreamError): void;
  /** Called once when the stream is over for any reason: releases timers and counters. */
  end(): void;
  /** Called with the failure a pull is about to throw (an idle timeout, a reset, a framing error). */
  failed(error: unknown): void;
}

// The reason every stream the consumer stops early is aborted with (after [DONE], on most streams):
// one shared error, as building one with its stack per stream showed in the stream profile.
const consumerStopped = upstreamFailure('aborted', 'body');

/**
 * The `events` of a stream response: the first event (already read inside `send()`, which is how the
 * first-event limit can still produce a 504), then the rest. `take()` hands out, without a wait, the
 * first event and then those the last network read completed; `next()` reports the end and failures.
 * `return()` aborts the upstream at once.
 */
export function createEventIterator(
  first: SseEvent | undefined,
  rest: SseEventReader,
  hooks: EventIteratorHooks,
): TakeableIterator<SseEvent> {
  let pendingFirst = first;
  let ended = first === undefined;
  if (ended) hooks.end();

  const stop = (): IteratorResult<SseEvent> => {
    if (!ended) {
      ended = true;
      hooks.abort(consumerStopped);
      hooks.end();
      rest.release();
    }
    return { done: true, value: undefined };
  };

  const iterator: TakeableIterator<SseEvent> = {
    take() {
      // Over, or aborted: next() ends the stream or throws the reason.
      if (ended || hooks.signal.aborted) return undefined;
      if (pendingFirst !== undefined) {
        const event = pendingFirst;
        pendingFirst = undefined;
        return event;
      }
      return rest.take();
    },
    async next() {
      if (ended) return { done: true, value: undefined };
      if (hooks.signal.aborted) {
        ended = true;
        hooks.end();
        hooks.failed(hooks.signal.reason);
        throw hooks.signal.reason;
      }
      // The first event, then what the last read completed: take() (not ended, not aborted here).
      const queued = iterator.take?.();
      if (queued !== undefined) return { done: false, value: queued };
      try {
        const result = await rest.read(true);
        if (result.done === true) {
          ended = true;
          hooks.end();
          return { done: true, value: undefined };
        }
        return result;
      } catch (error) {
        ended = true;
        hooks.abort(error as UpstreamError);
        hooks.end();
        hooks.failed(error);
        throw error;
      }
    },
    async return() {
      return stop();
    },
    async throw(error?: unknown) {
      stop();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
