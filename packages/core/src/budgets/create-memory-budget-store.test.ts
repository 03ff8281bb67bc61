import { describe, expect, it } from 'vitest';
import type { KeyBudget } from '../config/gateway-config.js';
import type { BudgetDecision, BudgetLease } from './budget-store.js';
import { createMemoryBudgetStore } from './create-memory-budget-store.js';

const daily: KeyBudget = { amount: 1, currency: 'USD', period: 'day' };

function leaseOf(decision: BudgetDecision): BudgetLease {
  if (!decision.admitted) throw new Error('expected an admission');
  return decision.lease;
}

describe('createMemoryBudgetStore', () => {
  it('reserves the estimate, charges the real cost, and refuses once the next estimate no longer fits', () => {
    let now = Date.parse('2026-12-02T10:00:00Z');
    const store = createMemoryBudgetStore({ now: () => now });
    const acquire = (estimatedCost: number): BudgetDecision =>
      store.acquireBudget({ key: 'team', budget: daily, estimatedCost });
    const first = leaseOf(acquire(0.4));
    expect(first.remaining).toBeCloseTo(0.6, 12);
    first.settle(0.25);
    expect(first.remaining).toBeCloseTo(0.75, 12);
    leaseOf(acquire(0.4)).settle(0.25);
    // 0.5 spent: 0.5 + 0.6 is past the amount, 0.5 + 0.5 is not.
    expect(acquire(0.6)).toEqual({
      admitted: false,
      remaining: 0.5,
      resetAt: Date.parse('2026-12-03T00:00:00Z'),
    });
    leaseOf(acquire(0.5)).settle(0.5);
    // Spent: even a request expected to cost nothing is refused until midnight UTC.
    expect(acquire(0).admitted).toBe(false);
    now = Date.parse('2026-12-03T00:00:00Z');
    expect(leaseOf(acquire(0.4)).remaining).toBeCloseTo(0.6, 12);
  });

  it('charges a request that ends in the next period only its cost beyond the reservation', () => {
    let now = Date.parse('2026-12-02T23:59:59Z');
    const store = createMemoryBudgetStore({ now: () => now });
    const late = leaseOf(store.acquireBudget({ key: 'team', budget: daily, estimatedCost: 0.3 }));
    now = Date.parse('2026-12-03T00:00:01Z');
    late.settle(0.5);
    // The extra 0.2 lands in the new day; the 0.3 reserved stayed with the old one.
    expect(late.remaining).toBeCloseTo(0.8, 12);
    const refunded = leaseOf(
      store.acquireBudget({ key: 'team', budget: daily, estimatedCost: 0.3 }),
    );
    now = Date.parse('2026-12-04T00:00:01Z');
    // An over-estimate is not refunded to a day that never held it.
    refunded.settle(0);
    expect(refunded.remaining).toBe(1);
  });

  it('admits a request larger than the whole budget into a period with nothing spent', () => {
    const store = createMemoryBudgetStore({ now: () => 0 });
    expect(store.acquireBudget({ key: 'team', budget: daily, estimatedCost: 1 }).admitted).toBe(
      true,
    );
  });
});
