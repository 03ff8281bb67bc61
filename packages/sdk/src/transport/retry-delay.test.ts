import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryAfterMs, retryDelayMs } from './retry-delay.js';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads retry-after-ms before Retry-After', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(
      250,
    );
  });

  it('reads Retry-After as seconds, fractions included', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
  });

  it('reads Retry-After as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:03 GMT' }), now)).toBe(
      3000,
    );
  });

  it('falls back to Retry-After when retry-after-ms is garbage', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': 'soon', 'retry-after': '1' }), now)).toBe(
      1000,
    );
  });

  it('ignores absent, unparseable, past and over-a-minute values', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'later' }), now)).toBeUndefined();
    expect(
      retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 11:59:00 GMT' }), now),
    ).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '61' }), now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('doubles from 500 ms up to 8 s without jitter', () => {
    const noJitter = () => 0;
    expect(
      [0, 1, 2, 3, 4, 5, 9].map((retry) => retryDelayMs(retry, undefined, noJitter, now)),
    ).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('takes off at most a quarter as jitter', () => {
    expect(retryDelayMs(1, undefined, () => 0.999_999, now)).toBe(750);
    expect(retryDelayMs(1, undefined, () => 0.5, now)).toBe(875);
  });

  it('uses the server’s Retry-After as is', () => {
    expect(retryDelayMs(3, new Headers({ 'retry-after': '0' }), () => 0.5, now)).toBe(0);
    expect(retryDelayMs(0, new Headers({ 'retry-after-ms': '1234' }), () => 0.5, now)).toBe(1234);
  });
});

describe('isRetryableStatus', () => {
  it('retries 429, 502, 503 and 504 only', () => {
    const statuses = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 501, 502, 503, 504, 505];
    expect(statuses.filter(isRetryableStatus)).toEqual([429, 502, 503, 504]);
  });
});
