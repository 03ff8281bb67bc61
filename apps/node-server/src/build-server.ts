import { performance } from 'node:perf_hooks';
import { LogController, fastify, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { preParsingHookHandler } from 'fastify';
import {
  GatewayError,
  LightAbortController,
  bodyLimitBytes,
  envelopeForPath,
  errorResult,
  requestIdFor,
  type ApiKeyIdentity,
  type Gateway,
  type HandlerInput,
  type JsonResult,
  type RouteDefinition,
} from '@infergate/core';
import { createNodeGateway, type NodeGatewayOptions, type ServerConfig } from './create-node-gateway.js';
import {
  answerBeforeBody,
  bodyInFlight,
  createBodyAdmission,
  createClientErrorHandler,
  limitConnections,
  loadTracing,
  serverTimeouts,
  shutdownDeadlines,
  startMetricsServer,
  type MetricsServer,
} from '@infergate/node-runtime';
import { headerValue } from './header-value.js';
import { logRequest } from './log-request.js';
import { pathOf } from './path-of.js';
import { readJsonBody } from './read-json-body.js';
import type { RequestState } from './request-state.js';
import { sendResult } from './send-result.js';
import { toEdgeError } from './to-edge-error.js';
import { toFastifyPath } from './to-fastify-path.js';

export interface BuildServerOptions extends NodeGatewayOptions {
  /** A pino logger for the one line per request; silent when absent. */
  logger?: FastifyBaseLogger;
}

export interface GatewayServer {
  app: FastifyInstance;
  gateway: Gateway;
  /**
   * Graceful shutdown: stops accepting, answers new requests on open connections with 503, lets
   * running responses and streams finish for up to `graceMs` (default `timeouts.shutdownGraceMs`),
   * then closes every connection (which cancels the streams still running and aborts their upstream calls).
   */
  close(graceMs?: number): Promise<void>;
  /** The drain before a shutdown: /readyz answers 503 from now on, every other request is served as before. */
  drain(): void;
  /** Starts GET /metrics on `metrics.port` when one is configured; its address, or undefined. */
  listenMetrics(): Promise<string | undefined>;
}

/** The gateway on Fastify: every route of core's table, core's errors for everything Fastify detects. */
export async function buildServer(config: ServerConfig, options: BuildServerOptions = {}): Promise<GatewayServer> {
  // Traces only when an OTLP endpoint is configured (tracing.otlp_endpoint or OTEL_EXPORTER_OTLP_ENDPOINT):
  // OpenTelemetry is loaded only then.
  const tracing =
    config.tracing?.otlpEndpoint === undefined
      ? undefined
      : await loadTracing({ otlpEndpoint: config.tracing.otlpEndpoint, serviceName: config.tracing.serviceName });
  const gateway = await createNodeGateway(config, tracing === undefined ? options : { ...options, tracer: tracing.upstreamTracer });
  const { deps } = gateway;
  const routeOf = new Map(gateway.routes.map((route) => [`${route.method} ${toFastifyPath(route.path)}`, route]));
  let metricsServer: MetricsServer | undefined;
  // Requests not finished yet: at the end of the shutdown grace their streams get the terminal error.
  const active = new Set<RequestState>();
  let closing = false;

  const app = fastify({
    loggerInstance: options.logger,
    // Fastify's own request lines are off: the app writes one line per request, with the model and tokens.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // No pino child per request (~3 KB): the app's own lines name their request id themselves.
    childLoggerFactory: (logger) => logger,
    // The app registers exactly core's table: no HEAD twins, no Fastify 503 body of its own.
    exposeHeadRoutes: false,
    return503OnClosing: false,
    // Applies to unmatched paths; every route sets its own.
    bodyLimit: config.limits.bodyJsonBytes,
    genReqId: (raw) => requestIdFor(headerValue(raw.headers, 'x-request-id'), deps.ids),
    requestTimeout: config.timeouts.inboundRequestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    // Socket inactivity must not cut a non-streaming generation whose headers come only at its end
    // (up to timeouts.headersMs): the upstream time limits bound it instead.
    connectionTimeout: 0,
    http: serverTimeouts(config.timeouts),
    clientErrorHandler: createClientErrorHandler(deps.ids),
  });
  app.decorateRequest('requestState', null); // every request has the field from construction (request-state.ts)
  limitConnections(app.server, { maxConnections: config.limits.maxConnections, logger: app.log, metrics: deps.metrics });

  // The request lines skip redaction: built field by field from facts, they hold no header, and
  // redacting them cost more than writing them (~14 KB of garbage and ~8 us per request, measured).
  const requestLog = app.log.child({}, { redact: { paths: [] } });

  // The body stays text: core parses it (naming the bad field, refusing prototype poisoning). Only a body
  // whose key was checked (every route that takes a body needs one) is held against the in-flight budget.
  app.removeAllContentTypeParsers();
  const admitBody = createBodyAdmission({ maxInflightBodyBytes: config.limits.maxInflightBodyBytes, bodyIdleMs: config.timeouts.bodyIdleMs });
  app.addContentTypeParser('application/json', (request, payload, done) => readJsonBody(request, payload, done, request.requestState?.identity && admitBody));
  // Any other content type (or none): routes that take no body (the unsupported endpoints answer 404
  // whatever they are sent) and unknown paths drop it unread; every other route answers 415 at once,
  // before reading a byte of it.
  const bodyless = new Set(gateway.routes.filter((route) => route.bodyLimit === 'none').map((route) => `${route.method} ${toFastifyPath(route.path)}`));
  app.addContentTypeParser('*', (request, payload, done) => {
    if (request.is404 || bodyless.has(`${request.method} ${request.routeOptions.url ?? ''}`)) {
      payload.on('end', () => done(null, undefined));
      payload.on('error', (error) => done(error, undefined));
      payload.resume();
      return;
    }
    done(GatewayError.unsupportedMediaType(headerValue(request.headers, 'content-type')), undefined);
  });

  // The key before the body: a request without a valid key is answered before a byte of its body is read or
  // counted. Hooks take callbacks, not promises: an async hook costs a promise and a microtask per request.
  const checkBeforeBody =
    (route: RouteDefinition): preParsingHookHandler =>
    (request, _reply, payload, done) => {
      const checked = (identity: ApiKeyIdentity | undefined): void => {
        if (request.requestState !== null) request.requestState.identity = identity;
        done(null, payload);
      };
      let identity;
      try {
        identity = gateway.checkBeforeBody(route, (name) => headerValue(request.headers, name));
      } catch (error) {
        return done(error as Error);
      }
      if (identity instanceof Promise) identity.then(checked, done);
      else checked(identity);
    };

  // An answer the app gives itself (before or outside dispatch) still says why in the request's log line.
  // It carries the CORS headers dispatch gives every other answer, so a browser script can read the error.
  const sendError = async (request: FastifyRequest, reply: FastifyReply, result: JsonResult): Promise<void> => {
    const state = request.requestState;
    if (state !== null) state.meta = result.meta;
    const answer = gateway.withCors(result, headerValue(request.headers, 'origin'));
    if (!bodyInFlight(request.raw)) return sendResult(reply, answer);
    // Before its body arrived (401, 413, 415, 503, 408): a lingering close, so that a client still sending reads it.
    if (state !== null) state.answeredEarly = true;
    reply.hijack();
    answerBeforeBody(request.raw, reply.raw, answer);
  };

  app.addHook('onRequest', (request, reply, done) => {
    const state: RequestState = { startedAt: performance.now(), abort: new LightAbortController() };
    request.requestState = state;
    if (tracing !== undefined)
      state.span = tracing.startRequest({
        method: request.method,
        route: routeOf.get(`${request.method} ${request.routeOptions.url ?? ''}`)?.path ?? 'unmatched',
        headers: request.headers,
      });
    active.add(state);
    reply.raw.once('close', () => {
      active.delete(state);
      state.body?.release();
      const finished = reply.raw.writableFinished;
      if (!finished) state.abort.abort(new Error('The client closed the connection.'));
      const facts = {
        requestId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: finished || state.answeredEarly === true ? reply.raw.statusCode : 499,
        durationMs: Math.round(performance.now() - state.startedAt),
      };
      logRequest(requestLog, facts, state);
      if (state.span !== undefined)
        tracing?.endRequest(state.span, {
          status: facts.status,
          ...(state.operationId === undefined ? {} : { operationId: state.operationId }),
          ...(state.meta?.model === undefined ? {} : { model: state.meta.model }),
        });
      // Refused before dispatch (body too large or over the budget, wrong content type, unknown path,
      // shutting down): core never saw it, so the app counts it.
      if (state.operationId === undefined)
        deps.metrics.record({
          requestId: request.id,
          operationId: routeOf.get(`${request.method} ${request.routeOptions.url ?? ''}`)?.operationId ?? 'unmatched',
          status: facts.status,
        });
      // Keep-alive connections that fall idle during shutdown would otherwise hold close() open.
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
    // While draining, keep-alive clients are moved off this replica: each answer closes its connection,
    // so the client's next request opens a new one, which the load balancer sends to a ready replica.
    if (gateway.draining) reply.raw.setHeader('connection', 'close');
    if (closing) {
      reply.header('connection', 'close');
      void sendError(request, reply, errorResult(GatewayError.shuttingDown(), envelopeForPath(pathOf(request.url)), request.id));
      return;
    }
    done();
  });

  const inputFor = (request: FastifyRequest, signal: HandlerInput['signal']): HandlerInput => ({
    method: request.method,
    path: pathOf(request.url),
    params: (request.params ?? {}) as Record<string, string>,
    header: (name) => headerValue(request.headers, name),
    body: typeof request.body === 'string' ? request.body : undefined,
    signal,
    requestId: request.id,
  });

  const handle = async (route: RouteDefinition, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const state = request.requestState ?? { startedAt: performance.now(), abort: new LightAbortController() };
    state.operationId = route.operationId;
    // The client may have gone while its body was being read.
    if (reply.raw.destroyed) state.abort.abort(new Error('The client closed the connection.'));
    const { span } = state;
    const run = () => gateway.dispatch(route, inputFor(request, state.abort.signal), state.identity);
    // The request span is the parent of the upstream attempts dispatch makes.
    const result = await (span === undefined || tracing === undefined ? run() : tracing.runInRequest(span, run));
    // The handler is done with the body text (a stream's upstream request is already sent).
    state.body?.release();
    state.meta = result.meta;
    await sendResult(reply, result);
  };

  for (const route of gateway.routes) {
    app.route({
      method: route.method,
      url: toFastifyPath(route.path),
      // 0 means the route takes no body; Fastify wants a positive limit, and never reads a GET body anyway.
      bodyLimit: bodyLimitBytes(route, config) || undefined,
      preParsing: route.bodyLimit === 'none' ? undefined : checkBeforeBody(route),
      handler: (request, reply) => handle(route, request, reply),
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = pathOf(request.url);
    await sendError(
      request,
      reply,
      gateway.unmatched({ method: request.method, path, header: (name) => headerValue(request.headers, name), requestId: request.id }),
    );
  });

  app.setErrorHandler(async (error, request, reply) => {
    const gatewayError = toEdgeError(error, {
      bodyLimit: request.routeOptions.bodyLimit ?? config.limits.bodyJsonBytes,
      contentType: headerValue(request.headers, 'content-type'),
    });
    if (gatewayError.status >= 500)
      request.log.error({ requestId: request.id, errorName: error instanceof Error ? error.name : typeof error }, 'unexpected failure');
    await sendError(request, reply, errorResult(gatewayError, envelopeForPath(pathOf(request.url)), request.id));
  });

  return {
    app,
    gateway,
    async close(graceMs = config.timeouts.shutdownGraceMs) {
      closing = true;
      // Ending a running request ends its upstream call, and a stream sends its terminal error event
      // (chat: error + [DONE]; responses: response.failed).
      const cancelDeadlines = shutdownDeadlines(graceMs, {
        endRunning: () => {
          for (const state of active) state.abort.abort(new Error('The gateway is shutting down.'));
        },
        cutAll: () => app.server.closeAllConnections(),
      });
      try {
        await app.close();
      } finally {
        cancelDeadlines();
        await gateway.close();
        await metricsServer?.close();
        await tracing?.shutdown();
      }
    },
    drain() {
      gateway.drain();
    },
    async listenMetrics() {
      const port = config.metrics?.port;
      if (port === undefined || config.metrics?.enabled === false) return undefined;
      metricsServer ??= await startMetricsServer(gateway, config.server.host, port);
      return metricsServer.address;
    },
  };
}
