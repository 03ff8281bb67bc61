import { describe, expect, it } from 'vitest';
import { RetryBudget } from './retry-budget.js';

describe('RetryBudget', () => {
  it('allows the floor when few requests are active', () => {
    const budget = new RetryBudget({ budgetPercent: 20, budgetFloor: 3 });
    expect([
      budget.tryAcquire(1),
      budget.tryAcquire(1),
      budget.tryAcquire(1),
      budget.tryAcquire(1),
    ]).toEqual([true, true, true, false]);
    budget.release();
    expect(budget.tryAcquire(1)).toBe(true);
  });

  it('allows 20 % of active requests above the floor', () => {
    const budget = new RetryBudget({ budgetPercent: 20, budgetFloor: 3 });
    let granted = 0;
    for (let index = 0; index < 100; index += 1) if (budget.tryAcquire(100)) granted += 1;
    expect(granted).toBe(20);
    expect(budget.inFlight).toBe(20);
  });
});
