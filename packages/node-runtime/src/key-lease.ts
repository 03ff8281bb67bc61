import {
  fillLimitSnapshot,
  LimitAdmission,
  limitWindowMs,
  retryAfterMs,
  windowResetMs,
  type KeyLimits,
  type LimitDecision,
  type LimitRejection,
  type LimitRequest,
  type LimitWindow,
} from '@infergate/core';
import { leaseCap, leaseTarget, type LeaseSizing } from './lease-sizing.js';

/** A request waiting for this replica's next Redis call for its key. */
export interface LeaseWaiter {
  request: LimitRequest;
  resolve(decision: LimitDecision): void;
}

/** What one key asks of Redis in a batch: the lease script's arguments from "lease window start" on. */
export interface LeaseCall {
  lease: KeyLease;
  limits: KeyLimits;
  leaseStart: number;
  returnedRequests: number;
  /** Negative: tokens used beyond their reservations, charged. */
  returnedTokens: number;
  carriedTokens: number;
  minRequests: number;
  maxRequests: number;
  minTokens: number;
  maxTokens: number;
  minSlots: number;
  maxSlots: number;
  slotPrefix: string;
  firstSlot: number;
  givenSlots: string[];
}

/** The lease script's answer: refused (0 none, 1 requests, 2 tokens, 3 concurrency), window start, granted requests, tokens, slots, then the window's requests and tokens and the slots in use. */
export type LeaseReply = [number, number, number, number, number, number, number, number];

/**
 * One replica's lease of one key: the requests, tokens and concurrency slots Redis granted it for the
 * key's current window, spent here without a round trip. Redis counts a lease as used when it grants
 * it, so the replicas together never admit more than a limit; what a lease leaves unused is given
 * back (when the key goes quiet, when it exceeds the lease size, when the window ends it simply
 * lapses), which bounds how early the others refuse. Sizes come from lease-sizing.ts.
 */
export class KeyLease {
  readonly waiters: LeaseWaiter[] = [];
  /** The call on its way to Redis for this key, if any: one at a time, later needs wait for its answer. */
  inFlight: LeaseCall | undefined;
  /** Set when the lease should go back whole at the next call (the key went quiet, Redis came back). */
  givingBack = false;
  lastUsedAt = 0;

  private limits: KeyLimits = {};
  // The window of Redis the lease belongs to (undefined: none yet, or it ended).
  private windowStart: number | undefined;
  private requests = 0;
  // Unused tokens of the lease; negative: tokens used beyond their reservations, owed to Redis.
  private tokens = 0;
  // Extra use of reservations from an ended window, charged to the window in force.
  private carried = 0;
  private readonly spare: string[] = [];
  private readonly held = new Set<string>();
  // Slots held across a reconnect: Redis may have lost them, so they are given back, not reused.
  private readonly stale = new Set<string>();
  private given: string[] = [];
  private nextSlot = 0;
  // The window as Redis last reported it (leases included), for the headers and refusals.
  private windowRequests = 0;
  private windowTokens = 0;
  private slotsInUse = 0;
  private syncedAt = Number.NEGATIVE_INFINITY;
  // Reused by windowView, so that admitting allocates only its LeaseAdmission.
  private readonly view: LimitWindow = { start: 0, requests: 0, tokens: 0 };
  // Admissions in the current and previous periods of sizing.leaseMs: the key's recent rate.
  private periodEnd = 0;
  private periodRequests = 0;
  private periodTokens = 0;
  private previousRequests = 0;
  private previousTokens = 0;

  constructor(
    readonly keys: readonly [string, string],
    private readonly slotPrefix: string,
    private readonly sizing: LeaseSizing,
    private readonly wake: (lease: KeyLease) => void,
  ) {}

  /** Admits the request from the lease, or undefined when the lease cannot cover it (or others wait first). */
  tryAdmit(request: LimitRequest, now: number): LimitDecision | undefined {
    this.limits = request.limits;
    this.roll(now);
    this.lastUsedAt = now;
    if (this.waiters.length > 0 || this.givingBack || !this.covers(request)) return undefined;
    return this.admit(request, now);
  }

  /** A refusal known without asking Redis: the window's allowance is used up and the knowledge is fresh. Concurrency is always asked. */
  knownRefusal(request: LimitRequest, now: number): LimitDecision | undefined {
    if (this.windowStart === undefined || now - this.syncedAt >= this.sizing.leaseMs)
      return undefined;
    const rejectedBy = this.exhaustedBy(request, false);
    return rejectedBy === undefined ? undefined : this.refusal(rejectedBy, now);
  }

