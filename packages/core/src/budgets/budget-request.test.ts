import { describe, expect, it } from 'vitest';
import type { KeyBudget, PriceEntry } from '../config/gateway-config.js';
import { BudgetTicket } from './budget-request.js';
import type { BudgetLease } from './budget-store.js';

const budget: KeyBudget = { amount: 10, currency: 'USD', period: 'day' };
const prices: Record<string, PriceEntry> = {
  'alpha36-35b-a3b-instruct': {
    input_per_million: 1000,
    output_per_million: 2000,
    currency: 'USD',
  },
};

function recordingLease(): BudgetLease & { charged: number[] } {
  const charged: number[] = [];
  return { remaining: 10, resetAt: 0, charged, settle: (used) => charged.push(used) };
}

describe('BudgetTicket.settle', () => {
  it('charges only the parts in the budget currency', () => {
    const lease = recordingLease();
    new BudgetTicket(lease, budget, '{}').settle(
      { model: 'alpha36-35b-a3b-instruct', inputTokens: 1, outputTokens: 1 },
      [
        { model: 'alpha36-35b-a3b-instruct', amount: 0.25, currency: 'USD' },
        { model: 'alpha35-122b-a10b-instruct-general', amount: 0.5, currency: 'EUR' },
      ],
      undefined,
      prices,
    );
    expect(lease.charged).toEqual([0.25]);
  });

  it('charges a stream cut before its usage the prompt estimate and one token per event sent', () => {
    const lease = recordingLease();
    // 40 characters: 10 tokens in at 0.001; 7 events out at 0.002.
    const body = '{"model":"alpha36-35b-a3b-instruct","a":1}'.slice(0, 40);
    expect(body).toHaveLength(40);
    new BudgetTicket(lease, budget, body).settle(
      { model: 'alpha36-35b-a3b-instruct' },
      [],
      7,
      prices,
    );
    expect(lease.charged).toHaveLength(1);
    expect(lease.charged[0]).toBeCloseTo(0.01 + 0.014, 12);
  });

  it('charges a request that reached no model nothing', () => {
    const lease = recordingLease();
    new BudgetTicket(lease, budget, '{}').settle({}, [], undefined, prices);
    expect(lease.charged).toEqual([0]);
  });
});
