import { estimatePromptTokens } from './estimate-request-tokens.js';
import type { KeyLimits } from '../config/gateway-config.js';
import type { LimitLease, LimitSnapshot } from './limit-store.js';
import { addRateLimitHeaders } from './rate-limit-headers.js';
import type { LimitWindow } from './rate-limit-policy.js';

/**
 * An admitted request of a limited key: the gateway's request finaliser settles it once, when the
 * request is over. What it needs of the request beyond the lease: the rate-limit headers its response
 * carries and the prompt estimate charged for a stream cut before its usage arrived.
 */
export interface LimitTicket {
  lease: LimitLease;
  /** The prompt's estimate, charged (plus one token per event sent) for a stream cut before its usage arrived. */
  readonly promptTokens: number;
  /** Adds the `x-ratelimit-*` headers of the admission to a response's headers. */
  addHeaders(headers: Record<string, string>): void;
}

// A brand rather than instanceof: it still holds when two copies of core are installed (a store's and the gateway's).
const admissionBrand = Symbol.for('infergate.limit-admission');

/**
 * A store's admission of a request: the decision, its lease and core's ticket in one object, the one
 * object an admitted request costs the limiter. It keeps the decision's figures as numbers, from which
 * the headers are written into the response's own, and works out the prompt estimate only when a cut
 * stream needs it. A store extends it with what its settlement needs.
 */
export abstract class LimitAdmission implements LimitTicket, LimitLease {
  /** The request's body, set by limitRequest: scanned only if a cut stream needs its prompt estimate. */
  body: string | undefined = undefined;
  /** The tokens the gateway reserved for the request (a store may have reserved fewer, its own limits being lower). */
  requestedTokens = 0;
  readonly remainingRequests: number;
  readonly remainingTokens: number;

  /**
   * @param limits the limits the request was decided by: which headers it gets, and their limits.
   * @param reservedTokens the tokens the store reserved, replaced by the usage when the request settles.
   * @param window the window after the admission (its counts, as rate-limit-policy's limitSnapshot reads them).
   * @param resetMs rate-limit-policy's windowResetMs of that window: a small integer, where the clock's
   *   reading is a number that V8 boxes when it is passed to a call that is not inlined.
   */
  constructor(
    readonly limits: KeyLimits,
    // -1 once settled: a field of its own for that flag would make every admission 8 bytes larger.
    private reservedTokens: number,
    window: LimitWindow,
    readonly resetMs: number,
  ) {
    const { requestsPerMinute, tokensPerMinute } = limits;
    this.remainingRequests =
      requestsPerMinute === undefined ? 0 : Math.max(0, requestsPerMinute - window.requests);
    this.remainingTokens =
      tokensPerMinute === undefined ? 0 : Math.max(0, tokensPerMinute - window.tokens);
  }

  /** True for an admission of any copy of core. */
  static isInstance(value: unknown): value is LimitAdmission {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [admissionBrand]?: unknown })[admissionBrand] === true
    );
  }

  get [admissionBrand](): true {
    return true;
  }

  get admitted(): true {
    return true;
  }

  get lease(): LimitLease {
    return this;
  }

  /** The decision's figures as rate-limit-policy's limitSnapshot gives them: a new object each read, for readers other than the gateway. */
  get snapshot(): LimitSnapshot {
    const { requestsPerMinute, tokensPerMinute } = this.limits;
    return {
      requests:
        requestsPerMinute === undefined
          ? undefined
          : { limit: requestsPerMinute, remaining: this.remainingRequests, resetMs: this.resetMs },
      tokens:
        tokensPerMinute === undefined
          ? undefined
          : { limit: tokensPerMinute, remaining: this.remainingTokens, resetMs: this.resetMs },
    };
  }

  get promptTokens(): number {
    return Math.min(estimatePromptTokens(this.body), this.requestedTokens);
  }

  addHeaders(headers: Record<string, string>): void {
    const { requestsPerMinute, tokensPerMinute } = this.limits;
    addRateLimitHeaders(
      headers,
      requestsPerMinute,
      this.remainingRequests,
      tokensPerMinute,
      this.remainingTokens,
      this.resetMs,
    );
  }

  /**
   * Ends the request: gives back its concurrency slot and replaces its token reservation with
   * `usedTokens` (the store's release). Once: later calls do nothing.
   */
  settle(usedTokens: number): void {
    const reserved = this.reservedTokens;
    if (reserved < 0) return;
    this.reservedTokens = -1;
    this.release(usedTokens - reserved);
  }

  /** The store's part of settle: `deltaTokens` is used minus reserved. Never throws, never waits. */
  protected abstract release(deltaTokens: number): void;
}
