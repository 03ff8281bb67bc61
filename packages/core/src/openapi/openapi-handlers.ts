import { GatewayError } from '../errors/gateway-error.js';
import type {
  HandlerContext,
  HandlerInput,
  JsonResult,
  RouteHandler,
} from '../ports/handler-types.js';
import { docsContentSecurityPolicy, docsPageHtml } from './docs-page-html.js';

function ensureDocsEnabled(input: HandlerInput, context: HandlerContext): void {
  // Switched off, the routes answer as if they did not exist.
  if (context.config.docs?.enabled === false)
    throw GatewayError.routeNotFound(input.method, input.path);
}

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

/** GET /openapi.json: the OpenAPI 3.1 document of this gateway (its catalogue, with configured models). */
export const openApiDocumentHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  // Built by the gateway on the first request, not at start, and kept.
  return textResult('application/json', context.gateway.openApiDocument(), {
    'cache-control': 'no-cache',
  });
};

/** GET /docs: the interactive reference page. */
export const docsPageHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  return textResult('text/html; charset=utf-8', docsPageHtml(), {
    'content-security-policy': docsContentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
};

/**
 * GET /: to the reference page, the gateway's front page (a newcomer opening the start address in a
 * browser got a bare 404). 302, since what the root shows may change; 404 with docs switched off.
 */
export const rootRedirectHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  return {
    kind: 'json',
    status: 302,
    headers: {
      location: '/docs',
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-cache',
    },
    body: '',
    meta: {},
  };
};

/** GET /docs/assets/reference.js: the reference renderer the app loaded (404 when it has none). */
export const docsScriptHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  const script = context.docsAssets?.referenceScript;
  if (script === undefined) throw GatewayError.routeNotFound(input.method, input.path);
  return textResult('text/javascript; charset=utf-8', script, {
    'x-content-type-options': 'nosniff',
    'cache-control': 'public, max-age=3600',
  });
};
