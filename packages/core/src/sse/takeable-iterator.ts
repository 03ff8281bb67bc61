/**
 * An async iterator that can also hand out, without a promise, an event that is already there, so that
 * the events one upstream read completes pass every layer of a stream in one synchronous pass. `take()`
 * returns undefined when nothing is ready now (or the stream is over or failed), and the caller then
 * awaits `next()`. Optional: an iterator without it is read through `next()` alone.
 */
export interface TakeableIterator<E> extends AsyncIterableIterator<E> {
  take?(): E | undefined;
}
