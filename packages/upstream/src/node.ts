export { createUndiciTransport } from './undici-transport.js';
export type { UndiciTransportOptions } from './undici-transport.js';
export { createRedisLimitStore } from './create-redis-limit-store.js';
export type { LimitStoreLogger, RedisLimitStore, RedisLimitStoreOptions } from './create-redis-limit-store.js';
export { createTracing } from './create-tracing.js';
export type { GatewayTracing, RequestSpanFacts, TracingOptions } from './create-tracing.js';
export { reserveRequestBody } from './reserve-request-body.js';
export type { ReservedBody } from './reserve-request-body.js';
export { createClientErrorHandler } from './create-client-error-handler.js';
