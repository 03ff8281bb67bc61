import type { GatewayConfig } from '../config/gateway-config.js';
import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import { corsResponseHeaders, preflightHeaders } from './cors.js';
import { envelopeForPath, errorResult } from './dispatch.js';
import type { JsonResult, RouteDefinition } from '../ports/handler-types.js';
import { matchRoute, methodsOf } from './match-route.js';

export interface UnmatchedRequest {
  method: string;
  /** The raw path, without the query string. */
  path: string;
  header(name: string): string | undefined;
  requestId: string;
}

/**
 * The answer to a request no route of the table takes, the same in both apps: a CORS preflight
 * (OPTIONS with an allowed Origin) is 204 with the path's methods; anything else is core's 404, or
 * 405 with `Allow` when the path exists with other methods. A path core matches but the app's router
 * did not (say, an encoded slash) is still a 404 rather than a second route lookup.
 */
export function unmatchedResult(
  table: readonly RouteDefinition[],
  request: UnmatchedRequest,
  config: GatewayConfig,
): JsonResult {
  if (request.method.toUpperCase() === 'OPTIONS') {
    const preflight = preflightHeaders(config, request.header, methodsOf(table, request.path));
    if (preflight !== undefined)
      return {
        kind: 'json',
        status: 204,
        headers: { ...preflight, 'x-request-id': request.requestId },
        body: '',
        meta: {},
      };
  }
  const match = matchRoute(table, request.method, request.path);
  const error = isGatewayError(match)
    ? match
    : GatewayError.routeNotFound(request.method, request.path);
  return withCorsHeaders(
    errorResult(error, envelopeForPath(request.path), request.requestId),
    config,
    request.header('origin'),
  );
}

/** A result an app answers itself (a body too large, shutting down...) with the CORS headers dispatch adds to the others. */
export function withCorsHeaders(
  result: JsonResult,
  config: GatewayConfig,
  origin: string | undefined,
): JsonResult {
  const cors = corsResponseHeaders(config, origin);
  return Object.keys(cors).length === 0
    ? result
    : { ...result, headers: { ...result.headers, ...cors } };
}
