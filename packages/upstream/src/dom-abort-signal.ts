import type { AbortSignalLike } from '@infergate/core';

/** A DOM AbortSignal that aborts with `signal`: fetch and Request take nothing else. */
export function domAbortSignal(signal: AbortSignalLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}
