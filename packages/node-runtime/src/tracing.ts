export { createTracing } from './create-tracing.js';
export type { GatewayTracing, RequestSpanFacts, TracingOptions } from './create-tracing.js';
