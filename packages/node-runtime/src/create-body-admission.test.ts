import { describe, expect, it, vi } from 'vitest';
import { isGatewayError } from '@infergate/core';
import { createBodyAdmission } from './create-body-admission.js';

const declared = (bytes: number) => ({ contentLength: String(bytes), chunked: false });
const chunked = { contentLength: undefined, chunked: true };
const never = (): void => undefined;

function statusOf(admit: () => unknown): number | undefined {
  try {
    admit();
  } catch (error) {
    if (isGatewayError(error)) return error.status;
    throw error;
  }
  return undefined;
}

describe('createBodyAdmission', () => {
  it('reserves a declared length whole, refuses what does not fit with 503, and takes it again once released', () => {
    const admit = createBodyAdmission({ maxInflightBodyBytes: 100, bodyIdleMs: 60_000 });
    const first = admit(declared(70), 100, never);
    expect(statusOf(() => admit(declared(40), 100, never))).toBe(503);
    first?.release();
    const second = admit(declared(40), 100, never);
    expect(second).toBeDefined();
    second?.release();
  });

  it('grows a chunked body as it arrives and refuses the chunk that would pass the budget', () => {
    const admit = createBodyAdmission({ maxInflightBodyBytes: 100, bodyIdleMs: 60_000 });
    const ticket = admit(chunked, 1000, never);
    expect(ticket?.take(60)).toBe(true);
    expect(ticket?.take(60)).toBe(false);
    ticket?.release();
    expect(admit(declared(100), 1000, never)).toBeDefined();
  });

  it('holds nothing for a request without a body, an empty one, or one declared over the route limit (the 413)', () => {
    const admit = createBodyAdmission({ maxInflightBodyBytes: 100, bodyIdleMs: 60_000 });
    expect(admit({ contentLength: undefined, chunked: false }, 50, never)).toBeUndefined();
    expect(admit(declared(0), 50, never)).toBeUndefined();
    expect(admit(declared(51), 50, never)).toBeUndefined();
  });

  it('gives a body that stops arriving its bytes back and calls onIdle after body_idle_ms; each chunk starts the wait over', () => {
    vi.useFakeTimers();
    try {
      const admit = createBodyAdmission({ maxInflightBodyBytes: 100, bodyIdleMs: 150 });
      let idle = false;
      const ticket = admit(declared(100), 100, () => {
        idle = true;
      });
      // A chunk every 100 ms for a second: never idle for 150 ms.
      for (let chunk = 0; chunk < 10; chunk += 1) {
        vi.advanceTimersByTime(100);
        ticket?.take(10);
      }
      expect(idle).toBe(false);
      expect(statusOf(() => admit(declared(1), 100, never))).toBe(503);
      vi.advanceTimersByTime(149);
      expect(idle).toBe(false);
      vi.advanceTimersByTime(1);
      expect(idle).toBe(true);
      // Given back at once: the whole budget is free again.
      expect(admit(declared(100), 100, never)).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops the idle timer once the body has arrived, holding its bytes until release', () => {
    vi.useFakeTimers();
    try {
      const admit = createBodyAdmission({ maxInflightBodyBytes: 100, bodyIdleMs: 50 });
      let idle = false;
      const ticket = admit(declared(100), 100, () => {
        idle = true;
      });
      ticket?.received();
      vi.advanceTimersByTime(1_000);
      expect(idle).toBe(false);
      expect(statusOf(() => admit(declared(1), 100, never))).toBe(503);
      ticket?.release();
      expect(admit(declared(1), 100, never)).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
