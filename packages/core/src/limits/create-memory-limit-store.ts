import type { Clock } from '../handlers/ports.js';
import type { LimitDecision, LimitRequest, LimitStore } from './limit-store.js';
import { decideAdmission, limitSnapshot, retryAfterMs, settleWindow, type LimitWindow } from './rate-limit-policy.js';

interface KeyState {
  window: LimitWindow | undefined;
  slots: number;
}

/**
 * Limits counted in this process: exact for one replica. The edge app keeps one per isolate, so there
 * a key's limits hold per isolate only (approximate: a platform may run many isolates). State is one
 * small record per configured key name, so it needs no eviction.
 */
export function createMemoryLimitStore(clock: Clock): LimitStore {
  const states = new Map<string, KeyState>();
  return {
    acquire(request: LimitRequest): Promise<LimitDecision> {
      const now = clock.now();
      let state = states.get(request.key);
      if (state === undefined) {
        state = { window: undefined, slots: 0 };
        states.set(request.key, state);
      }
      const outcome = decideAdmission(state.window, state.slots, request, now);
      const snapshot = limitSnapshot(outcome.window, request.limits, now);
      if (outcome.rejectedBy !== undefined) {
        return Promise.resolve({ admitted: false, snapshot, rejectedBy: outcome.rejectedBy, retryAfterMs: retryAfterMs(outcome.rejectedBy, outcome.window, now) });
      }
      state.window = outcome.window;
      state.slots = outcome.slotsInUse;
      const held = state;
      const reservedStart = outcome.window.start;
      const holdsSlot = request.limits.concurrentRequests !== undefined;
      let settled = false;
      return Promise.resolve({
        admitted: true,
        snapshot,
        lease: {
          settle(usedTokens: number) {
            if (settled) return;
            settled = true;
            if (holdsSlot) held.slots = Math.max(0, held.slots - 1);
            held.window = settleWindow(held.window, reservedStart, usedTokens - request.estimatedTokens, clock.now());
          },
        },
      });
    },
  };
}
