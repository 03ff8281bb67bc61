import type { KeyBudget } from '../config/gateway-config.js';

const dayMs = 86_400_000;

/** The calendar period in force at an instant: [start, end) in milliseconds since the epoch, UTC. */
export interface BudgetPeriod {
  start: number;
  end: number;
}

/**
 * The period of a budget that holds `now`, in UTC whatever the replica's time zone: a day from
 * midnight, a week from Monday midnight (ISO 8601 weeks), a month from its first day. UTC rather than
 * local time so that every replica, wherever it runs, agrees on when a budget resets.
 */
export function budgetPeriodAt(period: KeyBudget['period'], now: number): BudgetPeriod {
  const day = Math.floor(now / dayMs);
  if (period === 'day') return { start: day * dayMs, end: (day + 1) * dayMs };
  if (period === 'week') {
    // 1 January 1970 was a Thursday: day 0 is the fourth day (index 3) of its ISO week.
    const monday = day - ((day + 3) % 7);
    return { start: monday * dayMs, end: (monday + 7) * dayMs };
  }
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

/** A period's end as the `x-infergate-budget-reset` header writes it: RFC 3339 in UTC, whole seconds. */
export function formatBudgetReset(end: number): string {
  return `${new Date(end).toISOString().slice(0, 19)}Z`;
}
