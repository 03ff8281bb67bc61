/** Milliseconds to wait before retry number `retry` (1-based): 25 ms up to a ceiling doubling from 50 to 250, with full jitter. */
export function backoffDelay(retry: number, random: () => number): number {
  const ceiling = Math.min(250, 25 * 2 ** Math.max(1, retry));
  return Math.round(25 + random() * (ceiling - 25));
}
