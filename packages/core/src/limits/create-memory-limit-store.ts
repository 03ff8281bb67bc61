import type { Clock } from '../handlers/ports.js';
import type { LimitDecision, LimitLease, LimitRequest, LimitSnapshot, LimitStore } from './limit-store.js';
import { fillLimitSnapshot, refusingLimit, retryAfterMs, windowEnded, type LimitWindow } from './rate-limit-policy.js';

/** One key's counters: its window (counted in place), its slots in use and the snapshot its decisions reuse. */
class KeyState implements LimitWindow {
  // No window yet: one that ended long ago.
  start = Number.NEGATIVE_INFINITY;
  requests = 0;
  tokens = 0;
  slots = 0;
  readonly snapshot: LimitSnapshot = {};
  constructor(readonly clock: Clock) {}

  // rate-limit-policy's currentWindow, in place: the window in force at `now`.
  roll(now: number): void {
    if (!windowEnded(this.start, now)) return;
    this.start = now;
    this.requests = 0;
    this.tokens = 0;
  }
}

/**
 * An admitted request of the in-memory store: the decision and its lease in one object, with no
 * closure, so that admitting costs one small allocation. Settling applies rate-limit-policy's
 * settleWindow to the key's counters in place.
 */
class MemoryAdmission implements LimitLease {
  private settled = false;
  constructor(
    private readonly state: KeyState,
    private readonly reservedStart: number,
    private readonly estimatedTokens: number,
    private readonly holdsSlot: boolean,
  ) {}

  get admitted(): true {
    return true;
  }

  get snapshot(): LimitSnapshot {
    return this.state.snapshot;
  }

  get lease(): LimitLease {
    return this;
  }

  settle(usedTokens: number): void {
    if (this.settled) return;
    this.settled = true;
    const state = this.state;
    if (this.holdsSlot) state.slots = Math.max(0, state.slots - 1);
    const delta = usedTokens - this.estimatedTokens;
    if (delta === 0) return;
    const now = state.clock.now();
    if (!windowEnded(state.start, now) && state.start === this.reservedStart) {
      state.tokens = Math.max(0, state.tokens + delta);
      return;
    }
    // The reservation's window has ended: only extra use is carried, into the window in force.
    if (delta < 0) return;
    state.roll(now);
    state.tokens += delta;
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
 * one object (MemoryAdmission) when admitted: counters are updated in place and the snapshot is reused.
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
      state.roll(now);
      const rejectedBy = refusingLimit(state, state.slots, request);
      if (rejectedBy !== undefined) {
        return { admitted: false, snapshot: fillLimitSnapshot({}, state, request.limits, now), rejectedBy, retryAfterMs: retryAfterMs(rejectedBy, state, now) };
      }
      state.requests += 1;
      state.tokens += request.estimatedTokens;
      const holdsSlot = request.limits.concurrentRequests !== undefined;
      if (holdsSlot) state.slots += 1;
      fillLimitSnapshot(state.snapshot, state, request.limits, now);
      return new MemoryAdmission(state, state.start, request.estimatedTokens, holdsSlot);
    },
  };
}
