/**
 * An async iterator that can also hand out, without a promise, an event that is already there: the
 * events one upstream read completes go through every layer of a stream, and out to the client, in
 * one synchronous pass instead of one microtask chain per event (issue 15). `take()` returns
 * undefined when nothing is ready now (or the stream is over, or failed): the caller then awaits
 * `next()`, which reports the end or the failure. Optional: an iterator without it is read through
 * `next()` alone.
 */
export interface TakeableIterator<E> extends AsyncIterableIterator<E> {
  take?(): E | undefined;
}
