import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff-delay.js';

describe('backoffDelay', () => {
  it('stays within 25-250 ms', () => {
    for (const retry of [1, 2, 3, 10]) {
      expect(backoffDelay(retry, () => 0)).toBe(25);
      expect(backoffDelay(retry, () => 0.999999)).toBeLessThanOrEqual(250);
    }
    expect(backoffDelay(1, () => 0.999999)).toBe(50);
    expect(backoffDelay(10, () => 0.999999)).toBe(250);
  });
});
