import type { GatewayConfig } from '../config/gateway-config.js';
import { createKeyStore } from '../auth/create-key-store.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { KeyStore } from '../handlers/ports.js';
import { bearerToken } from '../http/bearer-token.js';
import type { GatewayDeps, JsonResult, RouteHandler } from '../http/handler-types.js';

/** Prometheus text exposition format 0.0.4. */
export const metricsContentType = 'text/plain; version=0.0.4; charset=utf-8';

// The metrics key is compared like an API key (hashes, constant time), by a store built once per config.
const metricsKeyStores = new WeakMap<GatewayConfig, KeyStore>();

function metricsKeyStore(config: GatewayConfig): KeyStore | undefined {
  const key = config.metrics?.key;
  if (key === undefined) return undefined;
  let store = metricsKeyStores.get(config);
  if (store === undefined) {
    store = createKeyStore([{ key, name: 'metrics' }]);
    metricsKeyStores.set(config, store);
  }
  return store;
}

/**
 * The metrics answer for an `Authorization` header: opened by the separate metrics key or by any API
 * key, 401 otherwise, 404 when metrics are off or the sink keeps none. Apps call it for a dedicated
 * metrics port; on the main port it runs as the GET /metrics route.
 */
export async function metricsResult(authorization: string | undefined, deps: GatewayDeps): Promise<JsonResult> {
  const exposition = deps.metrics.exposition;
  if (deps.config.metrics?.enabled === false || exposition === undefined) throw GatewayError.routeNotFound('GET', '/metrics');
  const token = bearerToken(authorization);
  if (token === undefined) throw GatewayError.unauthorized();
  const allowed = (await metricsKeyStore(deps.config)?.verify(token)) ?? (await deps.keys.verify(token));
  if (allowed === undefined) throw GatewayError.unauthorized();
  return { kind: 'json', status: 200, headers: { 'content-type': metricsContentType, 'cache-control': 'no-store' }, body: exposition.call(deps.metrics), meta: {} };
}

/** GET /metrics on the main port; 404 there when the app serves metrics on a port of their own. */
export const metricsHandler: RouteHandler = async (input, context) => {
  if (context.config.metrics?.port !== undefined) throw GatewayError.routeNotFound(input.method, input.path);
  return metricsResult(input.header('authorization'), context);
};
