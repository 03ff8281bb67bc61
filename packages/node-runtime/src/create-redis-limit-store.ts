import { randomUUID } from 'node:crypto';
import {
  createMemoryLimitStore,
  divideKeyLimits,
  limitWindowMs,
  type Clock,
  type LimitDecision,
  type LimitRequest,
  type BudgetStore,
  type LimitStore,
  type MetricsSink,
  type RedisConfig,
} from '@infergate/core';
import { Redis } from 'ioredis';
import { createRedisBudgetStore } from './create-redis-budget-store.js';
import { KeyLease, type LeaseCall, type LeaseReply, type LeaseWaiter } from './key-lease.js';
import { leaseScript } from './redis-limit-scripts.js';

/** The two log levels the store writes (pino's signature). */
export interface LimitStoreLogger {
  warn(facts: object, message: string): void;
  info(facts: object, message: string): void;
}

export interface RedisLimitStoreOptions extends RedisConfig {
  clock: Clock;
  metrics?: MetricsSink;
  logger?: LimitStoreLogger;
}

export interface RedisLimitStore extends LimitStore, BudgetStore {
  /**
   * Resolves once Redis answers; rejects with the connection's first error (refused, timed out after
   * 2 s, authentication). The store keeps reconnecting either way.
   */
  whenConnected(): Promise<void>;
  /** Gives back unused leases, stops renewing slots and closes the connection (held slots then expire after slotTtlMs). */
  close(): Promise<void>;
}

/**
 * Key limits (and budgets, create-redis-budget-store.ts) shared by every replica through Redis, decided in this process: each replica spends leases
 * (key-lease.ts) taken from Redis in the background, so an admitted request usually costs no round
 * trip. Slots expire unless renewed every slotTtlMs / 3. Redis down or slower than budgetMs: an
 * in-memory store with every limit divided by `replicas` decides, logged once per outage and counted; a
 * client never sees an error because of Redis (docs/operations.md, "Running several replicas").
 */
