import type { RedisLimitStore, RedisLimitStoreOptions } from './create-redis-limit-store.js';

/**
 * The Redis limit store, its module (and ioredis) imported only now: a gateway without `redis` in its
 * configuration never loads them.
 */
export async function loadRedisLimitStore(options: RedisLimitStoreOptions): Promise<RedisLimitStore> {
  const { createRedisLimitStore } = await import('./redis.js');
  return createRedisLimitStore(options);
}
