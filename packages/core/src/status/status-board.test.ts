import { describe, expect, it } from 'vitest';
import type { RequestObservation } from '../ports/ports.js';
import { StatusBoard } from './status-board.js';

const start = Date.UTC(2026, 11, 2, 12, 0, 0);

function observation(fields: Partial<RequestObservation>): RequestObservation {
  return {
    requestId: 'req',
    operationId: 'createChatCompletion',
    status: 200,
    durationMs: 10,
    firstByteMs: 10,
    streamed: false,
    ...fields,
  };
}

const sources = { upstreams: [], requestsInFlight: 0, requestsLimit: 0 };

describe('StatusBoard', () => {
  it('counts requests, errors and time to first byte in ten-second buckets over ten minutes', () => {
    const board = new StatusBoard(start);
    board.observe(start + 1_000, observation({ firstByteMs: 20 }), undefined);
    board.observe(start + 2_000, observation({ firstByteMs: 40, status: 502 }), {
      cause: 'refused',
    });
    board.observe(start + 3_000, observation({ status: 429 }), undefined);
    board.observe(start + 15_000, observation({ firstByteMs: 5 }), undefined);
    const { buckets } = board.snapshot(start + 19_000, sources).traffic;
    expect(buckets).toHaveLength(60);
    expect(buckets.at(-2)).toEqual({
      start: new Date(start).toISOString(),
      requests: 3,
      server_errors: 1,
      client_errors: 1,
      first_byte_ms_avg: 23.3,
      first_byte_ms_max: 40,
    });
    expect(buckets.at(-1)?.requests).toBe(1);
    // Ten minutes later the same slots are reused: nothing old shows.
    const later = board.snapshot(start + 610_000, sources).traffic.buckets;
    expect(later.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(0);
  });

  it("shows each configured key's last minute against its limits, and a revoked key while it was used", () => {
    const board = new StatusBoard(start);
    board.describeKeys([
      { name: 'team-a', limits: { requestsPerMinute: 10, tokensPerMinute: 1000 } },
      'a-bare-key',
    ]);
    board.observe(
      start,
      observation({ keyName: 'team-a', inputTokens: 7, outputTokens: 3 }),
      undefined,
    );
    board.observe(start + 50_000, observation({ keyName: 'team-a', inputTokens: 1 }), undefined);
    board.observe(start + 50_000, observation({ keyName: 'gone' }), undefined);
    expect(board.snapshot(start + 55_000, sources).keys).toEqual([
      {
        name: 'team-a',
        last_minute: { requests: 2, tokens: 11 },
        limits: { requests_per_minute: 10, tokens_per_minute: 1000, concurrent_requests: null },
        budget: null,
      },
      {
        name: 'unnamed',
        last_minute: { requests: 0, tokens: 0 },
        limits: { requests_per_minute: null, tokens_per_minute: null, concurrent_requests: null },
        budget: null,
      },
      {
        name: 'gone',
        last_minute: { requests: 1, tokens: 0 },
        limits: { requests_per_minute: null, tokens_per_minute: null, concurrent_requests: null },
        budget: null,
      },
    ]);
    // A minute on, the first request has left the window.
    expect(board.snapshot(start + 65_000, sources).keys[0]?.last_minute).toEqual({
      requests: 1,
      tokens: 1,
    });
  });

  it("shows a budget's remainder as of the key's latest request, until that period ends", () => {
    const board = new StatusBoard(start);
    board.describeKeys([{ name: 'team-b', budget: { amount: 5, currency: 'USD', period: 'day' } }]);
    const budgetAt = (now: number) => board.snapshot(now, sources).keys[0]?.budget;
    expect(budgetAt(start)).toEqual({
      amount: 5,
      currency: 'USD',
      period: 'day',
      remaining: null,
      resets_at: null,
    });
    const midnight = Date.UTC(2026, 11, 3);
    board.noteBudget('team-b', 4.2500001, midnight);
    expect(budgetAt(start + 1_000)).toMatchObject({
      remaining: 4.25,
      resets_at: '2026-12-03T00:00:00.000Z',
    });
    expect(budgetAt(midnight)).toMatchObject({ remaining: null, resets_at: null });
  });

  it('keeps the last 50 failures, newest first, and each upstream its last one', () => {
    const board = new StatusBoard(start);
    for (let index = 0; index < 60; index++)
      board.observe(
        start + index,
        observation({ status: 504, model: `m${index}`, endpoint: index % 2 ? 'b' : 'a' }),
        { cause: 'timeout' },
      );
    board.observe(start + 100, observation({ status: 503, errorCode: 'overloaded' }), undefined);
    const snapshot = board.snapshot(start + 200, {
      upstreams: [
        {
          upstream: 'a',
          state: 'ejected',
          models: ['m'],
          inFlight: 0,
          consecutiveFailures: 5,
          ejectedForMs: 900,
        },
      ],
      requestsInFlight: 2,
      requestsLimit: 10,
    });
    expect(snapshot.failures).toHaveLength(50);
    expect(snapshot.failures[0]).toMatchObject({
      status: 503,
      cause: 'overloaded',
      upstream: null,
    });
    expect(snapshot.failures[1]).toMatchObject({ model: 'm59', upstream: 'b', cause: 'timeout' });
    expect(snapshot.upstreams[0]?.last_failure).toEqual({
      at: new Date(start + 58).toISOString(),
      status: 504,
      cause: 'timeout',
    });
    expect(snapshot.in_flight).toEqual({ requests: 2, streams: 0, limit: 10 });
  });
});
