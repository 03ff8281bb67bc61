import { GatewayError, isGatewayError, matchRoute, routeTable } from '@infergate/core';

/**
 * Why Fastify found no route: core's matcher over the same table decides (404, or 405 with Allow).
 * Fastify and core could only disagree on a path core matches and Fastify's router does not (say, an
 * encoded slash); that is still a 404 here rather than a second route lookup.
 */
export function unmatchedRouteError(method: string, path: string): GatewayError {
  const match = matchRoute(routeTable, method, path);
  return isGatewayError(match) ? match : GatewayError.routeNotFound(method, path);
}
