import type { JsonResult, RouteHandler } from '../ports/handler-types.js';

function healthResult(status: number, body: unknown): JsonResult {
  // Probes must see the live state, never a cached answer.
  return {
    kind: 'json',
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
    meta: {},
  };
}

/** GET /healthz (liveness): 200 `{status: 'ok'}` while the process can answer at all. */
export const healthzHandler: RouteHandler = async () => healthResult(200, { status: 'ok' });

/**
 * GET /readyz (readiness): whether this replica should get new requests. 200 `{status: 'ready'}`,
 * or 503 `{status: 'not_ready', reason}` while it drains for a shutdown (it still serves every other
 * request until its drain delay ends) or while its admission cap is full. Model servers' health is
 * not part of it: a dead model server would take every replica out together, and with them every
 * model the others serve; it is reported by GET /upstreamz and the metrics instead.
 */
export const readyzHandler: RouteHandler = async (_input, context) => {
  const readiness = context.gateway.readiness();
  return readiness.ready
    ? healthResult(200, { status: 'ready' })
    : healthResult(503, { status: 'not_ready', reason: readiness.reason });
};
