import {
  budgetPeriodAt,
  budgetRefuses,
  type BudgetDecision,
  type BudgetLease,
  type BudgetRequest,
  type Clock,
  type KeyBudget,
} from '@infergate/core';
import type { LeaseSizing } from './lease-sizing.js';

/** A request waiting for this replica's next Redis call for its key's budget. */
export interface BudgetWaiter {
  request: BudgetRequest;
  resolve(decision: BudgetDecision): void;
}

/** What one key asks of Redis: the budget script's arguments (redis-limit-scripts.ts). */
export interface BudgetCall {
  lease: KeyBudgetLease;
  key: string;
  amount: number;
  returned: number;
  carried: number;
  /** -1 when nobody waits. */
  min: number;
  max: number;
  expiresInMs: number;
  /** Set when the waiters were decided elsewhere (Redis late or failed): a late answer decides none of them. */
  abandoned: boolean;
}

/** The budget script's answer: refused (0 or 1), granted and the period's spend, as strings. */
export type BudgetReply = [number, string, string];

/**
 * One replica's lease of one key's budget for the current period, as KeyLease is for the limits: Redis
 * counts a lease as spent when it grants it, so the replicas together never admit more than the budget
 * (reservations corrected to the real cost afterwards), and what a lease holds unused (at most
 * accuracy_percent of the amount divided among the replicas) is what others may be refused early by.
 */
export class KeyBudgetLease {
  readonly waiters: BudgetWaiter[] = [];
  inFlight: BudgetCall | undefined;
  /** Set when the lease should go back whole at the next call (the key went quiet). */
  givingBack = false;
  lastUsedAt = 0;

  budget: KeyBudget = { amount: 0, currency: '', period: 'day' };
  periodStart = Number.NEGATIVE_INFINITY;
  periodEnd = Number.NEGATIVE_INFINITY;
  // Granted and not yet reserved; negative: cost beyond the reservations, owed to Redis.
  private held = 0;
  // Extra cost of requests reserved in an ended period, charged to the current one.
  private carried = 0;
  // The period's spend as Redis last reported it (leases included).
  private knownSpent = 0;
  private syncedAt = Number.NEGATIVE_INFINITY;
  // Reservations in the current and previous lease_ms: the key's recent rate, which sizes the lease.
  private rateEnd = 0;
  private rateUse = 0;
  private previousUse = 0;

  constructor(
    private readonly name: string,
    private readonly sizing: LeaseSizing,
    private readonly wake: (lease: KeyBudgetLease) => void,
    readonly clock: Clock,
  ) {}

  /** The period's spend as this replica sees it: Redis's count, less what this lease holds unused, plus what it owes. */
  get spent(): number {
    return this.knownSpent - this.held + this.carried;
  }

  /** Admits the request from the lease, refuses it on fresh knowledge, or undefined to ask Redis. */
  tryDecide(request: BudgetRequest, now: number): BudgetDecision | undefined {
    this.budget = request.budget;
    this.roll(now);
    this.lastUsedAt = now;
    if (this.waiters.length === 0 && !this.givingBack && this.covers(request))
      return this.admit(request, now);
    if (
      now - this.syncedAt < this.sizing.leaseMs &&
      budgetRefuses(this.spent, request.estimatedCost, request.budget.amount)
    )
      return this.refusal();
    return undefined;
  }

  /** The next call to Redis for this key, or undefined when there is nothing to ask or give back. */
  buildCall(now: number): BudgetCall | undefined {
    this.roll(now);
    if (this.inFlight !== undefined) return undefined;
    const first = this.waiters[0]?.request;
    let need = 0;
    for (const waiter of this.waiters) need += waiter.request.estimatedCost;
    const giving = this.givingBack;
    this.givingBack = false;
    const keep = giving ? 0 : need + this.target();
    const returned = this.held < 0 ? this.held : Math.max(0, this.held - keep);
    this.held -= returned;
    const carried = this.carried;
    this.carried = 0;
    const min = first === undefined ? -1 : Math.max(0, first.estimatedCost - this.held);
    const max = Math.max(min, keep - this.held);
    if (first === undefined && returned === 0 && carried === 0 && max <= 0) return undefined;
    const call: BudgetCall = {
      lease: this,
      key: `infergate:budgets:{${this.name}}:${String(this.periodStart)}`,
      amount: this.budget.amount,
      returned,
      carried,
      min,
      max,
      // Kept a day past the period's end: nothing reads it then, and it lapses by itself.
      expiresInMs: Math.max(1, this.periodEnd - now) + 86_400_000,
      abandoned: false,
    };
    this.inFlight = call;
    return call;
  }

