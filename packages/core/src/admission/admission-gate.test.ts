import { describe, expect, it } from 'vitest';
import { AdmissionGate } from './admission-gate.js';

describe('AdmissionGate', () => {
  it('admits up to the limit, then refuses until a slot is released', () => {
    const gate = new AdmissionGate(2);
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(false);
    expect(gate.inUse).toBe(2);
    gate.release();
    expect(gate.inUse).toBe(1);
    expect(gate.tryAcquire()).toBe(true);
  });

  it('admits everything when the limit is 0', () => {
    const gate = new AdmissionGate(0);
    for (let index = 0; index < 1000; index += 1) expect(gate.tryAcquire()).toBe(true);
    expect(gate.inUse).toBe(1000);
  });

  it('never counts below zero', () => {
    const gate = new AdmissionGate(1);
    gate.release();
    expect(gate.inUse).toBe(0);
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(false);
  });
});
