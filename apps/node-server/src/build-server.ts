import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  LogController,
  fastify,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { preParsingHookHandler } from 'fastify';
import {
  GatewayError,
  LightAbortController,
  bodyLimitBytes,
  encodeBase64,
  envelopeForPath,
  errorResult,
  isGatewayError,
  requestIdFor,
  type ApiKeyIdentity,
  type FormPart,
  type Gateway,
  type HandlerInput,
  type JsonResult,
  type RequestLogLine,
  type RouteDefinition,
  requestLogLine,
  resolveDotSegments,
} from '@infergate/core';
import {
  createNodeGateway,
  type NodeGatewayOptions,
  type ServerConfig,
} from './create-node-gateway.js';
import {
  answerBeforeBody,
  bodyInFlight,
  createBodyAdmission,
  createClientErrorHandler,
  createExpectationHandler,
  lacksHost,
  statusAnsweredOnSocket,
  limitConnections,
  loadTracing,
  readRequestBody,
  readRequestForm,
  serverOptions,
  shutdownDeadlines,
  startMetricsServer,
  type MetricsServer,
} from '@infergate/node-runtime';
import { headerValue } from './header-value.js';
import { pathOf } from './path-of.js';
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

/** A multipart form's parts, as the form parser left them in the request's body. */
function formOf(body: unknown): readonly FormPart[] | undefined {
  return typeof body === 'object' && body !== null && 'form' in body
    ? (body as { form: readonly FormPart[] }).form
    : undefined;
}

