import type { KeyBudget } from '../config/gateway-config.js';

/*
 * The port between core's budget check and where spend is counted: in this process (the in-memory
 * store) or shared by every replica (the Redis store of @infergate/node-runtime). A limit store that
 * also counts budgets implements it beside LimitStore, so that budgets live where the limits live.
 */

/** What a request asks of a budget store. */
export interface BudgetRequest {
  /** The key's configured name: spend is kept by name, never by the key itself. */
  key: string;
  budget: KeyBudget;
  /** Cost reserved until the request settles, in the budget's currency; at most `budget.amount`. */
  estimatedCost: number;
}

/** An admitted request's hold on its key's budget. */
export interface BudgetLease {
  /** What is left of the budget as this replica knows it now, never below 0. */
  readonly remaining: number;
  /** When the period the request was admitted in ends (ms since the epoch). */
  readonly resetAt: number;
  /**
   * Replaces the request's reservation by what it cost (in the budget's currency). Call once; it never
   * throws and never makes the caller wait.
   */
  settle(usedCost: number): void;
}

export type BudgetDecision =
  { admitted: true; lease: BudgetLease } | { admitted: false; remaining: number; resetAt: number };

export interface BudgetStore {
  /**
   * Admits a request of a budgeted key or refuses it once the budget is spent. A store must not refuse
   * for its own failures (a shared store falls back to local counting). A promise only when it has to wait.
   */
  acquireBudget(request: BudgetRequest): BudgetDecision | Promise<BudgetDecision>;
}

/** True when a limit store also counts budgets. */
export function isBudgetStore(value: unknown): value is BudgetStore {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<BudgetStore>).acquireBudget === 'function'
  );
}
