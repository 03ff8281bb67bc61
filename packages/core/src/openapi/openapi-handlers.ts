import type { Catalogue } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { HandlerContext, HandlerInput, JsonResult, RouteDefinition, RouteHandler } from '../http/handler-types.js';
import { buildOpenApiDocument } from './build-openapi-document.js';
import { docsContentSecurityPolicy, docsPageHtml } from './docs-page-html.js';

// One document per catalogue (a gateway has one): built on first request, not at start.
const documents = new WeakMap<Catalogue, string>();

function ensureDocsEnabled(input: HandlerInput, context: HandlerContext): void {
  // Switched off, the routes answer as if they did not exist.
  if (context.config.docs?.enabled === false) throw GatewayError.routeNotFound(input.method, input.path);
}

function textResult(contentType: string, body: string, headers: Record<string, string> = {}): JsonResult {
  return { kind: 'json', status: 200, headers: { 'content-type': contentType, ...headers }, body, meta: {} };
}

/**
 * GET /openapi.json: the OpenAPI 3.1 document of `routes` (read on the first request, so the route
 * table can hand itself in without this module importing it) and this gateway's catalogue.
 */
export function openApiDocumentHandlerFor(routes: () => readonly RouteDefinition[]): RouteHandler {
  return async (input, context) => {
    ensureDocsEnabled(input, context);
    const { catalogue } = context.config;
    let body = documents.get(catalogue);
    if (body === undefined) {
      body = JSON.stringify(buildOpenApiDocument({ catalogue, routes: routes() }));
      documents.set(catalogue, body);
    }
    return textResult('application/json', body, { 'cache-control': 'no-cache' });
  };
}

/** GET /docs: the interactive reference page. */
export const docsPageHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  return textResult('text/html; charset=utf-8', docsPageHtml(), { 'content-security-policy': docsContentSecurityPolicy, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' });
};

/**
 * GET /: to the reference page, the gateway's front page (a newcomer opening the start address in a
 * browser got a bare 404). 302, since what the root shows may change; 404 with docs switched off.
 */
export const rootRedirectHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  return { kind: 'json', status: 302, headers: { location: '/docs', 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }, body: '', meta: {} };
};

/** GET /docs/assets/reference.js: the reference renderer the app loaded (404 when it has none). */
export const docsScriptHandler: RouteHandler = async (input, context) => {
  ensureDocsEnabled(input, context);
  const script = context.docsAssets?.referenceScript;
  if (script === undefined) throw GatewayError.routeNotFound(input.method, input.path);
  return textResult('text/javascript; charset=utf-8', script, { 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=3600' });
};