/** The gateway on Fastify: every route of core's table, core's errors for everything Fastify detects. */
export async function buildServer(
  config: ServerConfig,
  options: BuildServerOptions = {},
): Promise<GatewayServer> {
  // Traces only when an OTLP endpoint is configured (tracing.otlp_endpoint or OTEL_EXPORTER_OTLP_ENDPOINT):
  // OpenTelemetry is loaded only then.
  const tracing =
    config.tracing?.otlpEndpoint === undefined
      ? undefined
      : await loadTracing({
          otlpEndpoint: config.tracing.otlpEndpoint,
          serviceName: config.tracing.serviceName,
        });
  const gateway = await createNodeGateway(
    config,
    tracing === undefined ? options : { ...options, tracer: tracing.upstreamTracer },
  );
  const { deps } = gateway;
  let metricsServer: MetricsServer | undefined;
  // Requests not finished yet: at the end of the shutdown grace their streams get the terminal error.
  const active = new Set<RequestState>();
  let closing = false;
  // The request lines skip redaction: built field by field from facts, they hold no header, and
  // redacting them cost more than writing them.
  const requestLog = options.logger?.child({}, { redact: { paths: [] } });
  const writeLine = (line: RequestLogLine): void =>
    requestLog?.[line.level](line.fields, 'request');
  // Requests Node refuses before Fastify sees them are logged and counted as the others are.
  const refusals = { log: writeLine, metrics: deps.metrics };

  const app = fastify({
    loggerInstance: options.logger,
    // Fastify's own request lines are off: the app writes one line per request, with the model and tokens.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'requestId',
    }),
    // No pino child per request: the app's own lines name their request id themselves.
    childLoggerFactory: (logger) => logger,
    // `.` and `..` segments resolved before routing, as the edge app's URL parser resolves them.
    rewriteUrl: (request) => resolveDotSegments(request.url ?? '/'),
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
    http: serverOptions(config.timeouts),
    clientErrorHandler: createClientErrorHandler(deps.ids, refusals),
    // Node's header limit bounds a path's length: a long model id is core's 404, as on the edge app, not Fastify's 414.
    routerOptions: { maxParamLength: Number.MAX_SAFE_INTEGER },
    // A path find-my-way cannot decode (a malformed escape) is one no route serves: core's 404, as on the edge app.
    frameworkErrors: (error, request, reply) => {
      track(request, reply, undefined);
      const answer =
        error.code === 'FST_ERR_BAD_URL'
          ? unmatched(request)
          : errorResult(toEdgeError(error, frameworkContext(request)), 'native', request.id);
      void sendError(request, reply, answer);
    },
  });
  app.server.on('checkExpectation', createExpectationHandler(deps.ids, refusals));
  app.decorateRequest('requestState', null); // every request has the field from construction (request-state.ts)
  limitConnections(app.server, {
    maxConnections: config.limits.maxConnections,
    logger: app.log,
    metrics: deps.metrics,
  });

  // The body stays text: core parses it (naming the bad field, refusing prototype poisoning). Only a body
  // whose key was checked (every route that takes a body needs one) is held against the in-flight budget.
  app.removeAllContentTypeParsers();
  const admitBody = createBodyAdmission({
    maxInflightBodyBytes: config.limits.maxInflightBodyBytes,
    bodyIdleMs: config.timeouts.bodyIdleMs,
  });
  app.addContentTypeParser('application/json', (request, payload, done) => {
    const state = request.requestState;
    const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
    const ticket = readRequestBody(
      payload,
      { limit, headers: request.headers, admit: state?.identity && admitBody },
      done,
    );
    if (state !== null) state.body = ticket;
  });
  // A multipart form, on the route that takes one (image edits): read into core's form parts as it
  // arrives, within the same limit, budget and idle limit as a JSON body.
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const state = request.requestState;
    const route = request.routeOptions.config.route;
    if (request.is404 || route?.multipart !== true) return dropBody(request, payload, done);
    const ticket = readRequestForm(
      payload,
      {
        limit: request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY,
        headers: request.headers,
        admit: state?.identity && admitBody,
        encodeBase64: deps.encodeBase64 ?? encodeBase64,
      },
      (error, form) => done(error, form === undefined ? undefined : { form }),
    );
    if (state !== null) state.body = ticket;
  });
  // Any other content type (or none): routes that take no body (the unsupported endpoints answer 404
  // whatever they are sent) and unknown paths drop it unread; every other route answers 415 at once,
  // before reading a byte of it.
  const dropBody = (
    request: FastifyRequest,
    payload: IncomingMessage,
    done: (error: Error | null, body?: unknown) => void,
  ): void => {
    const route = request.routeOptions.config.route;
    if (request.is404 || route?.bodyLimit === 'none') {
      payload.on('end', () => done(null, undefined));
      payload.on('error', (error) => done(error, undefined));
      payload.resume();
      return;
    }
    done(
      GatewayError.unsupportedMediaType(
        headerValue(request.headers, 'content-type'),
        route?.multipart === true,
      ),
      undefined,
    );
  };
  app.addContentTypeParser('*', dropBody);

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
  const sendError = async (
    request: FastifyRequest,
    reply: FastifyReply,
    result: JsonResult,
  ): Promise<void> => {
    const state = request.requestState;
    if (state !== null) state.meta = result.meta;
    const answer = gateway.withCors(result, headerValue(request.headers, 'origin'));
    if (!bodyInFlight(request.raw)) return sendResult(reply, answer);
    // Before its body arrived (401, 413, 415, 503, 408): a lingering close, so that a client still sending reads it.
    if (state !== null) state.answeredEarly = true;
    reply.hijack();
    answerBeforeBody(request.raw, reply.raw, answer);
  };

  // The one line per request, written when its response closes: what the client got (499 when it went
  // away first), whether answered by a route, before its body, or by Node on its socket (408).
  const track = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: RouteDefinition | undefined,
  ): RequestState => {
    const state: RequestState = {
      startedAt: performance.now(),
      abort: new LightAbortController(),
      route,
    };
    request.requestState = state;
    if (tracing !== undefined)
      state.span = tracing.startRequest({
        method: request.method,
        route: route?.path ?? 'unmatched',
        headers: request.headers,
      });
    active.add(state);
    reply.raw.once('close', () => {
      active.delete(state);
      state.body?.release();
      const finished = reply.raw.writableFinished;
      if (!finished) state.abort.abort(new Error('The client closed the connection.'));
      const status =
        finished || state.answeredEarly === true
          ? reply.raw.statusCode
          : (statusAnsweredOnSocket(reply.raw) ?? 499);
      const operationId = state.route?.operationId;
      const durationMs = Math.round(performance.now() - state.startedAt);
      writeLine(
        requestLogLine({
          requestId: request.id,
          method: request.method,
          route: state.route?.path ?? 'unmatched',
          operationId,
          status,
          durationMs,
          meta: state.meta,
        }),
      );
      if (state.span !== undefined)
        tracing?.endRequest(state.span, {
          status,
          ...(operationId === undefined ? {} : { operationId }),
          ...(state.meta?.model === undefined ? {} : { model: state.meta.model }),
        });
      // Refused before dispatch (body too large or over the budget, wrong content type, unknown path,
      // shutting down): core never saw it, so the app counts it.
      if (state.dispatched !== true)
        deps.metrics.record({
          requestId: request.id,
          operationId: operationId ?? 'unmatched',
          status,
        });
      // Keep-alive connections that fall idle during shutdown would otherwise hold close() open.
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
    return state;
  };

  app.addHook('onRequest', (request, reply, done) => {
    track(request, reply, request.routeOptions.config.route);
    // While draining, keep-alive clients are moved off this replica: each answer closes its connection,
    // so the client's next request opens a new one, which the load balancer sends to a ready replica.
    if (gateway.draining) reply.raw.setHeader('connection', 'close');
    const refusal = closing
      ? GatewayError.shuttingDown()
      : lacksHost(request.raw)
        ? GatewayError.missingHost()
        : undefined;
    if (refusal === undefined) return done();
    void sendError(
      request,
      reply,
      errorResult(refusal, envelopeForPath(pathOf(request.url)), request.id),
    );
  });

  const inputFor = (
    request: FastifyRequest,
    signal: HandlerInput['signal'],
    params: unknown,
  ): HandlerInput => ({
    method: request.method,
    path: pathOf(request.url),
    params: (params ?? {}) as Record<string, string>,
    header: (name) => headerValue(request.headers, name),
    body: typeof request.body === 'string' ? request.body : undefined,
    form: formOf(request.body),
    signal,
    requestId: request.id,
  });

  const handle = async (
    route: RouteDefinition,
    request: FastifyRequest,
    reply: FastifyReply,
    params = request.params,
  ): Promise<void> => {
    const state: RequestState = request.requestState ?? {
      startedAt: performance.now(),
      abort: new LightAbortController(),
      route,
    };
    state.route = route;
    state.dispatched = true;
    // The client may have gone while its body was being read.
    if (reply.raw.destroyed) state.abort.abort(new Error('The client closed the connection.'));
    const { span } = state;
    const run = () =>
      gateway.dispatch(route, inputFor(request, state.abort.signal, params), state.identity);
    // The request span is the parent of the upstream attempts dispatch makes.
    const result = await (span === undefined || tracing === undefined
      ? run()
      : tracing.runInRequest(span, run));
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
      config: { route },
      handler: (request, reply) => handle(route, request, reply),
    });
  }

  const unmatched = (request: FastifyRequest): JsonResult =>
    gateway.unmatched({
      method: request.method,
      path: pathOf(request.url),
      header: (name) => headerValue(request.headers, name),
      requestId: request.id,
    });

  app.setNotFoundHandler(async (request, reply) => {
    // HEAD takes the path's GET route (core's matchRoute; Fastify has no HEAD twins): Node leaves out the body.
    const head = request.method === 'HEAD' ? gateway.match('HEAD', pathOf(request.url)) : undefined;
    if (head !== undefined && !isGatewayError(head))
      return handle(head.route, request, reply, head.params);
    await sendError(request, reply, unmatched(request));
  });

  // Fastify's own failures (body limit, content type, broken body) in core's envelopes; a 500 is the
  // request line's, at error level (core's requestLogLine).
  const frameworkContext = (request: FastifyRequest) => ({
    bodyLimit:
      request.requestState?.route === undefined
        ? config.limits.bodyJsonBytes
        : bodyLimitBytes(request.requestState.route, config),
    contentType: headerValue(request.headers, 'content-type'),
  });
  app.setErrorHandler(async (error, request, reply) => {
    await sendError(
      request,
      reply,
      errorResult(
        toEdgeError(error, frameworkContext(request)),
        envelopeForPath(pathOf(request.url)),
        request.id,
      ),
    );
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
