import { describe, expect, it } from 'vitest';
import { budgetPeriodAt, formatBudgetReset } from './budget-period.js';

const at = (iso: string): number => Date.parse(iso);

describe('budgetPeriodAt', () => {
  it('runs a day from midnight UTC to the next midnight', () => {
    expect(budgetPeriodAt('day', at('2026-12-02T06:30:00.000Z'))).toEqual({
      start: at('2026-12-02T00:00:00Z'),
      end: at('2026-12-03T00:00:00Z'),
    });
    // The last millisecond of a day is still in it; the next one starts the next day.
    expect(budgetPeriodAt('day', at('2026-12-02T23:59:59.999Z')).end).toBe(
      at('2026-12-03T00:00:00Z'),
    );
    expect(budgetPeriodAt('day', at('2026-12-03T00:00:00.000Z')).start).toBe(
      at('2026-12-03T00:00:00Z'),
    );
  });

  it('runs a week from Monday midnight UTC (ISO weeks)', () => {
    // 2026-12-02 is a Wednesday; its week began on Monday 30 November.
    expect(budgetPeriodAt('week', at('2026-12-02T12:00:00Z'))).toEqual({
      start: at('2026-11-30T00:00:00Z'),
      end: at('2026-12-07T00:00:00Z'),
    });
    // Sunday night is the end of the week, Monday midnight the start of the next.
    expect(budgetPeriodAt('week', at('2026-12-06T23:59:59.999Z')).start).toBe(
      at('2026-11-30T00:00:00Z'),
    );
    expect(budgetPeriodAt('week', at('2026-12-07T00:00:00Z')).start).toBe(
      at('2026-12-07T00:00:00Z'),
    );
    // A week across a year's end: Thursday 1 January 1970 belongs to the week of Monday 29 December 1969.
    expect(budgetPeriodAt('week', 0)).toEqual({
      start: at('1969-12-29T00:00:00Z'),
      end: at('1970-01-05T00:00:00Z'),
    });
    expect(budgetPeriodAt('week', at('2027-01-01T08:00:00Z'))).toEqual({
      start: at('2026-12-28T00:00:00Z'),
      end: at('2027-01-04T00:00:00Z'),
    });
  });

  it('runs a month from its first day UTC, whatever its length', () => {
    expect(budgetPeriodAt('month', at('2026-12-31T23:59:59.999Z'))).toEqual({
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    });
    expect(budgetPeriodAt('month', at('2028-02-29T10:00:00Z'))).toEqual({
      start: at('2028-02-01T00:00:00Z'),
      end: at('2028-03-01T00:00:00Z'),
    });
    expect(budgetPeriodAt('month', at('2027-02-01T00:00:00Z')).end).toBe(
      at('2027-03-01T00:00:00Z'),
    );
  });

  it('writes the reset as an RFC 3339 instant in UTC', () => {
    expect(formatBudgetReset(at('2027-01-01T00:00:00Z'))).toBe('2027-01-01T00:00:00Z');
  });
});
