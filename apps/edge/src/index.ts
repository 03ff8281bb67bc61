export { createEdgeApp } from './create-edge-app.js';
export { createEdgeGateway, unreachableLocalUpstreams } from './create-edge-gateway.js';
export type { EdgeGateway, EdgeGatewayOptions } from './create-edge-gateway.js';
export { resolveEdgeConfig } from './resolve-edge-config.js';
export type { EdgeBindings } from './edge-bindings.js';
