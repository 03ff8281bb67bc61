import type { AbortSignalLike } from '@infergate/core';
/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as the signal aborts, whichever is
 * first, so no wait on a transport outlives an abort even if the transport is slow to notice it.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignalLike): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // the abandoned promise may still reject; nobody awaits it
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason as unknown);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
