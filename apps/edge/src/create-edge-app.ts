import { Hono, type Context } from 'hono';
import { type ApiKeyIdentity, type Gateway, type RouteDefinition } from '@infergate/core';
import { bodyLimitBytes, bodyText, envelopeForPath, errorResult, failureLogFields, requestIdFor, utf8ByteLength } from '@infergate/core';
import type { FetchBodyAdmission } from '@infergate/node-runtime';
import { answerBeforeBody } from './answer-before-body.js';
import { readBodyText } from './read-body-text.js';
import { toHonoPath } from './to-hono-path.js';
import { toResponse } from './to-response.js';

/** The raw request path: handlers and core's matcher decode parameters themselves, exactly once. */
function pathOf(context: Context): string {
  return new URL(context.req.url).pathname;
}

/**
 * The gateway on Hono: every route of core's table through core's dispatch; 404 and 405 from core's
 * matcher over the same table; request bodies counted against the route's limit while read.
 */
export function createEdgeApp(gateway: Gateway, shutdown?: AbortSignal, admitBody?: FetchBodyAdmission): Hono {
  const app = new Hono();
  const { config, ids } = gateway.deps;
  const requestIdOf = (context: Context): string => requestIdFor(context.req.header('x-request-id'), ids);

  // 404, 405 with Allow, or a CORS preflight's 204: core decides, as for the node-server.
  const unmatched = (context: Context): Response =>
    toResponse(
      gateway.unmatched({ method: context.req.method, path: pathOf(context), header: (name) => context.req.header(name), requestId: requestIdOf(context) }),
    );

  // Hono serves HEAD through the GET route and leaves out the body, as core's matcher would take it.
  const handle = async (route: RouteDefinition, context: Context): Promise<Response> => {
    const requestId = requestIdOf(context);
    const limit = bodyLimitBytes(route, config);
    const header = (name: string) => context.req.header(name);
    let identity: ApiKeyIdentity | undefined;
    let body: string | undefined;
    let ticket;
    try {
      if (limit > 0) {
        // The key before the body: a request without a valid key is answered before a byte of its body is read.
        const checked = gateway.checkBeforeBody(route, header);
        identity = checked instanceof Promise ? await checked : checked;
        // The in-flight body budget (Node): bytes are held before the body is read, and until it is handled.
        ticket = admitBody?.(context.req.raw, limit);
      }
      body = await readBodyText(context.req.raw, limit, ticket);
    } catch (error) {
      ticket?.release();
      return answerBeforeBody(gateway.withCors(errorResult(error, route.envelope, requestId), context.req.header('origin')), context.req.raw.body);
    }
    const input = {
      method: route.method,
      path: pathOf(context),
      params: context.req.param(),
      header,
      body,
      // A shutdown past its grace aborts running requests like a leaving client: streams end in-protocol.
      signal: shutdown ? AbortSignal.any([context.req.raw.signal, shutdown]) : context.req.raw.signal,
      requestId,
    };
    const result = await gateway.dispatch(route, input, identity);
    // Hono answers HEAD without the body, so nothing would measure it: the length the GET's body has.
    if (context.req.method === 'HEAD' && result.kind === 'json') result.headers['content-length'] = String(utf8ByteLength(bodyText(result.body)));
    // The handler is done with the body text (a stream's upstream request is already sent).
    ticket?.release();
    // The node-server's 5xx line, the same fields (Workers keep console output in their logs).
    if (result.status >= 500) {
      const { meta } = result;
      console.warn(
        JSON.stringify({
          level: 'warn',
          msg: 'request',
          requestId,
          method: route.method,
          route: route.path,
          status: result.status,
          model: meta.model,
          upstream: meta.endpoint,
          keyName: meta.keyName,
          ...failureLogFields(meta),
        }),
      );
    }
    return toResponse(result);
  };

  for (const route of gateway.routes) app.on(route.method, toHonoPath(route.path), (context) => handle(route, context));
  app.notFound(unmatched);
  // dispatch never rejects; this is for failures in the wiring itself.
  app.onError((error, context) => toResponse(errorResult(error, envelopeForPath(pathOf(context)), requestIdOf(context))));
  return app;
}
