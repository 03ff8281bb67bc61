export { createRedisLimitStore } from './create-redis-limit-store.js';
export type {
  LimitStoreLogger,
  RedisLimitStore,
  RedisLimitStoreOptions,
} from './create-redis-limit-store.js';
