export { serverOptions } from './server-options.js';
export { createClientErrorHandler, statusAnsweredOnSocket } from './create-client-error-handler.js';
export { createExpectationHandler } from './create-expectation-handler.js';
export type { NodeRefusalOptions } from './node-refusal-options.js';
export { lacksHost } from './lacks-host.js';
export { refuseRequest } from './refuse-request.js';
export { closeHttpServer } from './close-http-server.js';
export { createGatewayHttpServer, listenHttpServer } from './create-gateway-http-server.js';
export type { GatewayHttpServerOptions } from './create-gateway-http-server.js';
export { withGeneratedKey } from './with-generated-key.js';
export { limitConnections } from './limit-connections.js';
export type { ConnectionLimitOptions, ConnectionLogger } from './limit-connections.js';
export { createBodyAdmission } from './create-body-admission.js';
export type { BodyAdmission, BodyHeaders, BodyTicket } from './create-body-admission.js';
export { createFetchBodyAdmission } from './create-fetch-body-admission.js';
export { answerBeforeBody, bodyInFlight } from './answer-before-body.js';
export { readRequestBody } from './read-request-body.js';
export type { RequestBodyOptions } from './read-request-body.js';
export { readRequestForm } from './read-request-form.js';
export type { RequestFormOptions } from './read-request-form.js';
export type { FetchBodyAdmission, FetchBodyTicket } from './create-fetch-body-admission.js';
export { closeOnSignals } from './close-on-signals.js';
export { startMetricsServer } from './start-metrics-server.js';
export type { MetricsServer } from './start-metrics-server.js';
export { shutDownWhenOrphaned } from './shut-down-when-orphaned.js';
export { shutdownDeadlines } from './shutdown-deadlines.js';
export type { ShutdownDeadlineActions } from './shutdown-deadlines.js';
export type { SignalShutdown } from './close-on-signals.js';
export { generateApiKey } from './generate-api-key.js';
export { printGeneratedKey } from './print-generated-key.js';
export { parseCliArgs } from './parse-cli-args.js';
export type { CliArgs } from './parse-cli-args.js';
export { StartFailure, explainStartFailure } from './explain-start-failure.js';
export type { ListenConfig } from './explain-start-failure.js';
export { exitOnStartFailure, startFailureExitCode } from './exit-on-start-failure.js';
export { badConfigExitCode, refuseStart } from './refuse-start.js';
export { loadRedisLimitStore } from './load-redis-limit-store.js';
export type { LoadRedisOptions } from './load-redis-limit-store.js';
export type {
  LimitStoreLogger,
  RedisLimitStore,
  RedisLimitStoreOptions,
} from './create-redis-limit-store.js';
export { loadTracing } from './load-tracing.js';
export type { GatewayTracing, RequestSpanFacts, TracingOptions } from './create-tracing.js';
export { createLineWriter } from './create-line-writer.js';
export type { LineWriter } from './create-line-writer.js';
