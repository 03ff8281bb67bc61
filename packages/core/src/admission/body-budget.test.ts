import { describe, expect, it } from 'vitest';
import { BodyBudget } from './body-budget.js';

describe('BodyBudget', () => {
  it('reserves a known length whole, refuses what does not fit, and gives bytes back once', () => {
    const budget = new BodyBudget(100);
    const first = budget.reserve(60);
    expect(first?.bytes).toBe(60);
    expect(budget.reserve(41)).toBeUndefined();
    const second = budget.reserve(40);
    expect(budget.inUse).toBe(100);
    first?.release();
    first?.release();
    expect(budget.inUse).toBe(40);
    second?.release();
    expect(budget.inUse).toBe(0);
  });

  it('grows a chunked reservation until the budget is spent', () => {
    const budget = new BodyBudget(10);
    const chunked = budget.reserve(0);
    expect(chunked?.grow(6)).toBe(true);
    expect(chunked?.grow(5)).toBe(false);
    expect(chunked?.bytes).toBe(6);
    chunked?.release();
    expect(chunked?.grow(1)).toBe(false);
    expect(budget.inUse).toBe(0);
  });

  it('has no bound when the limit is 0', () => {
    const budget = new BodyBudget(0);
    expect(budget.reserve(10 ** 12)?.grow(10 ** 12)).toBe(true);
  });
});
