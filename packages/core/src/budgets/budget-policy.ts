/*
 * The budget's policy, pure: both stores apply it (the Redis store's script applies it to leases).
 * Spend is counted per calendar period (budget-period.ts): reserved up front from the estimate,
 * corrected to the real cost when the request settles, as tokens_per_minute is.
 */

/** A key's spend in one period. */
export interface BudgetSpend {
  /** The period's start (ms since the epoch): identifies it. */
  periodStart: number;
  spent: number;
}

/**
 * True when a request estimated at `estimatedCost` must be refused: the budget is spent, or the
 * estimate does not fit in what is left. A period with nothing spent admits any estimate (callers cap
 * it at the amount), so that a request larger than the whole budget is not refused forever.
 */
export function budgetRefuses(spent: number, estimatedCost: number, amount: number): boolean {
  return spent >= amount || (spent > 0 && spent + estimatedCost > amount);
}

/**
 * The spend after a request reserved in the period starting at `reservedStart` settles, `deltaCost`
 * being its cost minus its reservation. In the same period the spend moves either way (never below 0);
 * once that period has ended, only extra cost is carried into the period in force.
 */
export function settledSpend(
  current: BudgetSpend,
  reservedStart: number,
  deltaCost: number,
): number {
  if (current.periodStart === reservedStart) return Math.max(0, current.spent + deltaCost);
  return deltaCost > 0 ? current.spent + deltaCost : current.spent;
}
