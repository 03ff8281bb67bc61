import type { Clock } from '../ports/ports.js';
import type { KeyLimits } from '../config/gateway-config.js';
import { LimitAdmission } from './limit-admission.js';
import type { LimitDecision, LimitRequest, LimitStore } from './limit-store.js';
import {
  fillLimitSnapshot,
  refusingLimit,
  retryAfterMs,
  windowEnded,
  windowResetMs,
  type LimitWindow,
} from './rate-limit-policy.js';

/** One key's counters: its window (counted in place) and its slots in use. */
class KeyState implements LimitWindow {
  // No window yet: one that ended long ago.
  start = Number.NEGATIVE_INFINITY;
  requests = 0;
  tokens = 0;
  slots = 0;
  // Counts the windows: an admission keeps this small integer rather than the window's start, a
  // number too large for V8's small integers that would cost each admission a heap number.
  generation = 0;
  constructor(readonly clock: Clock) {}

  // rate-limit-policy's currentWindow, in place: the window in force at `now`.
  roll(now: number): void {
    if (!windowEnded(this.start, now)) return;
    this.start = now;
    this.requests = 0;
    this.tokens = 0;
    this.generation += 1;
  }
}

/**
 * An admitted request of the in-memory store: the decision, its lease and the gateway's ticket in one
 * object, with no closure. Settling applies rate-limit-policy's settleWindow to the key's counters in place.
 */
class MemoryAdmission extends LimitAdmission {
  private readonly generation: number;
  constructor(
    private readonly state: KeyState,
    limits: KeyLimits,
    estimatedTokens: number,
    resetMs: number,
  ) {
    super(limits, estimatedTokens, state, resetMs);
    this.generation = state.generation;
  }

  protected release(deltaTokens: number): void {
    const state = this.state;
    if (this.limits.concurrentRequests !== undefined) state.slots = Math.max(0, state.slots - 1);
    if (deltaTokens === 0) return;
    // A refund needs no clock: in a window that has ended but not yet rolled over, the count it lowers
    // is never read again (every reader rolls first), which is settleWindow's "not refunded".
    if (deltaTokens < 0) {
      if (state.generation === this.generation)
        state.tokens = Math.max(0, state.tokens + deltaTokens);
      return;
    }
    // Extra use is charged to the window in force, whether or not it is the reservation's.
    state.roll(state.clock.now());
    state.tokens += deltaTokens;
  }
}

/** The in-memory store: its decisions are always synchronous. */
export interface MemoryLimitStore extends LimitStore {
  acquire(request: LimitRequest): LimitDecision;
}

/**
 * Limits counted in this process: exact for one replica. The edge app keeps one per isolate, so there
 * a key's limits hold per isolate only (approximate: a platform may run many isolates). State is one
 * small record per configured key name, so it needs no eviction. A decision is synchronous and costs
 * one object when admitted (its MemoryAdmission, which is also the gateway's ticket): counters are
 * updated in place.
 */
export function createMemoryLimitStore(clock: Clock): MemoryLimitStore {
  const states = new Map<string, KeyState>();
  return {
    acquire(request: LimitRequest): LimitDecision {
      const now = clock.now();
      let state = states.get(request.key);
      if (state === undefined) {
        state = new KeyState(clock);
        states.set(request.key, state);
      }
      if (windowEnded(state.start, now)) state.roll(now);
      const { limits, estimatedTokens } = request;
      const rejectedBy = refusingLimit(state, state.slots, request);
      if (rejectedBy !== undefined) {
        return {
          admitted: false,
          snapshot: fillLimitSnapshot({}, state, limits, now),
          rejectedBy,
          retryAfterMs: retryAfterMs(rejectedBy, state, now),
        };
      }
      state.requests += 1;
      state.tokens += estimatedTokens;
      if (limits.concurrentRequests !== undefined) state.slots += 1;
      return new MemoryAdmission(state, limits, estimatedTokens, windowResetMs(state.start, now));
    },
  };
}
