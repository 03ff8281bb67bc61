import type { RedisLimitStore, RedisLimitStoreOptions } from './create-redis-limit-store.js';
import { StartFailure } from './explain-start-failure.js';

export interface LoadRedisOptions {
  /**
   * A CLI's start: wait for Redis and stop with a StartFailure naming it when it cannot be reached,
   * so that a wrong `redis.url` does not count locally from the outset.
   */
  requireConnection?: boolean;
}

/**
 * The Redis limit store, its module (and ioredis) imported only now: a gateway without `redis` in its
 * configuration never loads them.
 */
export async function loadRedisLimitStore(options: RedisLimitStoreOptions, load: LoadRedisOptions = {}): Promise<RedisLimitStore> {
  const { createRedisLimitStore } = await import('./redis.js');
  const store = createRedisLimitStore(options);
  if (load.requireConnection === true) {
    await store.whenConnected().catch(async (error: unknown) => {
      await store.close();
      throw redisUnreachable(options.url, error);
    });
  }
  return store;
}

function redisUnreachable(url: string, error: unknown): StartFailure {
  let where = url;
  try {
    // The URL may carry a password: show only where it points.
    const parsed = new URL(url);
    where = `${parsed.protocol}//${parsed.host}`;
  } catch {
    where = 'redis.url';
  }
  const cause = (error as { code?: string }).code ?? (error as Error).message;
  return new StartFailure(
    `cannot reach Redis at ${where} (redis.url): ${cause}; start Redis there or correct redis.url in the configuration file (without redis, each replica counts key limits alone)`,
  );
}