  /** Settles an admitted request (LeaseAdmission.settle): its slot back to the spare ones, its token estimate corrected. */
  release(
    member: string | undefined,
    reservedStart: number | undefined,
    deltaTokens: number,
  ): void {
    let excess = false;
    if (member !== undefined) {
      if (this.stale.size > 0 && this.stale.delete(member)) {
        this.held.delete(member);
        this.given.push(member);
        excess = true;
      } else {
        this.spare.push(member);
        // Spare slots beyond the lease size go back at the next tick, not at once: a busy key's running
        // requests rise and fall by more than the lease size, and giving back on every fall would have
        // the next rise wait for Redis. Without leases (accuracy 0) each slot goes back at once.
        excess =
          this.spare.length > 0 && leaseCap(this.limits.concurrentRequests, this.sizing) === 0;
      }
    }
    if (deltaTokens !== 0 && this.limits.tokensPerMinute !== undefined) {
      if (reservedStart === this.windowStart) this.tokens -= deltaTokens;
      else if (deltaTokens > 0) this.carried += deltaTokens;
      // Used beyond the reservation, or more back than the lease should hold: tell Redis soon.
      if (
        this.tokens < 0 ||
        this.carried > 0 ||
        this.tokens > leaseCap(this.limits.tokensPerMinute, this.sizing)
      )
        excess = true;
    }
    if (excess) this.wake(this);
  }

  /** The next call to Redis for this key, or undefined when there is nothing to ask or give back. */
  buildCall(now: number): LeaseCall | undefined {
    this.roll(now);
    this.drain(now);
    if (this.inFlight !== undefined) return undefined;
    const { requestsPerMinute, tokensPerMinute, concurrentRequests } = this.limits;
    const first = this.waiters[0]?.request;
    let needRequests = 0;
    let needTokens = 0;
    for (const waiter of this.waiters) {
      needRequests += 1;
      needTokens += waiter.request.estimatedTokens;
    }
    const giving = this.givingBack;
    this.givingBack = false;
    const keepRequests =
      requestsPerMinute === undefined ? 0 : giving ? 0 : needRequests + this.requestTarget();
    const keepTokens =
      tokensPerMinute === undefined ? 0 : giving ? 0 : needTokens + this.tokenTarget();
    const keepSlots =
      concurrentRequests === undefined ? 0 : giving ? 0 : needRequests + this.slotTarget();

    const returnedRequests = Math.max(0, this.requests - keepRequests);
    this.requests -= returnedRequests;
    const returnedTokens = this.tokens < 0 ? this.tokens : Math.max(0, this.tokens - keepTokens);
    this.tokens -= returnedTokens;
    while (this.spare.length > keepSlots) {
      const member = this.spare.pop() as string;
      this.held.delete(member);
      this.given.push(member);
    }
    const carriedTokens = this.carried;
    this.carried = 0;
    const givenSlots = this.given;
    this.given = [];

    const minRequests =
      requestsPerMinute !== undefined && first !== undefined && this.requests < 1 ? 1 : 0;
    const maxRequests =
      requestsPerMinute === undefined
        ? 0
        : Math.max(minRequests, needRequests + (giving ? 0 : this.requestTarget()) - this.requests);
    const minTokens =
      tokensPerMinute !== undefined && first !== undefined
        ? Math.max(0, first.estimatedTokens - this.tokens)
        : 0;
    const maxTokens =
      tokensPerMinute === undefined
        ? 0
        : Math.max(minTokens, needTokens + (giving ? 0 : this.tokenTarget()) - this.tokens);
    const minSlots =
      concurrentRequests !== undefined && first !== undefined && this.spare.length === 0 ? 1 : 0;
    const maxSlots =
      concurrentRequests === undefined
        ? 0
        : Math.max(minSlots, needRequests + (giving ? 0 : this.slotTarget()) - this.spare.length);
    const asks = first !== undefined || maxRequests > 0 || maxTokens > 0 || maxSlots > 0;
    if (
      !asks &&
      returnedRequests === 0 &&
      returnedTokens === 0 &&
      carriedTokens === 0 &&
      givenSlots.length === 0
    )
      return undefined;
    const call: LeaseCall = {
      lease: this,
      limits: this.limits,
      leaseStart: this.windowStart ?? 0,
      returnedRequests,
      returnedTokens,
      carriedTokens,
      minRequests,
      maxRequests,
      minTokens,
      maxTokens,
      minSlots,
      maxSlots,
      slotPrefix: this.slotPrefix,
      firstSlot: this.nextSlot,
      givenSlots,
    };
    this.nextSlot += maxSlots;
    this.inFlight = call;
    return call;
  }

