import { GatewayError, createJsonLog } from '@infergate/core';
import { createEdgeGateway, unreachableLocalUpstreams } from './create-edge-gateway.js';
import { errorResult, requestIdFor } from '@infergate/core';
import type { EdgeBindings } from './edge-bindings.js';
import { resolveEdgeConfig } from './resolve-edge-config.js';
import { toResponse } from './to-response.js';
import { createWebIdSource } from '@infergate/upstream';

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Why this deployment cannot serve: told to the operator in the Worker's log, never to clients. */
function configurationProblem(
  bindings: EdgeBindings,
): { handler: FetchHandler } | { problem: string } {
  let config;
  try {
    config = resolveEdgeConfig(bindings);
  } catch (error) {
    return { problem: `invalid configuration: ${(error as Error).message}` };
  }
  // There is no console to print a generated key to: a Worker without keys would lock everyone out.
  if (config.keys.length === 0)
    return {
      problem:
        'no API key configured: set the INFERGATE_API_KEYS secret (wrangler secret put INFERGATE_API_KEYS) or keys in INFERGATE_CONFIG_JSON',
    };
  const unreachable = unreachableLocalUpstreams(config, {});
  if (unreachable.length > 0)
    return {
      problem: `no upstream reachable for ${unreachable.join(', ')}: configure upstreams in INFERGATE_CONFIG_JSON, or set INFERGATE_LOCAL_BACKEND_URL to a local backend server`,
    };
  // Workers keep console output in their logs: the node-server's request line, one per request.
  const log = createJsonLog({
    level: typeof bindings.LOG_LEVEL === 'string' ? bindings.LOG_LEVEL : undefined,
    write: (text, level) => console[level === 'info' ? 'log' : level](text.trimEnd()),
  });
  const { app } = createEdgeGateway(config, { log });
  return { handler: (request) => app.fetch(request) };
}

/** Every request of a misconfigured deployment: a 503 in the native envelope, the reason in the log. */
function refuse(problem: string): FetchHandler {
  const ids = createWebIdSource();
  const error = new GatewayError({
    status: 503,
    type: 'server_error',
    code: 'gateway_not_configured',
    message: "The gateway is not configured; its operator can read why in the Worker's log.",
  });
  return () => {
    console.error(`infergate: ${problem}`);
    return toResponse(errorResult(error, 'native', requestIdFor(undefined, ids)));
  };
}

// Built once per isolate, on its first request: bindings are only known then.
let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: EdgeBindings, _context?: unknown): Response | Promise<Response> {
    if (!handler) {
      const built = configurationProblem(env);
      handler = 'handler' in built ? built.handler : refuse(built.problem);
    }
    return handler(request);
  },
};
