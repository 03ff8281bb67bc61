import { Hono, type Context } from 'hono';
import {
  type ApiKeyIdentity,
  type Gateway,
  type HandlerInput,
  type HandlerResult,
  type RequestLogLine,
  type RouteDefinition,
} from '@infergate/core';
import {
  bodyLimitBytes,
  bodyInput,
  bodyText,
  envelopeForPath,
  errorResult,
  requestIdFor,
  requestLogLine,
  utf8ByteLength,
} from '@infergate/core';
import type { FetchBodyAdmission } from '@infergate/node-runtime';
import { answerBeforeBody } from './answer-before-body.js';
import { readBodyBytes } from './read-body.js';
import { toHonoPath } from './to-hono-path.js';
import { toResponse } from './to-response.js';

export interface EdgeAppOptions {
  /**
   * Aborting it aborts every running request (their streams end with the terminal error event). Node
   * only: in workerd a signal made outside a request cannot be touched from another request's handler.
   */
  shutdown?: AbortSignal | undefined;
  /** The in-flight body budget and body idle limit (Node: node-runtime's createFetchBodyAdmission); none in workerd. */
  admitBody?: FetchBodyAdmission | undefined;
  /** Where the one line per request goes (core's requestLogLine, the node-server's line); none when absent. */
  log?: ((line: RequestLogLine) => void) | undefined;
  /**
   * The status the runtime wrote on the connection itself while the app was still reading the request
   * (Node: a 408 at the whole-request limit), which is what the client got and so what is logged.
   */
  answeredOnSocket?: ((context: Context) => number | undefined) | undefined;
}

/** The raw request path: handlers and core's matcher decode parameters themselves, exactly once. */
function pathOf(context: Context): string {
  return new URL(context.req.url).pathname;
}

/**
 * The gateway on Hono: every route of core's table through core's dispatch; 404 and 405 from core's
 * matcher over the same table; request bodies counted against the route's limit while read.
 */
export function createEdgeApp(gateway: Gateway, options: EdgeAppOptions = {}): Hono {
  const app = new Hono();
  const { config, ids, clock } = gateway.deps;
  const { shutdown, admitBody, log, answeredOnSocket } = options;
  const requestIdOf = (context: Context): string =>
    requestIdFor(context.req.header('x-request-id'), ids);

  // The request's line once it is over: a JSON answer at once, a stream when it ends (499 if the client left).
  const logged = <T extends HandlerResult>(
    context: Context,
    route: RouteDefinition | undefined,
    startedAt: number,
    result: T,
  ): T => {
    if (log === undefined) return result;
    const facts = {
      requestId: result.headers['x-request-id'] ?? '',
      method: context.req.method,
      route: route?.path ?? 'unmatched',
      operationId: route?.operationId,
    };
    const write = (status: number): void =>
      log(
        requestLogLine({
          ...facts,
          status: answeredOnSocket?.(context) ?? status,
          durationMs: clock.now() - startedAt,
          meta: result.meta,
        }),
      );
    if (result.kind === 'stream') result.body.onEnd(write);
    else write(result.status);
    return result;
  };

  // 404, 405 with Allow, or a CORS preflight's 204: core decides, as for the node-server.
  const unmatched = (context: Context): Response => {
    const header = (name: string) => context.req.header(name);
    const result = gateway.unmatched({
      method: context.req.method,
      path: pathOf(context),
      header,
      requestId: requestIdOf(context),
    });
    return toResponse(logged(context, undefined, clock.now(), result));
  };

  // Hono serves HEAD through the GET route and leaves out the body, as core's matcher would take it.
  const handle = async (route: RouteDefinition, context: Context): Promise<Response> => {
    const startedAt = clock.now();
    const requestId = requestIdOf(context);
    const limit = bodyLimitBytes(route, config);
    const header = (name: string) => context.req.header(name);
    let identity: ApiKeyIdentity | undefined;
    let body: Pick<HandlerInput, 'body' | 'form'> = { body: undefined };
    let ticket;
    try {
      if (limit > 0) {
        // The key before the body: a request without a valid key is answered before a byte of its body is read.
        const checked = gateway.checkBeforeBody(route, header);
        identity = checked instanceof Promise ? await checked : checked;
        // The in-flight body budget (Node): bytes are held before the body is read, and until it is handled.
        ticket = admitBody?.(context.req.raw, limit);
      }
      const bytes = await readBodyBytes(context.req.raw, limit, ticket);
      if (bytes !== undefined)
        body = await bodyInput(route, bytes, header('content-type'), gateway.deps.encodeBase64);
    } catch (error) {
      ticket?.release();
      const refusal = gateway.withCors(
        errorResult(error, route.envelope, requestId),
        context.req.header('origin'),
      );
      return answerBeforeBody(logged(context, route, startedAt, refusal), context.req.raw.body);
    }
    const input = {
      method: route.method,
      path: pathOf(context),
      params: context.req.param(),
      header,
      ...body,
      // A shutdown past its grace aborts running requests like a leaving client: streams end in-protocol.
      signal: shutdown
        ? AbortSignal.any([context.req.raw.signal, shutdown])
        : context.req.raw.signal,
      requestId,
    };
    const result = await gateway.dispatch(route, input, identity);
    // The handler is done with the body text (a stream's upstream request is already sent).
    ticket?.release();
    // Hono answers HEAD without the body, so nothing would measure it: the length the GET's body has.
    if (context.req.method === 'HEAD' && result.kind === 'json')
      result.headers['content-length'] = String(utf8ByteLength(bodyText(result.body)));
    return toResponse(logged(context, route, startedAt, result));
  };

  for (const route of gateway.routes)
    app.on(route.method, toHonoPath(route.path), (context) => handle(route, context));
  app.notFound(unmatched);
  // dispatch never rejects; this is for failures in the wiring itself.
  app.onError((error, context) =>
    toResponse(
      logged(
        context,
        undefined,
        clock.now(),
        errorResult(error, envelopeForPath(pathOf(context)), requestIdOf(context)),
      ),
    ),
  );
  return app;
}