  /** Takes in Redis's answer: the first waiter is decided by it, the rest as the lease covers them. */
  applyReply(call: BudgetCall, reply: BudgetReply, now: number): void {
    if (this.inFlight === call) this.inFlight = undefined;
    const [refused, granted, spent] = reply;
    this.held += Number(granted);
    this.knownSpent = Number(spent);
    this.syncedAt = now;
    if (call.min >= 0 && !call.abandoned) {
      const first = this.waiters.shift();
      if (first !== undefined)
        first.resolve(refused === 1 ? this.refusal() : this.admit(first.request, now));
    }
    while (this.waiters.length > 0) {
      const waiter = this.waiters[0] as BudgetWaiter;
      if (this.covers(waiter.request)) {
        this.waiters.shift();
        waiter.resolve(this.admit(waiter.request, now));
      } else if (budgetRefuses(this.spent, waiter.request.estimatedCost, this.budget.amount)) {
        this.waiters.shift();
        waiter.resolve(this.refusal());
      } else {
        this.wake(this);
        return;
      }
    }
  }

  /** Forgets a call Redis did not answer in time; its waiters are decided elsewhere. */
  abandon(call: BudgetCall): BudgetWaiter[] {
    if (this.inFlight === call) this.inFlight = undefined;
    call.abandoned = true;
    return this.waiters.splice(0);
  }

  /** Redis is back after an outage (it may have lost the spend): the lease goes back, the known spend is stale. */
  reconnected(): void {
    this.givingBack = true;
    this.syncedAt = Number.NEGATIVE_INFINITY;
  }

  /** True when the lease holds something a quiet key should give back or report. */
  holdsUnused(): boolean {
    return this.held !== 0 || this.carried > 0;
  }

  /** Settles a request admitted from this lease (BudgetLease.settle). */
  release(reservedStart: number, deltaCost: number, now: number): void {
    if (deltaCost === 0) return;
    this.roll(now);
    if (reservedStart === this.periodStart) this.held -= deltaCost;
    else if (deltaCost > 0) this.carried += deltaCost;
    // Owed, or more back than the lease should hold: tell Redis soon.
    if (this.held < 0 || this.carried > 0 || this.held > this.cap()) this.wake(this);
  }

  private covers(request: BudgetRequest): boolean {
    return this.held > 0 && this.held >= request.estimatedCost;
  }

  private admit(request: BudgetRequest, now: number): BudgetDecision {
    this.held -= request.estimatedCost;
    if (now >= this.rateEnd) {
      this.previousUse = now - this.rateEnd < this.sizing.leaseMs ? this.rateUse : 0;
      this.rateUse = 0;
      this.rateEnd = now + this.sizing.leaseMs;
    }
    this.rateUse += request.estimatedCost;
    // Renewed before it runs out, in the background: the next requests find a lease.
    if (this.held <= this.target() / 2 && this.target() > 0 && this.inFlight === undefined)
      this.wake(this);
    return { admitted: true, lease: new RedisBudgetLease(this, request.estimatedCost, now) };
  }

  private refusal(): BudgetDecision {
    return {
      admitted: false,
      remaining: Math.max(0, this.budget.amount - this.spent),
      resetAt: this.periodEnd,
    };
  }

  // The period ended here too: the lease lapses with the old period's key; only what is owed carries over.
  private roll(now: number): void {
    if (now >= this.periodStart && now < this.periodEnd) return;
    const { start, end } = budgetPeriodAt(this.budget.period, now);
    this.periodStart = start;
    this.periodEnd = end;
    this.carried += Math.max(0, -this.held);
    this.held = 0;
    this.knownSpent = 0;
    this.syncedAt = Number.NEGATIVE_INFINITY;
  }

  private cap(): number {
    const { accuracyPercent, replicas } = this.sizing;
    return accuracyPercent <= 0 ? 0 : (this.budget.amount * accuracyPercent) / 100 / replicas;
  }

  private target(): number {
    return Math.min(this.cap(), Math.max(this.previousUse, this.rateUse));
  }
}

/** An admission from a budget lease. */
class RedisBudgetLease implements BudgetLease {
  private settled = false;
  private readonly reservedStart: number;

  constructor(
    private readonly lease: KeyBudgetLease,
    private readonly reserved: number,
    private readonly admittedAt: number,
  ) {
    this.reservedStart = lease.periodStart;
  }

  get remaining(): number {
    return Math.max(0, this.lease.budget.amount - this.lease.spent);
  }

  get resetAt(): number {
    return this.reservedStart === this.lease.periodStart
      ? this.lease.periodEnd
      : budgetPeriodAt(this.lease.budget.period, this.admittedAt).end;
  }

  settle(usedCost: number): void {
    if (this.settled) return;
    this.settled = true;
    this.lease.release(this.reservedStart, usedCost - this.reserved, this.lease.clock.now());
  }
}
