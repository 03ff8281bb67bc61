export { createUndiciTransport } from './undici-transport.js';
export type { UndiciTransportOptions } from './undici-transport.js';
export { createRedisLimitStore } from './create-redis-limit-store.js';
export type { LimitStoreLogger, RedisLimitStore, RedisLimitStoreOptions } from './create-redis-limit-store.js';
