import { describe, expect, it } from 'vitest';
import { leaseCap, leaseTarget } from './lease-sizing.js';

// The README's bound, "Running several replicas": a replica holds at most accuracy_percent of a limit
// divided among the replicas unused, at least one; nothing with accuracy_percent 0.
describe('lease sizes', () => {
  it('caps a lease at accuracy_percent of the limit over the replicas: 600 per minute, 5 %, 3 replicas hold at most 10 each', () => {
    expect(leaseCap(600, { accuracyPercent: 5, replicas: 3, leaseMs: 1000 })).toBe(10);
  });

  it('still gives a small limit leases of one (10 per minute on 3 replicas), and none when accuracy_percent is 0 or the limit is absent', () => {
    expect(leaseCap(10, { accuracyPercent: 5, replicas: 3, leaseMs: 1000 })).toBe(1);
    expect(leaseCap(600, { accuracyPercent: 0, replicas: 3, leaseMs: 1000 })).toBe(0);
    expect(leaseCap(undefined, { accuracyPercent: 5, replicas: 3, leaseMs: 1000 })).toBe(0);
  });

  it("sizes a lease from the key's recent use, so that a quiet key holds nothing and a busy one no more than the cap", () => {
    const sizing = { accuracyPercent: 5, replicas: 3, leaseMs: 1000 };
    expect(leaseTarget(600, sizing, 0)).toBe(0);
    expect(leaseTarget(600, sizing, 4)).toBe(4);
    expect(leaseTarget(600, sizing, 500)).toBe(10);
  });
});
