import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { divideKeyLimits } from './key-limits.js';

describe('key limits and redis in the configuration file', () => {
  it("reads the issue's key format, both concurrency spellings, and the redis section with its defaults", () => {
    const config = resolveGatewayConfig(
      {
        redis: { url: 'redis://127.0.0.1:6379' },
        keys: [
          {
            key: 'key-a',
            name: 'team-a',
            models: ['general-std'],
            limits: {
              requests_per_minute: 600,
              tokens_per_minute: 200000,
              concurrent_requests: 20,
            },
          },
          { key: 'key-b', limits: { max_concurrent_requests: '3' } },
          'key-c',
        ],
      },
      {},
    );
    expect(config.keyEntries).toEqual([
      {
        key: 'key-a',
        name: 'team-a',
        models: ['general-std'],
        limits: { requestsPerMinute: 600, tokensPerMinute: 200000, concurrentRequests: 20 },
      },
      { key: 'key-b', limits: { concurrentRequests: 3 } },
      { key: 'key-c' },
    ]);
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      budgetMs: 20,
      replicas: 1,
      slotTtlMs: 30000,
      accuracyPercent: 5,
      leaseMs: 1000,
    });
    expect(
      resolveGatewayConfig(
        { redis: { url: 'redis://127.0.0.1:6379', accuracy_percent: '0', lease_ms: 250 } },
        {},
      ).redis,
    ).toMatchObject({
      accuracyPercent: 0,
      leaseMs: 250,
    });
    expect(resolveGatewayConfig({}, {}).redis).toBeUndefined();
  });

  it('refuses both concurrency spellings at once, a redis URL of another scheme, and lease settings out of range, naming the field', () => {
    expect(() =>
      resolveGatewayConfig(
        { keys: [{ key: 'k', limits: { concurrent_requests: 1, max_concurrent_requests: 1 } }] },
        {},
      ),
    ).toThrow(/keys\[0\]/);
    expect(() => resolveGatewayConfig({ redis: { url: 'http://127.0.0.1:6379' } }, {})).toThrow(
      /redis\.url/,
    );
    expect(() =>
      resolveGatewayConfig({ redis: { url: 'redis://127.0.0.1:6379', accuracy_percent: 101 } }, {}),
    ).toThrow(/redis\.accuracy_percent: expected a percentage 0\.\.100/);
    expect(() =>
      resolveGatewayConfig({ redis: { url: 'redis://127.0.0.1:6379', accuracy_percent: 2.5 } }, {}),
    ).toThrow(/redis\.accuracy_percent/);
    expect(() =>
      resolveGatewayConfig({ redis: { url: 'redis://127.0.0.1:6379', lease_ms: 0 } }, {}),
    ).toThrow(/redis\.lease_ms/);
  });

  it('gives each replica 1/n of every limit, at least 1', () => {
    expect(
      divideKeyLimits({ requestsPerMinute: 600, tokensPerMinute: 100, concurrentRequests: 2 }, 3),
    ).toEqual({
      requestsPerMinute: 200,
      tokensPerMinute: 33,
      concurrentRequests: 1,
    });
  });
});
