import { describe, expect, it } from 'vitest';
import {
  currentWindow,
  decideAdmission,
  limitSnapshot,
  limitWindowMs,
  retryAfterMs,
  settleWindow,
} from './rate-limit-policy.js';

const now = 1_750_000_000_000;

describe('rate-limit policy', () => {
  it('admits exactly requests_per_minute requests in a window, then refuses until the window ends', () => {
    let window;
    let admitted = 0;
    for (let index = 0; index < 10; index += 1) {
      const outcome = decideAdmission(
        window,
        0,
        { key: 'a', limits: { requestsPerMinute: 4 }, estimatedTokens: 0 },
        now + index,
      );
      if (outcome.rejectedBy === undefined) admitted += 1;
      else expect(outcome.rejectedBy).toBe('requests');
      window = outcome.window;
    }
    expect(admitted).toBe(4);
    expect(window?.start).toBe(now);
    const next = decideAdmission(
      window,
      0,
      { key: 'a', limits: { requestsPerMinute: 4 }, estimatedTokens: 0 },
      now + limitWindowMs,
    );
    expect(next.rejectedBy).toBeUndefined();
    expect(next.window).toEqual({ start: now + limitWindowMs, requests: 1, tokens: 0 });
  });

  it('refuses a token estimate that would pass tokens_per_minute, but admits any estimate into an empty window', () => {
    const limits = { tokensPerMinute: 100 };
    const first = decideAdmission(undefined, 0, { key: 'a', limits, estimatedTokens: 100 }, now);
    expect(first.rejectedBy).toBeUndefined();
    expect(
      decideAdmission(first.window, 0, { key: 'a', limits, estimatedTokens: 1 }, now).rejectedBy,
    ).toBe('tokens');
    const partial = decideAdmission(undefined, 0, { key: 'a', limits, estimatedTokens: 60 }, now);
    expect(
      decideAdmission(partial.window, 0, { key: 'a', limits, estimatedTokens: 40 }, now).rejectedBy,
    ).toBeUndefined();
    expect(
      decideAdmission(partial.window, 0, { key: 'a', limits, estimatedTokens: 41 }, now).rejectedBy,
    ).toBe('tokens');
  });

  it('counts concurrency slots and refuses when they are all held', () => {
    const request = { key: 'a', limits: { concurrentRequests: 2 }, estimatedTokens: 0 };
    expect(decideAdmission(undefined, 1, request, now)).toMatchObject({
      rejectedBy: undefined,
      slotsInUse: 2,
    });
    expect(decideAdmission(undefined, 2, request, now)).toMatchObject({
      rejectedBy: 'concurrency',
      slotsInUse: 2,
    });
  });

  it('settles in the same window either way, carries only extra use past the window', () => {
    const window = { start: now, requests: 3, tokens: 500 };
    expect(settleWindow(window, now, -200, now + 10)).toEqual({
      start: now,
      requests: 3,
      tokens: 300,
    });
    expect(settleWindow(window, now, -900, now + 10)?.tokens).toBe(0);
    expect(settleWindow(window, now, 50, now + 10)?.tokens).toBe(550);
    const later = now + limitWindowMs + 5;
    expect(settleWindow(window, now, -200, later)).toBe(window);
    expect(settleWindow(window, now, 70, later)).toEqual({ start: later, requests: 0, tokens: 70 });
  });

  it('reports remaining and reset per limit the key has, and when to retry', () => {
    const window = { start: now, requests: 3, tokens: 500 };
    expect(limitSnapshot(window, { requestsPerMinute: 10 }, now + 15_000)).toEqual({
      requests: { limit: 10, remaining: 7, resetMs: 45_000 },
    });
    expect(limitSnapshot(window, { tokensPerMinute: 400, concurrentRequests: 1 }, now)).toEqual({
      tokens: { limit: 400, remaining: 0, resetMs: 60_000 },
    });
    expect(retryAfterMs('requests', window, now + 59_500)).toBe(500);
    expect(retryAfterMs('concurrency', window, now)).toBe(1000);
  });

  it('starts a fresh window when the stored one has ended or lies far in the future', () => {
    expect(
      currentWindow({ start: now, requests: 1, tokens: 1 }, now + limitWindowMs).requests,
    ).toBe(0);
    expect(
      currentWindow({ start: now + 2 * limitWindowMs, requests: 1, tokens: 1 }, now).start,
    ).toBe(now);
  });
});
