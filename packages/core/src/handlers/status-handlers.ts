import { authorizeOperator } from '../auth/authorize-operator.js';
import type { JsonResult, RouteHandler } from '../ports/handler-types.js';
import {
  statusContentSecurityPolicy,
  statusPageHtml,
  statusPageScript,
} from '../status/status-page-html.js';

function textResult(
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): JsonResult {
  return {
    kind: 'json',
    status: 200,
    headers: { 'content-type': contentType, ...headers },
    body,
    meta: {},
  };
}

/** GET /status: the operator page. It holds no data, so it needs no key; status.json does. */
export const statusPageHandler: RouteHandler = async () => pageResult();

function pageResult(): JsonResult {
  return textResult('text/html; charset=utf-8', statusPageHtml(), {
    'content-security-policy': statusContentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
}

/** GET /status/script.js: the page's script. */
export const statusScriptHandler: RouteHandler = async () => scriptResult();

function scriptResult(): JsonResult {
  return textResult('text/javascript; charset=utf-8', statusPageScript, {
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
}

/** The page's data: what status.json answers, on the main port and on `metrics.port`. */
export function statusJsonResult(json: string): JsonResult {
  return textResult('application/json', json, { 'cache-control': 'no-store' });
}

/**
 * GET /status.json on the main port, for operator keys (like /upstreamz): upstreams, keys, traffic and
 * recent failures of this replica. On `metrics.port` the app answers it without a key.
 */
export const statusJsonHandler: RouteHandler = async (input, context) => {
  await authorizeOperator(input.header('authorization'), input.path, context.keys);
  return statusJsonResult(context.gateway.statusJson());
};

/**
 * The operator page on `metrics.port`, where no key is asked (a port for a private network, as for
 * /metrics): the page, its script or its data for `path`, undefined for any other path.
 */
export function statusPortResult(path: string, statusJson: () => string): JsonResult | undefined {
  if (path === '/status') return pageResult();
  if (path === '/status/script.js') return scriptResult();
  if (path === '/status.json') return statusJsonResult(statusJson());
  return undefined;
}