  /** Takes in Redis's answer to `call` (even a late one: what it granted is this replica's), then serves the waiters. */
  applyReply(call: LeaseCall, reply: LeaseReply, now: number): void {
    if (this.inFlight === call) this.inFlight = undefined;
    // Redis's own refusal (reply[0]) shows in its counts: exhaustedBy below reads it from them.
    const [
      ,
      start,
      grantedRequests,
      grantedTokens,
      grantedSlots,
      windowRequests,
      windowTokens,
      slotsInUse,
    ] = reply;
    if (this.windowStart !== start) {
      // A new window: the old lease lapsed with it; only extra use of it carries over (core's settleWindow).
      this.windowStart = start;
      this.requests = 0;
      this.tokens = Math.min(0, this.tokens);
    }
    this.requests += grantedRequests;
    this.tokens += grantedTokens;
    for (let index = 0; index < grantedSlots; index += 1) {
      const member = `${call.slotPrefix}${call.firstSlot + index}`;
      this.held.add(member);
      this.spare.push(member);
    }
    this.windowRequests = windowRequests;
    this.windowTokens = windowTokens;
    this.slotsInUse = slotsInUse;
    this.syncedAt = now;
    this.drain(now);
    // Waiters the lease still cannot cover: refused when Redis has nothing left for them, else asked again.
    while (this.waiters.length > 0) {
      const waiter = this.waiters[0] as LeaseWaiter;
      const rejectedBy = this.exhaustedBy(waiter.request, true);
      if (rejectedBy === undefined) {
        this.wake(this);
        return;
      }
      this.waiters.shift();
      waiter.resolve(this.refusal(rejectedBy, now));
      this.drain(now);
    }
  }

  /** Forgets a call that Redis did not answer in time or failed; its waiters are decided elsewhere. */
  abandon(call: LeaseCall): LeaseWaiter[] {
    if (this.inFlight === call) this.inFlight = undefined;
    return this.waiters.splice(0);
  }

  /** Redis is back after an outage: it may have lost everything, so the lease goes back and held slots are not reused. */
  reconnected(): void {
    for (const member of this.held) this.stale.add(member);
    this.givingBack = true;
  }

  /** Every slot member held (spare or running), for the renewal of their expiry. */
  heldSlots(): ReadonlySet<string> {
    return this.held;
  }

  /** True when the lease holds more than its size (spare slots after a fall in running requests). */
  holdsExcess(): boolean {
    return (
      this.spare.length > this.slotTarget() ||
      this.tokens > leaseCap(this.limits.tokensPerMinute, this.sizing)
    );
  }

  /** True when the lease holds something unused that a quiet key should give back. */
  holdsUnused(): boolean {
    return (
      this.requests > 0 ||
      this.tokens !== 0 ||
      this.carried > 0 ||
      this.spare.length > 0 ||
      this.given.length > 0
    );
  }

  private covers(request: LimitRequest): boolean {
    const { requestsPerMinute, tokensPerMinute, concurrentRequests } = request.limits;
    if (requestsPerMinute !== undefined && this.requests < 1) return false;
    if (tokensPerMinute !== undefined && this.tokens < request.estimatedTokens) return false;
    return concurrentRequests === undefined || this.spare.length > 0;
  }

  private admit(request: LimitRequest, now: number): LeaseAdmission {
    const { requestsPerMinute, tokensPerMinute, concurrentRequests } = request.limits;
    if (requestsPerMinute !== undefined) this.requests -= 1;
    if (tokensPerMinute !== undefined) this.tokens -= request.estimatedTokens;
    const member = concurrentRequests === undefined ? undefined : this.spare.pop();
    this.countAdmission(request.estimatedTokens, now);
    const lowOnRequests =
      requestsPerMinute !== undefined &&
      this.requests <= this.requestTarget() / 2 &&
      this.requestTarget() > 0;
    const lowOnTokens =
      tokensPerMinute !== undefined &&
      this.tokens <= this.tokenTarget() / 2 &&
      this.tokenTarget() > 0;
    const lowOnSlots =
      concurrentRequests !== undefined && this.spare.length === 0 && this.slotTarget() > 0;
    // Renewed before it runs out, in the background: the next requests find a lease.
    if ((lowOnRequests || lowOnTokens || lowOnSlots) && this.inFlight === undefined)
      this.wake(this);
    const view = this.windowView(now);
    return new LeaseAdmission(
      this,
      request.limits,
      request.estimatedTokens,
      view,
      windowResetMs(view.start, now),
      member,
      this.windowStart,
    );
  }

