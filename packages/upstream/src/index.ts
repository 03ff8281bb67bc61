export { createUpstreamPort } from './create-upstream-port.js';
export type {
  UpstreamAttemptInfo,
  UpstreamAttemptSpan,
  UpstreamTracer,
} from './upstream-tracer.js';
export type { UpstreamPortOptions } from './create-upstream-port.js';
export type { AttemptTimeouts } from './send-attempt.js';
export type { BodySink, Transport, TransportRequest, TransportResponse } from './transport.js';
export { jsonBodyBytes } from './encode-json-body.js';
export type { JsonRequestBody, JsonTextPieces } from './encode-json-body.js';
export { createFetchTransport } from './fetch-transport.js';
export type { FetchTransportOptions } from './fetch-transport.js';
export { createInProcessTransport } from './in-process-transport.js';
export type { WebHandler } from './in-process-transport.js';
export { EndpointPool } from './endpoint-pool.js';
export type { Endpoint, EndpointPoolOptions } from './endpoint-pool.js';
export { parseSseStream } from './parse-sse-stream.js';
export { readBoundedBytes } from './read-bounded-bytes.js';
export type { SseStreamOptions } from './parse-sse-stream.js';
export { classifyTransportError } from './classify-transport-error.js';
export { createGatewayPorts } from './create-gateway-ports.js';
export type { GatewayPortsOptions, PortsConfig } from './create-gateway-ports.js';
export { createWebIdSource } from './create-web-id-source.js';