export function createRedisLimitStore(options: RedisLimitStoreOptions): RedisLimitStore {
  const { clock, budgetMs, replicas, slotTtlMs } = options;
  const sizing = { accuracyPercent: options.accuracyPercent, replicas, leaseMs: options.leaseMs };
  const client = new Redis(options.url, {
    // Commands fail at once while disconnected instead of queueing: the local fallback answers then.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  const replica = randomUUID();
  const leases = new Map<string, KeyLease>();
  const due = new Set<KeyLease>();
  let flushScheduled = false;
  const local = createMemoryLimitStore(clock);
  let shared = true;
  let everReady = false;
  // Where Redis is, for the log: the URL may carry a password.
  const where = redisAddress(options.url);

  const countFallback = (): void => {
    try {
      options.metrics?.limiterFallback?.();
    } catch {
      // A failing metrics sink must not fail the request.
    }
  };
  const toLocal = (reason: string): void => {
    if (!shared) return;
    shared = false;
    options.logger?.warn(
      { redis: where, reason, replicas },
      `key limits: Redis at ${where} unreachable or slow, counting locally (each limit / replicas)`,
    );
  };
  const connected = (up: boolean): void => {
    try {
      options.metrics?.redisConnected?.(up);
    } catch {
      // A failing metrics sink must not stop the store.
    }
  };
  const toShared = (): void => {
    if (shared) return;
    shared = true;
    options.logger?.info({}, 'key limits: Redis answers again, limits shared');
  };
  const decideLocally = (request: LimitRequest): LimitDecision => {
    countFallback();
    return local.acquire(localShare(request, replicas));
  };
  const budgets = createRedisBudgetStore({
    client,
    clock,
    sizing,
    budgetMs,
    decidedLocally: (reason) => {
      countFallback();
      toLocal(reason);
    },
    answered: () => toShared(),
  });
  const fallBack = (waiters: readonly LeaseWaiter[]): void => {
    for (const waiter of waiters) waiter.resolve(decideLocally(waiter.request));
  };
  // ioredis reports connection failures as events; without a listener it prints them itself.
  client.on('error', (error: Error & { code?: string }) => {
    connected(client.status === 'ready');
    toLocal(error.code ?? error.name);
  });
  client.on('close', () => connected(false));
  client.on('ready', () => {
    connected(true);
    // Loaded before any call on this connection (commands keep their order), so EVALSHA finds it.
    client.script('LOAD', leaseScript.source).catch(() => undefined);
    if (everReady) {
      for (const lease of leases.values()) lease.reconnected();
      budgets.reconnected();
    }
    everReady = true;
    for (const lease of leases.values()) due.add(lease);
    schedule();
  });

  const leaseFor = (name: string): KeyLease => {
    let lease = leases.get(name);
    if (lease === undefined) {
      // The {hash tag} keeps both keys of a key name in one Redis Cluster slot, as a script requires.
      const tag = `infergate:limits:{${name}}`;
      lease = new KeyLease([`${tag}:window`, `${tag}:slots`], `${replica}:${name}:`, sizing, wake);
      leases.set(name, lease);
    }
    return lease;
  };

  // A function of its own, so that the closure's context is allocated only for a request that waits, not in acquire.
  function waitForLease(lease: KeyLease, request: LimitRequest): Promise<LimitDecision> {
    return new Promise<LimitDecision>((resolve) => {
      lease.waiters.push({ request, resolve });
      wake(lease);
    });
  }

  function wake(lease: KeyLease): void {
    due.add(lease);
    schedule();
  }

  function schedule(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    // After the I/O callbacks of this turn: every request read in it joins the same round trip.
    setImmediate(flush);
  }

  function flush(): void {
    flushScheduled = false;
    if (due.size === 0) return;
    if (client.status !== 'ready') {
      for (const lease of due) fallBack(lease.waiters.splice(0));
      due.clear();
      return;
    }
    const now = clock.now();
    const calls: LeaseCall[] = [];
    for (const lease of due) {
      const call = lease.buildCall(now);
      if (call !== undefined) calls.push(call);
    }
    due.clear();
    if (calls.length > 0) send(calls, false);
  }

  function send(calls: readonly LeaseCall[], withSource: boolean): void {
    const pipeline = client.pipeline();
    for (const call of calls) {
      const args = scriptArguments(call, clock.now(), slotTtlMs);
      if (withSource) pipeline.eval(leaseScript.source, 2, ...call.lease.keys, ...args);
      else pipeline.evalsha(leaseScript.sha1, 2, ...call.lease.keys, ...args);
    }
    let late = false;
    const budget = setTimeout(() => {
      late = true;
      // A late answer is still applied (what Redis granted is this replica's); the waiting requests cannot wait for it.
      const waiters = calls.flatMap((call) => call.lease.abandon(call));
      if (waiters.length === 0) return;
      toLocal('over budget');
      fallBack(waiters);
    }, budgetMs);
    pipeline.exec().then(
      (results) => {
        clearTimeout(budget);
        const now = clock.now();
        const again: LeaseCall[] = [];
        let answered = false;
        for (const [index, call] of calls.entries()) {
          const [error, reply] = results?.[index] ?? [new Error('no reply'), undefined];
          if (error === null) {
            answered = true;
            call.lease.applyReply(call, reply as LeaseReply, now);
          }
          // A restarted Redis has lost its script cache: send the script itself (a second round trip, once).
          else if (!withSource && !late && error.message.startsWith('NOSCRIPT')) again.push(call);
          else fallBack(call.lease.abandon(call));
        }
        if (again.length > 0) send(again, true);
        // Only a reply proves Redis is back: a pipeline cut by a dying server resolves with errors alone.
        else if (answered) toShared();
      },
      () => {
        clearTimeout(budget);
        toLocal('failed');
        // Lost with Redis: given-back slots expire by themselves, and the rest only concerned this window.
        for (const call of calls) fallBack(call.lease.abandon(call));
      },
    );
  }

  // Renews the expiry of held slots, and gives back the leases of keys that went quiet.
  const tickMs = Math.max(25, Math.min(Math.floor(options.leaseMs / 2), Math.floor(slotTtlMs / 3)));
  let renewAt = 0;
  const tick = setInterval(() => {
    if (client.status !== 'ready') return;
    const now = clock.now();
    budgets.tick(now);
    const renewing = now >= renewAt;
    if (renewing) renewAt = now + Math.floor(slotTtlMs / 3) - tickMs;
    const pipeline = client.pipeline();
    for (const lease of leases.values()) {
      if (lease.waiters.length === 0 && lease.inFlight === undefined) {
        const quiet = now - lease.lastUsedAt >= options.leaseMs && lease.holdsUnused();
        if (quiet) lease.givingBack = true;
        if (quiet || lease.holdsExcess()) wake(lease);
      }
      const held = lease.heldSlots();
      if (!renewing || held.size === 0) continue;
      const expiresAt = now + slotTtlMs;
      const members: (string | number)[] = [];
      for (const member of held) members.push(expiresAt, member);
      // XX: a slot already expired (this replica was cut off too long) is not brought back.
      pipeline.zadd(lease.keys[1], 'XX', ...members);
      pipeline.pexpire(lease.keys[1], slotTtlMs);
    }
    if (pipeline.length > 0) pipeline.exec().catch(() => undefined);
  }, tickMs);
  tick.unref();

  return {
    acquire(request) {
      if (client.status !== 'ready') {
        toLocal('not connected');
        return decideLocally(request);
      }
      const lease = leaseFor(request.key);
      const now = clock.now();
      // Spent from the lease (or refused on fresh knowledge) at once: no promise, no round trip.
      const decision = lease.tryAdmit(request, now) ?? lease.knownRefusal(request, now);
      if (decision !== undefined) return decision;
      return waitForLease(lease, request);
    },
    acquireBudget: (request) => budgets.acquireBudget(request),
    whenConnected() {
      if (client.status === 'ready') return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const onReady = (): void => {
          client.off('error', onError);
          resolve();
        };
        const onError = (error: Error): void => {
          client.off('ready', onReady);
          reject(error);
        };
        client.once('ready', onReady);
        client.once('error', onError);
      });
    },
    async close() {
      clearInterval(tick);
      await budgets.close();
      if (client.status === 'ready') {
        const now = clock.now();
        const pipeline = client.pipeline();
        for (const lease of leases.values()) {
          lease.givingBack = true;
          const call = lease.buildCall(now);
          if (call !== undefined)
            pipeline.evalsha(
              leaseScript.sha1,
              2,
              ...lease.keys,
              ...scriptArguments(call, now, slotTtlMs),
            );
        }
        // Best effort and bounded: unreturned leases lapse with their window.
        await Promise.race([
          pipeline.exec().catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, budgetMs).unref()),
        ]);
      }
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}

