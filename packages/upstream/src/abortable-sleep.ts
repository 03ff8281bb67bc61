import type { AbortSignalLike } from '@infergate/core';
import { upstreamFailure } from './upstream-failure.js';

/** Waits `ms`, or rejects with an `aborted` UpstreamError as soon as `signal` aborts; the timer never outlives it. */
export function abortableSleep(ms: number, signal: AbortSignalLike): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(upstreamFailure('aborted', 'connect'));
      return;
    }
    const onAbort = () => {
      clearTimeout(handle);
      reject(upstreamFailure('aborted', 'connect'));
    };
    const handle = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
