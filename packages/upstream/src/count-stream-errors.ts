import { isUpstreamError } from '@infergate/core';
import type { TakeableIterator } from '@infergate/core';

/**
 * The same event iterator, reporting the kind of an UpstreamError it throws (idle timeout, reset,
 * framing) before passing it on; `return()` still reaches the original, which aborts the upstream, and
 * `take()` is the original's (it never throws: failures come from `next()`).
 */
export function countStreamErrors<Event>(events: TakeableIterator<Event>, onError: (kind: string) => void): TakeableIterator<Event> {
  const counted: TakeableIterator<Event> = {
    async next() {
      try {
        return await events.next();
      } catch (error) {
        if (isUpstreamError(error) && error.kind !== 'aborted') onError(error.kind);
        throw error;
      }
    },
    [Symbol.asyncIterator]() {
      return counted;
    },
  };
  if (events.take !== undefined) counted.take = () => (events.take as NonNullable<typeof events.take>)();
  if (events.return !== undefined) counted.return = (value?: unknown) => (events.return as NonNullable<typeof events.return>)(value);
  if (events.throw !== undefined) counted.throw = (error?: unknown) => (events.throw as NonNullable<typeof events.throw>)(error);
  return counted;
}
