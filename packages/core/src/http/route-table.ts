import { chatCompletionsHandler } from '../handlers/chat-completions-handler.js';
import { compatEmbedHandler } from '../handlers/compat-embed-handler.js';
import { compatRerankHandler } from '../handlers/compat-rerank-handler.js';
import { embeddingsHandler } from '../handlers/embeddings-handler.js';
import { healthzHandler, readyzHandler } from '../handlers/health-handlers.js';
import { imageEditsHandler } from '../handlers/image-edits-handler.js';
import { imageGenerationsHandler } from '../handlers/image-generations-handler.js';
import { listModelsHandler, retrieveModelHandler } from '../handlers/models-handler.js';
import { pricingHandler } from '../handlers/pricing-handler.js';
import { responsesHandler } from '../handlers/responses-handler.js';
import { tokenizeHandler } from '../handlers/tokenize-handler.js';
import { masterEndpointHandler, notOfferedEndpointHandler, unsupportedEndpointHandler } from '../handlers/unsupported-endpoint-handlers.js';
import { metricsHandler } from '../metrics/metrics-handler.js';
import { docsPageHandler, docsScriptHandler, openApiDocumentHandler, rootRedirectHandler } from '../openapi/openapi-handlers.js';
import type { BodyLimitClass, HttpMethod, RouteDefinition, RouteHandler } from './handler-types.js';

function route(method: HttpMethod, path: string, operationId: string, bodyLimit: BodyLimitClass, handler: RouteHandler): RouteDefinition {
  // DESIGN.md: the compat endpoints answer errors in the embed/rerank API's envelope.
  return { method, path, operationId, auth: true, bodyLimit, envelope: path.startsWith('/compat/') ? 'compat' : 'native', handler };
}

// Endpoints the spec lists as unsupported: they answer 404 whatever they are sent, so they read
// no body and need no content type (bodyLimit none).
function unsupported(method: HttpMethod, path: string, operationId: string): RouteDefinition {
  return route(method, path, operationId, 'none', unsupportedEndpointHandler);
}

function notOffered(method: HttpMethod, path: string, operationId: string): RouteDefinition {
  return route(method, path, operationId, 'none', notOfferedEndpointHandler);
}

function masterOnly(method: HttpMethod, path: string, operationId: string): RouteDefinition {
  return route(method, path, operationId, 'none', masterEndpointHandler);
}

/**
 * Every route of the gateway. Both apps register exactly this table; 404 and 405 come from
 * matchRoute over it. Body limits: `image` for routes whose body can carry base64 images (chat,
 * responses, image edits, compat embed), `json` for the rest (an image generation body is a prompt).
 */
export const routeTable: readonly RouteDefinition[] = [
  route('POST', '/v1/responses', 'createResponse', 'image', responsesHandler),
  route('POST', '/v1/chat/completions', 'createChatCompletion', 'image', chatCompletionsHandler),
  route('POST', '/v1/embeddings', 'createEmbedding', 'json', embeddingsHandler),
  route('POST', '/compat/v2/embed', 'compatEmbed', 'image', compatEmbedHandler),
  route('POST', '/compat/v2/rerank', 'compatRerank', 'json', compatRerankHandler),
  route('POST', '/v1/images/generations', 'createImage', 'json', imageGenerationsHandler),
  route('POST', '/v1/images/edits', 'createImageEdit', 'image', imageEditsHandler),
  route('POST', '/tokenize', 'tokenize', 'json', tokenizeHandler),
  route('GET', '/v1/models', 'listModels', 'none', listModelsHandler),
  route('GET', '/v1/models/{id}', 'retrieveModel', 'none', retrieveModelHandler),
  route('GET', '/pricing', 'getPricing', 'none', pricingHandler),
  { ...route('GET', '/healthz', 'healthz', 'none', healthzHandler), auth: false },
  { ...route('GET', '/readyz', 'readyz', 'none', readyzHandler), auth: false },

  // The operator's and API user's surface (issue 10). The document and the reference page hold nothing
  // secret and the page must load the document, so they need no key (`docs.enabled: false` turns them
  // off, and with them the root's redirect to the page); /metrics checks keys itself, since a separate metrics key opens it too.
  { ...route('GET', '/', 'redirectToDocs', 'none', rootRedirectHandler), auth: false },
  { ...route('GET', '/openapi.json', 'getOpenApiDocument', 'none', openApiDocumentHandler), auth: false },
  { ...route('GET', '/docs', 'getDocs', 'none', docsPageHandler), auth: false },
  { ...route('GET', '/docs/assets/reference.js', 'getDocsScript', 'none', docsScriptHandler), auth: false },
  { ...route('GET', '/metrics', 'getMetrics', 'none', metricsHandler), auth: false },

  unsupported('GET', '/v1/responses/{id}', 'retrieveResponse'),
  unsupported('DELETE', '/v1/responses/{id}', 'deleteResponse'),
  unsupported('GET', '/v1/responses/{id}/input_items', 'listResponseInputItems'),
  unsupported('POST', '/v1/responses/input_tokens', 'countResponseInputTokens'),
  unsupported('POST', '/v1/responses/{id}/cancel', 'cancelResponse'),
  unsupported('POST', '/v1/responses/compact', 'compactResponse'),
  unsupported('GET', '/v1/chat/completions', 'listChatCompletions'),
  unsupported('GET', '/v1/chat/completions/{id}', 'retrieveChatCompletion'),
  unsupported('POST', '/v1/chat/completions/{id}', 'updateChatCompletion'),
  unsupported('DELETE', '/v1/chat/completions/{id}', 'deleteChatCompletion'),
  notOffered('POST', '/v1/images/variations', 'createImageVariation'),

  masterOnly('POST', '/document', 'createDocument'),
  masterOnly('GET', '/usage', 'getUsage'),
  masterOnly('GET', '/usage/history', 'getUsageHistory'),
];
