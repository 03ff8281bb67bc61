import type { JsonResult, RouteHandler } from '../http/handler-types.js';

function healthResult(status: number, body: unknown): JsonResult {
  // Probes must see the live state, never a cached answer.
  return { kind: 'json', status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(body), meta: {} };
}

/** GET /healthz (liveness): 200 `{status: 'ok'}` while the process can answer at all. */
export const healthzHandler: RouteHandler = async () => healthResult(200, { status: 'ok' });

/**
 * GET /readyz (readiness): 200 `{status: 'ready'}` when every configured model has a reachable
 * endpoint, else 503 `{status: 'not_ready'}`; a failing readiness check counts as not ready, and so
 * does a draining app (it still serves every other request until its drain delay ends).
 */
export const readyzHandler: RouteHandler = async (_input, context) => {
  if (context.draining?.() === true) return healthResult(503, { status: 'not_ready' });
  let ready: boolean;
  try {
    ready = await context.upstream.ready();
  } catch {
    ready = false;
  }
  return ready ? healthResult(200, { status: 'ready' }) : healthResult(503, { status: 'not_ready' });
};
