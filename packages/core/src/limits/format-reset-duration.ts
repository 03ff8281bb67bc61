/**
 * A duration in the form the widely used completion API sends in `x-ratelimit-reset-*` (Go's duration
 * notation): `20ms`, `1s`, `1.5s`, `6m0s`, `1h0m0s`. Rounded to whole milliseconds.
 */
export function formatResetDuration(milliseconds: number): string {
  const total = Math.max(0, Math.round(milliseconds));
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const secondsText = secondsOf(total % 60_000);
  if (hours > 0) return `${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${minutes}m${secondsText}`;
  return secondsText;
}

// Up to three decimals, trailing zeros dropped: 1.5s, 2.382s, 42s. Integer arithmetic rather than
// toFixed: every limited response formats this twice.
function secondsOf(milliseconds: number): string {
  const whole = Math.floor(milliseconds / 1000);
  let fraction = milliseconds % 1000;
  if (fraction === 0) return `${whole}s`;
  let digits = 3;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return `${whole}.${String(fraction).padStart(digits, '0')}s`;
}
