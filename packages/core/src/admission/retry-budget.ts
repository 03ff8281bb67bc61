export interface RetryBudgetOptions {
  /** Retries in flight may be this share of active requests (docs/design.md: 20). */
  budgetPercent: number;
  /** ...but never fewer than this many (docs/design.md: 3), so a quiet gateway can still retry. */
  budgetFloor: number;
}

/**
 * Caps concurrent retries at max(floor, percent of active requests), as Envoy's retry budget does, so
 * that a failing upstream sees at most that much extra load instead of twice the traffic.
 */
export class RetryBudget {
  private retriesInFlight = 0;

  constructor(private readonly options: RetryBudgetOptions) {}

  /** Takes one retry slot if the budget allows it; pair each `true` with one `release()`. */
  tryAcquire(activeRequests: number): boolean {
    const allowed = Math.max(
      this.options.budgetFloor,
      Math.floor((activeRequests * this.options.budgetPercent) / 100),
    );
    if (this.retriesInFlight >= allowed) return false;
    this.retriesInFlight += 1;
    return true;
  }

  release(): void {
    this.retriesInFlight = Math.max(0, this.retriesInFlight - 1);
  }

  get inFlight(): number {
    return this.retriesInFlight;
  }
}
