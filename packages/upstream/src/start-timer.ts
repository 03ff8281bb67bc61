// setTimeout overflows above 2^31-1 ms and fires at once; longer limits are clamped to it (~24.8 days).
const maxDelay = 2 ** 31 - 1;

/**
 * Calls `onTimeout` after `ms` unless the returned function is called first. A limit that is not a
 * positive finite number means "no limit" (no timer at all).
 */
export function startTimer(ms: number, onTimeout: () => void): () => void {
  if (!Number.isFinite(ms) || ms <= 0) return () => {};
  const handle = setTimeout(onTimeout, Math.min(ms, maxDelay));
  return () => clearTimeout(handle);
}