/** The lease script's ARGV for a call (see redis-limit-scripts.ts). */
function scriptArguments(call: LeaseCall, now: number, slotTtlMs: number): (string | number)[] {
  const { requestsPerMinute = 0, tokensPerMinute = 0, concurrentRequests = 0 } = call.limits;
  return [
    now,
    limitWindowMs,
    requestsPerMinute,
    tokensPerMinute,
    concurrentRequests,
    slotTtlMs,
    call.leaseStart,
    call.returnedRequests,
    call.returnedTokens,
    call.carriedTokens,
    call.minRequests,
    call.maxRequests,
    call.minTokens,
    call.maxTokens,
    call.minSlots,
    call.maxSlots,
    call.slotPrefix,
    call.firstSlot,
    call.givenSlots.length,
    ...call.givenSlots,
  ];
}

/** `host:port` of a Redis URL, without its credentials. */
function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port === '' ? `${parsed.hostname}:6379` : parsed.host;
  } catch {
    return 'redis.url';
  }
}

/** A replica's share of a request's limits while Redis is away. */
function localShare(request: LimitRequest, replicas: number): LimitRequest {
  const limits = divideKeyLimits(request.limits, replicas);
  const estimatedTokens =
    limits.tokensPerMinute === undefined
      ? request.estimatedTokens
      : Math.min(request.estimatedTokens, limits.tokensPerMinute);
  return { ...request, limits, estimatedTokens };
}
