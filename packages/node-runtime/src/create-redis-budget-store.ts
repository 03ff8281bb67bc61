import {
  createMemoryBudgetStore,
  type BudgetDecision,
  type BudgetRequest,
  type BudgetStore,
  type Clock,
} from '@infergate/core';
import type { Redis } from 'ioredis';
import {
  KeyBudgetLease,
  type BudgetCall,
  type BudgetReply,
  type BudgetWaiter,
} from './key-budget-lease.js';
import type { LeaseSizing } from './lease-sizing.js';
import { budgetScript } from './redis-limit-scripts.js';

export interface RedisBudgetOptions {
  client: Redis;
  clock: Clock;
  sizing: LeaseSizing;
  budgetMs: number;
  /** Called for each decision made locally because Redis is away or slow (the limit store's fallback). */
  decidedLocally(reason: string): void;
  /** Called when Redis answered a call. */
  answered(): void;
}

export interface RedisBudgetStore extends BudgetStore {
  /** Gives back what the quiet keys' leases hold (called from the limit store's tick). */
  tick(now: number): void;
  /** Redis is back after an outage: every lease goes back, and what was known of the spend is forgotten. */
  reconnected(): void;
  /** Gives every lease back, bounded by the budget: called by the limit store's close(). */
  close(): Promise<void>;
}

/**
 * Key budgets shared by every replica through the limits' Redis, with leases as the limits have
 * (key-budget-lease.ts): an admitted request usually costs no round trip. Redis away or slower than
 * budgetMs: each replica spends its share (amount / replicas) in memory, as the limits do.
 */
export function createRedisBudgetStore(options: RedisBudgetOptions): RedisBudgetStore {
  const { client, clock, sizing, budgetMs } = options;
  const leases = new Map<string, KeyBudgetLease>();
  const due = new Set<KeyBudgetLease>();
  const local = createMemoryBudgetStore(clock);
  let flushScheduled = false;

  const decideLocally = (request: BudgetRequest, reason: string): BudgetDecision => {
    options.decidedLocally(reason);
    const amount = request.budget.amount / sizing.replicas;
    return local.acquireBudget({
      ...request,
      budget: { ...request.budget, amount },
      estimatedCost: Math.min(request.estimatedCost, amount),
    });
  };
  const fallBack = (waiters: readonly BudgetWaiter[], reason: string): void => {
    for (const waiter of waiters) waiter.resolve(decideLocally(waiter.request, reason));
  };

  function wake(lease: KeyBudgetLease): void {
    due.add(lease);
    if (flushScheduled) return;
    flushScheduled = true;
    // After the I/O callbacks of this turn: the requests read in it share one round trip.
    setImmediate(flush);
  }

  function flush(): void {
    flushScheduled = false;
    if (client.status !== 'ready') {
      for (const lease of due) fallBack(lease.waiters.splice(0), 'not connected');
      due.clear();
      return;
    }
    const now = clock.now();
    const calls: BudgetCall[] = [];
    for (const lease of due) {
      const call = lease.buildCall(now);
      if (call !== undefined) calls.push(call);
    }
    due.clear();
    if (calls.length > 0) send(calls);
  }

  function send(calls: readonly BudgetCall[]): void {
    const pipeline = client.pipeline();
    for (const call of calls)
      pipeline.eval(
        budgetScript.source,
        1,
        call.key,
        call.amount,
        call.returned,
        call.carried,
        call.min,
        call.max,
        call.expiresInMs,
      );
    const budget = setTimeout(() => {
      // A late answer is still applied (what Redis granted is this replica's); the waiters cannot wait.
      for (const call of calls) fallBack(call.lease.abandon(call), 'over budget');
    }, budgetMs);
    pipeline.exec().then(
      (results) => {
        clearTimeout(budget);
        const now = clock.now();
        calls.forEach((call, index) => {
          const [error, reply] = results?.[index] ?? [new Error('no reply'), undefined];
          if (error === null) {
            options.answered();
            call.lease.applyReply(call, reply as BudgetReply, now);
          } else fallBack(call.lease.abandon(call), 'failed');
        });
      },
      () => {
        clearTimeout(budget);
        for (const call of calls) fallBack(call.lease.abandon(call), 'failed');
      },
    );
  }

  return {
    acquireBudget(request) {
      if (client.status !== 'ready') return decideLocally(request, 'not connected');
      let lease = leases.get(request.key);
      if (lease === undefined) {
        lease = new KeyBudgetLease(request.key, sizing, wake, clock);
        leases.set(request.key, lease);
      }
      const decision = lease.tryDecide(request, clock.now());
      if (decision !== undefined) return decision;
      const waiting = lease;
      return new Promise<BudgetDecision>((resolve) => {
        waiting.waiters.push({ request, resolve });
        wake(waiting);
      });
    },
    tick(now) {
      for (const lease of leases.values()) {
        if (lease.waiters.length > 0 || lease.inFlight !== undefined) continue;
        if (now - lease.lastUsedAt >= sizing.leaseMs && lease.holdsUnused()) {
          lease.givingBack = true;
          wake(lease);
        }
      }
    },
    reconnected() {
      for (const lease of leases.values()) {
        lease.reconnected();
        wake(lease);
      }
    },
    async close() {
      if (client.status !== 'ready') return;
      const now = clock.now();
      const pipeline = client.pipeline();
      for (const lease of leases.values()) {
        lease.givingBack = true;
        const call = lease.buildCall(now);
        if (call !== undefined)
          pipeline.eval(
            budgetScript.source,
            1,
            call.key,
            call.amount,
            call.returned,
            call.carried,
            call.min,
            call.max,
            call.expiresInMs,
          );
      }
      await Promise.race([
        pipeline.exec().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, budgetMs).unref()),
      ]);
    },
  };
}
