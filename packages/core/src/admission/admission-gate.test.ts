import { describe, expect, it } from 'vitest';
import { AdmissionGate } from './admission-gate.js';

describe('AdmissionGate', () => {
  it('admits up to the limit, then refuses until a slot is released', () => {
    const gate = new AdmissionGate(2);
    const first = gate.tryAcquire();
    const second = gate.tryAcquire();
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(gate.tryAcquire()).toBeUndefined();
    first?.();
    first?.();
    expect(gate.inUse).toBe(1);
    expect(gate.tryAcquire()).toBeTypeOf('function');
  });

  it('admits everything when the limit is 0', () => {
    const gate = new AdmissionGate(0);
    for (let index = 0; index < 1000; index += 1) expect(gate.tryAcquire()).toBeTypeOf('function');
    expect(gate.inUse).toBe(1000);
  });
});
