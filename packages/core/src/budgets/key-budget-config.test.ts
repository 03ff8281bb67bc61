import { describe, expect, it } from 'vitest';
import { isConfigError, resolveGatewayConfig } from '../config/resolve-gateway-config.js';

const usd = { input_per_million: 0.15, output_per_million: 0.6, currency: 'USD' };

function refusal(file: unknown): string {
  try {
    resolveGatewayConfig(file, {});
  } catch (error) {
    if (isConfigError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('keys[].budget in the configuration file', () => {
  it('reads a budget beside the limits', () => {
    const config = resolveGatewayConfig(
      {
        prices: { 'alpha36-35b-a3b-instruct': usd },
        keys: [
          {
            key: 'key-a',
            name: 'team-a',
            budget: { amount: '50', currency: 'USD', period: 'month' },
          },
        ],
      },
      {},
    );
    expect(config.keyEntries).toEqual([
      { key: 'key-a', name: 'team-a', budget: { amount: 50, currency: 'USD', period: 'month' } },
    ]);
  });

  it('names the field of an amount, currency or period it cannot take', () => {
    const key = (budget: unknown): unknown => ({
      prices: { 'gamma-m3': usd },
      keys: [{ key: 'k', budget }],
    });
    expect(refusal(key({ amount: 0, currency: 'USD', period: 'day' }))).toMatch(
      /^keys\[0\]\.budget\.amount: /,
    );
    expect(refusal(key({ amount: 5, currency: 'usd', period: 'day' }))).toMatch(
      /^keys\[0\]\.budget\.currency: /,
    );
    expect(refusal(key({ amount: 5, currency: 'USD', period: 'year' }))).toBe(
      'keys[0].budget.period: expected day, week or month',
    );
    expect(refusal(key({ amount: 5, currency: 'USD', period: 'day', every: 2 }))).toMatch(
      /^keys\[0\]\.budget\.every: unknown key/,
    );
  });

  it('refuses a budget that no price of the key could ever charge', () => {
    expect(
      refusal({ keys: [{ key: 'k', budget: { amount: 5, currency: 'USD', period: 'day' } }] }),
    ).toBe(
      'keys[0].budget.currency: no price is configured for any model, so nothing would be charged to this budget',
    );
    expect(
      refusal({
        prices: { 'gamma-m3': usd },
        keys: [{ key: 'k', budget: { amount: 5, currency: 'EUR', period: 'day' } }],
      }),
    ).toBe('keys[0].budget.currency: no price of any model is in EUR (prices use USD)');
    // Only the key's own models count: a price of a model it may not use charges nothing to it.
    expect(
      refusal({
        prices: { 'gamma-m3': usd, 'alpha36-35b-a3b-instruct': { ...usd, currency: 'EUR' } },
        keys: [
          {
            key: 'k',
            models: ['alpha36-35b-a3b-instruct'],
            budget: { amount: 5, currency: 'USD', period: 'day' },
          },
        ],
      }),
    ).toBe("keys[0].budget.currency: no price of the key's models is in USD (prices use EUR)");
  });
});
