import { randomUUID } from 'node:crypto';
import {
  createMemoryLimitStore,
  divideKeyLimits,
  limitSnapshot,
  limitWindowMs,
  retryAfterMs,
  type Clock,
  type LimitDecision,
  type LimitRejection,
  type LimitRequest,
  type LimitStore,
  type LimitWindow,
  type MetricsSink,
  type RedisConfig,
} from '@infergate/core';
import { Redis } from 'ioredis';
import { acquireScript, settleScript, type RedisScript } from './redis-limit-scripts.js';

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

export interface RedisLimitStore extends LimitStore {
  /**
   * Resolves once Redis answers; rejects with the connection's first error (refused, timed out after
   * 2 s, authentication). For a start that should stop rather than count locally from the outset.
   */
  whenConnected(): Promise<void>;
  /** Stops renewing slots and closes the connection (held slots then expire after slotTtlMs). */
  close(): Promise<void>;
}

const rejections: readonly (LimitRejection | undefined)[] = [undefined, 'requests', 'tokens', 'concurrency'];

type AcquireReply = [number, number, number, number];

class BudgetExceeded extends Error {}

/**
 * Key limits shared by every replica through Redis: one EVALSHA per admission (core's policy as a Lua
 * script), the settlement sent without waiting for its answer. Concurrency slots carry an expiry that
 * this replica renews every slotTtlMs / 3 while their requests run, so the slots of a replica that
 * dies free themselves within slotTtlMs.
 *
 * Redis down, or slower than budgetMs: the request is decided by an in-memory store with every limit
 * divided by `replicas`, logged once per outage and counted (metrics.limiterFallback); the next request
 * after the connection is back goes to Redis again. A client never sees an error because of Redis.
 */
export function createRedisLimitStore(options: RedisLimitStoreOptions): RedisLimitStore {
  const { clock, budgetMs, replicas, slotTtlMs } = options;
  const client = new Redis(options.url, {
    // Commands fail at once while disconnected instead of queueing: the local fallback answers then.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  const replica = randomUUID();
  let sequence = 0;
  // Slots held by this replica's running requests: renewed together, removed when they settle.
  const held = new Map<string, string>();
  const local = createMemoryLimitStore(clock);
  let shared = true;

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
    options.logger?.warn({ reason, replicas }, 'key limits: Redis unreachable or slow, counting locally (each limit / replicas)');
  };
  const toShared = (): void => {
    if (shared) return;
    shared = true;
    options.logger?.info({}, 'key limits: Redis answers again, limits shared');
  };
  // ioredis reports connection failures as events; without a listener it prints them itself.
  client.on('error', (error: Error) => toLocal(error.name));

  const runScript = async (scriptToRun: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> => {
    try {
      return await client.evalsha(scriptToRun.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      // A restarted Redis has lost its script cache: load it with this call (a second round trip, once).
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return client.eval(scriptToRun.source, keys.length, ...keys, ...args);
      throw error;
    }
  };

  const keysOf = (name: string): [string, string] => {
    // The {hash tag} keeps both keys of a key name in one Redis Cluster slot, as a script requires.
    const tag = `infergate:limits:{${name}}`;
    return [`${tag}:window`, `${tag}:slots`];
  };

  const settleShared = (keys: [string, string], reservedStart: number, delta: number, member: string): void => {
    if (member !== '') held.delete(member);
    runScript(settleScript, keys, [reservedStart, delta, member, clock.now(), limitWindowMs]).catch(() => {
      // Lost with Redis: the slot expires by itself and the correction only concerned this window.
    });
  };

  const acquireShared = async (request: LimitRequest): Promise<LimitDecision> => {
    const now = clock.now();
    const keys = keysOf(request.key);
    const { requestsPerMinute = 0, tokensPerMinute = 0, concurrentRequests = 0 } = request.limits;
    const member = concurrentRequests > 0 ? `${replica}:${(sequence += 1)}` : '';
    const call = runScript(acquireScript, keys, [now, limitWindowMs, requestsPerMinute, tokensPerMinute, concurrentRequests, request.estimatedTokens, member, slotTtlMs]) as Promise<AcquireReply>;
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new BudgetExceeded()), budgetMs);
    });
    let reply: AcquireReply;
    try {
      reply = await Promise.race([call, budget]);
    } catch (error) {
      // An answer that comes after the budget was counted in Redis while the request was decided
      // locally: give back its slot and tokens so that it is not counted twice.
      if (error instanceof BudgetExceeded) {
        call.then((late) => {
          if (late[0] === 0) settleShared(keys, late[1], -request.estimatedTokens, member);
        }, () => undefined);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
    const [code, start, requests, tokens] = reply;
    const window: LimitWindow = { start, requests, tokens };
    const snapshot = limitSnapshot(window, request.limits, now);
    const rejectedBy = rejections[code];
    if (rejectedBy !== undefined) return { admitted: false, snapshot, rejectedBy, retryAfterMs: retryAfterMs(rejectedBy, window, now) };
    if (member !== '') held.set(member, keys[1]);
    let settled = false;
    return {
      admitted: true,
      snapshot,
      lease: {
        settle(usedTokens) {
          if (settled) return;
          settled = true;
          settleShared(keys, start, usedTokens - request.estimatedTokens, member);
        },
      },
    };
  };

  const renew = setInterval(() => {
    if (held.size === 0 || client.status !== 'ready') return;
    const expiresAt = clock.now() + slotTtlMs;
    const pipeline = client.pipeline();
    for (const [member, slotsKey] of held) {
      // XX: a slot already expired (this replica was cut off too long) is not brought back.
      pipeline.zadd(slotsKey, 'XX', expiresAt, member);
      pipeline.pexpire(slotsKey, slotTtlMs);
    }
    pipeline.exec().catch(() => undefined);
  }, Math.max(50, Math.floor(slotTtlMs / 3)));
  renew.unref();

  return {
    async acquire(request) {
      if (client.status !== 'ready') {
        toLocal('not connected');
        countFallback();
        return local.acquire(localShare(request, replicas));
      }
      try {
        const decision = await acquireShared(request);
        toShared();
        return decision;
      } catch (error) {
        toLocal(error instanceof BudgetExceeded ? 'over budget' : 'failed');
        countFallback();
        return local.acquire(localShare(request, replicas));
      }
    },
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
      clearInterval(renew);
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}

/** A replica's share of a request's limits while Redis is away. */
function localShare(request: LimitRequest, replicas: number): LimitRequest {
  const limits = divideKeyLimits(request.limits, replicas);
  const estimatedTokens = limits.tokensPerMinute === undefined ? request.estimatedTokens : Math.min(request.estimatedTokens, limits.tokensPerMinute);
  return { ...request, limits, estimatedTokens };
}
