import type { KeyLimits } from '../config/gateway-config.js';
import type { LimitRejection, LimitRequest, LimitSnapshot, LimitUsage } from './limit-store.js';

/*
 * The limiter's policy, pure: both stores apply it (the Redis store's lease script applies
 * decideAdmission and settleWindow to leases; the limit-store conformance tests run the same cases
 * through both). A fixed one-minute window from the key's first request, exact inside it however
 * replicas share the traffic; the price of a fixed window is up to twice the limit across one boundary
 * (docs/operations.md, "Running several replicas").
 */

export const limitWindowMs = 60_000;

/** Retry-After when only the concurrency limit is full: a slot frees when any running request ends. */
export const concurrencyRetryMs = 1_000;

export interface LimitWindow {
  /** When the window began (ms since the epoch); it ends at start + limitWindowMs. */
  start: number;
  requests: number;
  tokens: number;
}

/** The window in force at `now`: the stored one while it lasts, else a fresh one starting now. */
export function currentWindow(window: LimitWindow | undefined, now: number): LimitWindow {
  if (window === undefined || windowEnded(window.start, now))
    return { start: now, requests: 0, tokens: 0 };
  return window;
}

/** True when the window that began at `start` is no longer in force at `now`. */
export function windowEnded(start: number, now: number): boolean {
  // A window "from the future" (a replica with a clock far behind wrote it) is treated as ended too.
  return now >= start + limitWindowMs || now < start - limitWindowMs;
}

export interface AdmissionOutcome {
  /** The window to store (unchanged when refused). */
  window: LimitWindow;
  /** Concurrency slots in use after the decision. */
  slotsInUse: number;
  rejectedBy: LimitRejection | undefined;
}

/**
 * Admits one request when its key is under every limit: one more request within requests_per_minute,
 * its estimated tokens within tokens_per_minute (a window with nothing used admits any estimate, which
 * callers cap at the limit), and a free concurrency slot. An admitted request is counted at once.
 */
export function decideAdmission(
  stored: LimitWindow | undefined,
  slotsInUse: number,
  request: LimitRequest,
  now: number,
): AdmissionOutcome {
  const window = currentWindow(stored, now);
  const rejectedBy = refusingLimit(window, slotsInUse, request);
  if (rejectedBy !== undefined) return { window, slotsInUse, rejectedBy };
  return {
    window: {
      start: window.start,
      requests: window.requests + 1,
      tokens: window.tokens + request.estimatedTokens,
    },
    slotsInUse: request.limits.concurrentRequests === undefined ? slotsInUse : slotsInUse + 1,
    rejectedBy: undefined,
  };
}

/** decideAdmission's checks alone, on the window in force: the limit that refuses the request, if any. */
export function refusingLimit(
  window: LimitWindow,
  slotsInUse: number,
  request: LimitRequest,
): LimitRejection | undefined {
  const { requestsPerMinute, tokensPerMinute, concurrentRequests } = request.limits;
  if (requestsPerMinute !== undefined && window.requests + 1 > requestsPerMinute) return 'requests';
  if (
    tokensPerMinute !== undefined &&
    window.tokens > 0 &&
    window.tokens + request.estimatedTokens > tokensPerMinute
  )
    return 'tokens';
  if (concurrentRequests !== undefined && slotsInUse >= concurrentRequests) return 'concurrency';
  return undefined;
}

/**
 * Corrects a reservation made in the window that began at `reservedStart` by `deltaTokens` (used minus
 * estimated). In the same window the count moves either way (never below 0); once that window has
 * ended, only extra use is carried into the window in force, so a long stream is still paid for and an
 * over-estimate is not refunded to a window that never held it.
 */
export function settleWindow(
  stored: LimitWindow | undefined,
  reservedStart: number,
  deltaTokens: number,
  now: number,
): LimitWindow | undefined {
  if (deltaTokens === 0) return stored;
  const window = currentWindow(stored, now);
  if (window === stored && window.start === reservedStart)
    return { ...window, tokens: Math.max(0, window.tokens + deltaTokens) };
  if (deltaTokens < 0) return stored;
  return { ...window, tokens: window.tokens + deltaTokens };
}

/** Milliseconds until the window that began at `start` restarts with its full allowance. */
export function windowResetMs(start: number, now: number): number {
  return Math.max(0, start + limitWindowMs - now);
}

/** The `x-ratelimit-*` figures of a window for a key's limits (only the limits the key has). */
export function limitSnapshot(window: LimitWindow, limits: KeyLimits, now: number): LimitSnapshot {
  return fillLimitSnapshot({}, window, limits, now);
}

/** limitSnapshot written into `snapshot` (and its usage objects, when it has them already). */
export function fillLimitSnapshot(
  snapshot: LimitSnapshot,
  window: LimitWindow,
  limits: KeyLimits,
  now: number,
): LimitSnapshot {
  const resetMs = windowResetMs(window.start, now);
  const { requestsPerMinute, tokensPerMinute } = limits;
  snapshot.requests =
    requestsPerMinute === undefined
      ? undefined
      : fillUsage(
          snapshot.requests,
          requestsPerMinute,
          requestsPerMinute - window.requests,
          resetMs,
        );
  snapshot.tokens =
    tokensPerMinute === undefined
      ? undefined
      : fillUsage(snapshot.tokens, tokensPerMinute, tokensPerMinute - window.tokens, resetMs);
  return snapshot;
}

function fillUsage(
  usage: LimitUsage | undefined,
  limit: number,
  remaining: number,
  resetMs: number,
): LimitUsage {
  if (usage === undefined) return { limit, remaining: Math.max(0, remaining), resetMs };
  usage.limit = limit;
  usage.remaining = Math.max(0, remaining);
  usage.resetMs = resetMs;
  return usage;
}

/** How long a refused client should wait: until the window ends, or a second for a concurrency slot. */
export function retryAfterMs(rejectedBy: LimitRejection, window: LimitWindow, now: number): number {
  if (rejectedBy === 'concurrency') return concurrencyRetryMs;
  return Math.max(1, window.start + limitWindowMs - now);
}
