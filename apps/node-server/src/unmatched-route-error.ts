import { matchRoute, routeTable, GatewayError } from '@infergate/core';

/** 404 for a path no route has, 405 with Allow for a known path with the wrong method (one core helper decides). */
export function unmatchedRouteError(method: string, path: string): GatewayError {
  const match = matchRoute(routeTable, method, path);
  if (match.kind === 'method-not-allowed') return GatewayError.methodNotAllowed(method, path, match.allow);
  return GatewayError.routeNotFound(method, path);
}
