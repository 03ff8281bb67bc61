const initialDelayMs = 500;
const maxDelayMs = 8_000;
// A server asking for longer than this is more likely misconfigured than right; fall back to backoff.
const maxHonouredRetryAfterMs = 60_000;

/**
 * The server's requested wait, from `retry-after-ms` (milliseconds) or `Retry-After` (seconds or an
 * HTTP date), or undefined when absent, unparseable, negative or over a minute.
 */
export function retryAfterMs(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const candidates: number[] = [];
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') candidates.push(Number(milliseconds));
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    candidates.push(Number.isNaN(seconds) ? Date.parse(retryAfter) - now : seconds * 1000);
  }
  const usable = candidates.find(
    (value) => Number.isFinite(value) && value >= 0 && value <= maxHonouredRetryAfterMs,
  );
  return usable === undefined ? undefined : Math.ceil(usable);
}

/**
 * Wait before retry number `retry` (0 for the first retry): the server's Retry-After when it gave a
 * usable one, else 0.5 s doubling to at most 8 s, less up to 25 % jitter so that clients failed
 * together do not come back together.
 */
export function retryDelayMs(
  retry: number,
  headers: Headers | undefined,
  random: () => number = Math.random,
  now: number = Date.now(),
): number {
  const requested = retryAfterMs(headers, now);
  if (requested !== undefined) return requested;
  const backoff = Math.min(initialDelayMs * 2 ** retry, maxDelayMs);
  return Math.round(backoff * (1 - random() * 0.25));
}

/** 429, 502, 503 and 504; not 500 (a gateway bug repeats) nor 4xx (the request is wrong). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}
