import type { RedisLimitStore, RedisLimitStoreOptions } from './create-redis-limit-store.js';

export interface LoadRedisOptions {
  /**
   * A CLI's start: wait for the first connection attempt's outcome (at most its connect timeout), so
   * that limits are shared from the first request when Redis is there. When it is not, the store has
   * said so (log and metric) and the start goes on, counting each replica's share locally until Redis
   * answers.
   */
  waitForConnection?: boolean;
}

/**
 * The Redis limit store, its module (and ioredis) imported only now: a gateway without `redis` in its
 * configuration never loads them. Redis out of reach never stops a start.
 */
export async function loadRedisLimitStore(
  options: RedisLimitStoreOptions,
  load: LoadRedisOptions = {},
): Promise<RedisLimitStore> {
  const { createRedisLimitStore } = await import('./redis.js');
  const store = createRedisLimitStore(options);
  if (load.waitForConnection === true) await store.whenConnected().catch(() => undefined);
  return store;
}
