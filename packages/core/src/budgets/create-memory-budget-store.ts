import type { Clock } from '../ports/ports.js';
import type { KeyBudget } from '../config/gateway-config.js';
import { budgetPeriodAt } from './budget-period.js';
import { budgetRefuses, settledSpend, type BudgetSpend } from './budget-policy.js';
import type { BudgetDecision, BudgetLease, BudgetRequest, BudgetStore } from './budget-store.js';

/** One key's spend in its current period, rolled over when a reader finds the period ended. */
class KeySpend implements BudgetSpend {
  periodStart = Number.NEGATIVE_INFINITY;
  periodEnd = Number.NEGATIVE_INFINITY;
  spent = 0;

  roll(period: KeyBudget['period'], now: number): void {
    if (now >= this.periodStart && now < this.periodEnd) return;
    const { start, end } = budgetPeriodAt(period, now);
    this.periodStart = start;
    this.periodEnd = end;
    this.spent = 0;
  }
}

class MemoryBudgetLease implements BudgetLease {
  private readonly reservedStart: number;
  private settled = false;

  constructor(
    private readonly state: KeySpend,
    private readonly budget: KeyBudget,
    private readonly clock: Clock,
    private readonly reserved: number,
  ) {
    this.reservedStart = state.periodStart;
  }

  get remaining(): number {
    this.state.roll(this.budget.period, this.clock.now());
    return Math.max(0, this.budget.amount - this.state.spent);
  }

  get resetAt(): number {
    return this.state.periodEnd;
  }

  settle(usedCost: number): void {
    if (this.settled) return;
    this.settled = true;
    const delta = usedCost - this.reserved;
    if (delta === 0) return;
    this.state.roll(this.budget.period, this.clock.now());
    this.state.spent = settledSpend(this.state, this.reservedStart, delta);
  }
}

/** The in-memory budget store: synchronous decisions. */
export interface MemoryBudgetStore extends BudgetStore {
  acquireBudget(request: BudgetRequest): BudgetDecision;
}

/**
 * Budgets counted in this process: exact for one replica. One small record per configured key name;
 * the edge app keeps one per isolate, so there a budget holds per isolate only.
 */
export function createMemoryBudgetStore(clock: Clock): MemoryBudgetStore {
  const states = new Map<string, KeySpend>();
  return {
    acquireBudget({ key, budget, estimatedCost }) {
      let state = states.get(key);
      if (state === undefined) {
        state = new KeySpend();
        states.set(key, state);
      }
      state.roll(budget.period, clock.now());
      if (budgetRefuses(state.spent, estimatedCost, budget.amount))
        return {
          admitted: false,
          remaining: Math.max(0, budget.amount - state.spent),
          resetAt: state.periodEnd,
        };
      state.spent += estimatedCost;
      return { admitted: true, lease: new MemoryBudgetLease(state, budget, clock, estimatedCost) };
    },
  };
}
