import type { KeyLimits } from '../config/gateway-config.js';

/*
 * The port between core's limiter and where the counters live: in this process (the in-memory store,
 * core) or shared by every replica (the Redis store, @infergate/node-runtime/redis). Core decides what to ask and what
 * to answer; a store only keeps counts, with the policy of rate-limit-policy.ts.
 */

/** What a request asks of a store: a new object for each request, which the store may keep. */
export interface LimitRequest {
  /** The key's configured name: counters are kept by name, never by the key itself. */
  key: string;
  limits: KeyLimits;
  /** Tokens reserved until the request settles; at most `limits.tokensPerMinute`. */
  estimatedTokens: number;
}

/** One limit's state for the `x-ratelimit-*` headers. */
export interface LimitUsage {
  limit: number;
  remaining: number;
  /** Milliseconds until the window restarts with its full allowance. */
  resetMs: number;
}

/** The figures of one decision: read them when the decision arrives (a store may reuse the object for its next decision). */
export interface LimitSnapshot {
  requests?: LimitUsage;
  tokens?: LimitUsage;
}

/** Which limit refused a request (the first in this order that is over). */
export type LimitRejection = 'requests' | 'tokens' | 'concurrency';

export interface LimitLease {
  /**
   * Ends the request: gives back its concurrency slot and replaces its token reservation with
   * `usedTokens`. Call once; it never throws and never makes the caller wait (a shared store sends it
   * without awaiting the answer).
   */
  settle(usedTokens: number): void;
}

/**
 * A store's answer. The stores of infergate admit with a LimitAdmission (limit-admission.ts), which is
 * the decision, its lease and the gateway's ticket in one object; any other admitted decision is
 * wrapped by the gateway.
 */
export type LimitDecision =
  | { admitted: true; snapshot: LimitSnapshot; lease: LimitLease }
  | { admitted: false; snapshot: LimitSnapshot; rejectedBy: LimitRejection; retryAfterMs: number };

export interface LimitStore {
  /**
   * Admits a request of a limited key or refuses it, atomically across everything sharing the store. A
   * store must not reject for its own failures: a shared store falls back to local counting. It returns
   * the decision itself when it can decide at once, and a promise only when it has to wait, so that the
   * usual admission allocates no promise.
   */
  acquire(request: LimitRequest): LimitDecision | Promise<LimitDecision>;
  /** Releases what the store holds open (a shared store's connection); called by the gateway's close(). */
  close?(): Promise<void>;
}
