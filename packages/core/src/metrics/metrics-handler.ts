import { GatewayError } from '../errors/gateway-error.js';
import { authorizeOperator } from '../auth/authorize-operator.js';
import type {
  GatewayDeps,
  GatewayShared,
  JsonResult,
  RouteHandler,
} from '../ports/handler-types.js';

/** Prometheus text exposition format 0.0.4. */
export const metricsContentType = 'text/plain; version=0.0.4; charset=utf-8';

function exposition(deps: GatewayDeps): JsonResult {
  const render = deps.metrics.exposition;
  if (deps.config.metrics?.enabled === false || render === undefined)
    throw GatewayError.routeNotFound('GET', '/metrics');
  return {
    kind: 'json',
    status: 200,
    headers: { 'content-type': metricsContentType, 'cache-control': 'no-store' },
    body: render.call(deps.metrics),
    meta: {},
  };
}

/**
 * The metrics answer on the main port for an `Authorization` header: opened by an operator key
 * (`keys[].operator`) or the separate metrics key, 403 for any other API key (the exposition names
 * every tenant's key), 401 without a known key, 404 when metrics are off or the sink keeps none.
 */
export async function metricsResult(
  authorization: string | undefined,
  deps: GatewayDeps,
  gateway: GatewayShared,
): Promise<JsonResult> {
  if (deps.config.metrics?.enabled === false || deps.metrics.exposition === undefined)
    throw GatewayError.routeNotFound('GET', '/metrics');
  await authorizeOperator(authorization, '/metrics', deps.keys, gateway.metricsKeys);
  return exposition(deps);
}

/**
 * The metrics answer on `metrics.port`: no key, because that port exists for scrapers on a private
 * network (Prometheus scrape configs rarely carry bearer tokens); operators who expose it elsewhere keep
 * /metrics on the main port instead. 404 when metrics are off.
 */
export function metricsPortResult(deps: GatewayDeps): JsonResult {
  return exposition(deps);
}

/** GET /metrics on the main port; 404 there when the app serves metrics on a port of their own. */
export const metricsHandler: RouteHandler = async (input, context) => {
  if (context.config.metrics?.port !== undefined)
    throw GatewayError.routeNotFound(input.method, input.path);
  return metricsResult(input.header('authorization'), context, context.gateway);
};