  // Serves waiters in order while the lease covers them.
  private drain(now: number): void {
    while (this.waiters.length > 0 && !this.givingBack) {
      const waiter = this.waiters[0] as LeaseWaiter;
      if (!this.covers(waiter.request)) return;
      this.waiters.shift();
      waiter.resolve(this.admit(waiter.request, now));
    }
  }

  // The first limit (in the policy's order) that the lease cannot cover and Redis has no more of.
  private exhaustedBy(request: LimitRequest, includeSlots: boolean): LimitRejection | undefined {
    const { requestsPerMinute, tokensPerMinute, concurrentRequests } = request.limits;
    if (
      requestsPerMinute !== undefined &&
      this.requests < 1 &&
      this.windowRequests >= requestsPerMinute
    )
      return 'requests';
    if (tokensPerMinute !== undefined && this.tokens < request.estimatedTokens) {
      const unreported = this.carried + Math.max(0, -this.tokens);
      const shortfall = request.estimatedTokens - Math.max(0, this.tokens);
      if (
        this.windowTokens + unreported > 0 &&
        tokensPerMinute - this.windowTokens - unreported < shortfall
      )
        return 'tokens';
    }
    if (
      includeSlots &&
      concurrentRequests !== undefined &&
      this.spare.length === 0 &&
      this.slotsInUse >= concurrentRequests
    )
      return 'concurrency';
    return undefined;
  }

  private refusal(rejectedBy: LimitRejection, now: number): LimitDecision {
    const start = this.windowStart ?? now;
    return {
      admitted: false,
      snapshot: fillLimitSnapshot({}, this.windowView(now), this.limits, now),
      rejectedBy,
      retryAfterMs: retryAfterMs(rejectedBy, { start, requests: 0, tokens: 0 }, now),
    };
  }

  // The window as this replica sees it: Redis's last count, less what this replica's lease still holds. Read at once: the object is reused.
  private windowView(now: number): LimitWindow {
    const view = this.view;
    view.start = this.windowStart ?? now;
    view.requests = this.windowRequests - this.requests;
    view.tokens = this.windowTokens - this.tokens + this.carried;
    return view;
  }

  // The window ended here too: the lease lapses (Redis starts the next window from zero).
  private roll(now: number): void {
    if (
      this.windowStart === undefined ||
      (now < this.windowStart + limitWindowMs && now >= this.windowStart - limitWindowMs)
    )
      return;
    this.windowStart = undefined;
    this.requests = 0;
    this.tokens = 0;
    this.windowRequests = 0;
    this.windowTokens = 0;
  }

  private countAdmission(tokens: number, now: number): void {
    if (now >= this.periodEnd) {
      const consecutive = now - this.periodEnd < this.sizing.leaseMs;
      this.previousRequests = consecutive ? this.periodRequests : 0;
      this.previousTokens = consecutive ? this.periodTokens : 0;
      this.periodRequests = 0;
      this.periodTokens = 0;
      this.periodEnd = now + this.sizing.leaseMs;
    }
    this.periodRequests += 1;
    this.periodTokens += tokens;
  }

  private requestTarget(): number {
    return leaseTarget(
      this.limits.requestsPerMinute,
      this.sizing,
      Math.max(this.previousRequests, this.periodRequests),
    );
  }

  private tokenTarget(): number {
    return leaseTarget(
      this.limits.tokensPerMinute,
      this.sizing,
      Math.max(this.previousTokens, this.periodTokens),
    );
  }

  private slotTarget(): number {
    return leaseTarget(
      this.limits.concurrentRequests,
      this.sizing,
      Math.max(this.previousRequests, this.periodRequests),
    );
  }
}

/** An admission from a lease: the decision, its lease and the gateway's ticket in one object, with no closure. */
class LeaseAdmission extends LimitAdmission {
  constructor(
    private readonly keyLease: KeyLease,
    limits: KeyLimits,
    estimatedTokens: number,
    window: LimitWindow,
    resetMs: number,
    private readonly member: string | undefined,
    private readonly reservedStart: number | undefined,
  ) {
    super(limits, estimatedTokens, window, resetMs);
  }

  protected release(deltaTokens: number): void {
    this.keyLease.release(this.member, this.reservedStart, deltaTokens);
  }
}
