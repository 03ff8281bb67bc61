import { authorizeOperator } from '../auth/authorize-operator.js';
import type { RouteHandler } from '../ports/handler-types.js';

/**
 * GET /upstreamz (operator keys only): each configured upstream's state as the gateway's traffic shows
 * it (up, unreachable, ejected), the models it serves, its requests in flight and its failures since
 * its last success. What /readyz leaves out on purpose, for operators and their alerts.
 */
export const upstreamHealthHandler: RouteHandler = async (input, context) => {
  await authorizeOperator(input.header('authorization'), input.path, context.keys);
  const data = (context.upstream.health?.() ?? []).map((entry) => ({
    upstream: entry.upstream,
    state: entry.state,
    models: entry.models,
    in_flight: entry.inFlight,
    consecutive_failures: entry.consecutiveFailures,
    ejected_for_ms: entry.ejectedForMs,
  }));
  // Operators poll it to follow an incident: never a cached answer.
  return {
    kind: 'json',
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify({ object: 'list', data }),
    meta: {},
  };
};
