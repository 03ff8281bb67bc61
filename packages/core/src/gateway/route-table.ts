import type { Endpoint } from '../catalogue/catalogue-types.js';
import { envelopeForPath } from '../errors/error-envelopes.js';
import {
  messageObjectSchema,
  messageStreamEventSchema,
  messageTokenCountSchema,
} from '../contracts/messages-schemas.js';
import { messagesCountTokensHandler } from '../handlers/messages-count-tokens-handler.js';
import { messagesHandler } from '../handlers/messages-handler.js';
import {
  messagesCountTokensRequestSchema,
  messagesRequestSchema,
} from '../schemas/messages-request-schema.js';
import {
  chatCompletionSchema,
  compatEmbedResponseSchema,
  embeddingListSchema,
  healthSchema,
  imageResultSchema,
  modelListSchema,
  modelObjectSchema,
  openApiDocumentSchema,
  priceListSchema,
  rerankResponseSchema,
  responseObjectSchema,
  tokenizeResultSchema,
  upstreamHealthListSchema,
} from '../contracts/response-schemas.js';
import {
  chatCompletionChunkSchema,
  responseStreamEventSchema,
} from '../contracts/stream-event-schemas.js';
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
import { upstreamHealthHandler } from '../handlers/upstream-health-handler.js';
import {
  masterEndpointHandler,
  notOfferedEndpointHandler,
  unsupportedEndpointHandler,
} from '../handlers/unsupported-endpoint-handlers.js';
import { metricsHandler } from '../metrics/metrics-handler.js';
import {
  statusJsonHandler,
  statusPageHandler,
  statusScriptHandler,
} from '../handlers/status-handlers.js';
import {
  docsPageHandler,
  docsScriptHandler,
  openApiDocumentHandler,
  rootRedirectHandler,
} from '../openapi/openapi-handlers.js';
import { chatCompletionsRequestSchema } from '../schemas/chat-completions-request-schema.js';
import { compatEmbedRequestSchema } from '../schemas/compat-embed-request-schema.js';
import { compatRerankRequestSchema } from '../schemas/compat-rerank-request-schema.js';
import { embeddingsRequestSchema } from '../schemas/embeddings-request-schema.js';
import { imageEditRequestSchema } from '../schemas/image-edit-request-schema.js';
import { imageGenerationRequestSchema } from '../schemas/image-generation-request-schema.js';
import { responsesRequestSchema } from '../schemas/responses-request-schema.js';
import { tokenizeRequestSchema } from '../schemas/tokenize-request-schema.js';
import type {
  BodyLimitClass,
  HttpMethod,
  RouteContract,
  RouteDefinition,
  RouteHandler,
} from '../ports/handler-types.js';
import { catalogueRoutes, endpointRoutes } from '../catalogue/route-paths.js';

type JsonContract = Omit<Extract<RouteContract, { answers: 'json' }>, 'answers' | 'endpoint'>;

function route(
  method: HttpMethod,
  path: string,
  operationId: string,
  bodyLimit: BodyLimitClass,
  handler: RouteHandler,
  contract: RouteContract,
): RouteDefinition {
  // docs/design.md: the compat endpoints answer errors in the embed/rerank API's envelope, the
  // Messages API's routes in Anthropic's.
  return {
    method,
    path,
    operationId,
    auth: true,
    bodyLimit,
    envelope: envelopeForPath(path),
    handler,
    contract,
  };
}

/** A catalogue endpoint: its method and path come from route-paths.ts, its models from the catalogue. */
function endpoint(
  served: Endpoint,
  operationId: string,
  bodyLimit: BodyLimitClass,
  handler: RouteHandler,
  contract: JsonContract,
): RouteDefinition {
  const { method, path } = endpointRoutes[served];
  return route(method, path, operationId, bodyLimit, handler, {
    answers: 'json',
    endpoint: served,
    ...contract,
  });
}

function json(response: JsonContract['response']): RouteContract {
  return { answers: 'json', response };
}

const text: RouteContract = { answers: 'text' };
const errorsOnly: RouteContract = { answers: 'errors' };

// Endpoints the spec lists as unsupported: they answer 404 whatever they are sent, so they read
// no body and need no content type (bodyLimit none).
function unsupported(method: HttpMethod, path: string, operationId: string): RouteDefinition {
  return route(method, path, operationId, 'none', unsupportedEndpointHandler, errorsOnly);
}

function notOffered(method: HttpMethod, path: string, operationId: string): RouteDefinition {
  return route(method, path, operationId, 'none', notOfferedEndpointHandler, errorsOnly);
}

function masterOnly(method: HttpMethod, path: string, operationId: string): RouteDefinition {
  return route(method, path, operationId, 'none', masterEndpointHandler, errorsOnly);
}

/**
 * Every route of the gateway with its contract. Both apps register exactly this table; 404 and 405
 * come from matchRoute over it. Body limits: `image` for routes whose body can carry base64 images
 * (chat, responses, image edits, compat embed), `json` for the rest (an image generation body is a prompt).
 */
export const routeTable: readonly RouteDefinition[] = [
  endpoint('responses', 'createResponse', 'image', responsesHandler, {
    request: responsesRequestSchema,
    response: responseObjectSchema,
    events: responseStreamEventSchema,
  }),
  // The Messages API, bridged to chat: the models that serve chat answer it, and count_tokens
  // counts with the tokenizer of the models that serve tokenize.
  route('POST', '/v1/messages', 'createMessage', 'image', messagesHandler, {
    answers: 'json',
    endpoint: 'chat',
    request: messagesRequestSchema,
    response: messageObjectSchema,
    events: messageStreamEventSchema,
  }),
  route(
    'POST',
    '/v1/messages/count_tokens',
    'countMessageTokens',
    'json',
    messagesCountTokensHandler,
    {
      answers: 'json',
      endpoint: 'tokenize',
      request: messagesCountTokensRequestSchema,
      response: messageTokenCountSchema,
    },
  ),
  endpoint('chat', 'createChatCompletion', 'image', chatCompletionsHandler, {
    request: chatCompletionsRequestSchema,
    response: chatCompletionSchema,
    events: chatCompletionChunkSchema,
  }),
  endpoint('embeddings', 'createEmbedding', 'json', embeddingsHandler, {
    request: embeddingsRequestSchema,
    response: embeddingListSchema,
  }),
  endpoint('compat-embed', 'compatEmbed', 'image', compatEmbedHandler, {
    request: compatEmbedRequestSchema,
    response: compatEmbedResponseSchema,
  }),
  endpoint('compat-rerank', 'compatRerank', 'json', compatRerankHandler, {
    request: compatRerankRequestSchema,
    response: rerankResponseSchema,
  }),
  endpoint('image-generations', 'createImage', 'json', imageGenerationsHandler, {
    request: imageGenerationRequestSchema,
    response: imageResultSchema,
  }),
  {
    // The official clients send edits as a multipart form; the API's own form is JSON.
    ...endpoint('image-edits', 'createImageEdit', 'image', imageEditsHandler, {
      request: imageEditRequestSchema,
      response: imageResultSchema,
    }),
    multipart: true,
  },
  endpoint('tokenize', 'tokenize', 'json', tokenizeHandler, {
    request: tokenizeRequestSchema,
    response: tokenizeResultSchema,
  }),
  route(
    'GET',
    catalogueRoutes.listModels.path,
    'listModels',
    'none',
    listModelsHandler,
    json(modelListSchema),
  ),
  route(
    'GET',
    catalogueRoutes.retrieveModel.path,
    'retrieveModel',
    'none',
    retrieveModelHandler,
    json(modelObjectSchema),
  ),
  route(
    'GET',
    catalogueRoutes.getPricing.path,
    'getPricing',
    'none',
    pricingHandler,
    json(priceListSchema),
  ),
  {
    ...route('GET', '/healthz', 'healthz', 'none', healthzHandler, json(healthSchema)),
    auth: false,
  },
  {
    ...route('GET', '/readyz', 'readyz', 'none', readyzHandler, {
      answers: 'json',
      response: healthSchema,
      responseStatuses: [200, 503],
    }),
    auth: false,
  },

  // The operator's and API user's surface. The document and the reference page hold nothing
  // secret and the page must load the document, so they need no key (`docs.enabled: false` turns them
  // off, and with them the root's redirect to the page); /metrics checks keys itself, since a separate metrics key opens it too.
  { ...route('GET', '/', 'redirectToDocs', 'none', rootRedirectHandler, text), auth: false },
  // The document describes this table: the handler reads it when first asked, once the table exists.
  {
    ...route(
      'GET',
      '/openapi.json',
      'getOpenApiDocument',
      'none',
      openApiDocumentHandler,
      json(openApiDocumentSchema),
    ),
    auth: false,
  },
  { ...route('GET', '/docs', 'getDocs', 'none', docsPageHandler, text), auth: false },
  {
    ...route('GET', '/docs/assets/reference.js', 'getDocsScript', 'none', docsScriptHandler, text),
    auth: false,
  },
  {
    ...route('GET', '/metrics', 'getMetrics', 'none', metricsHandler, text),
    auth: false,
    operator: true,
  },
  // Model servers' health, which /readyz leaves out: for operator keys, checked by the handler like /metrics.
  {
    ...route(
      'GET',
      '/upstreamz',
      'getUpstreamHealth',
      'none',
      upstreamHealthHandler,
      json(upstreamHealthListSchema),
    ),
    auth: false,
    operator: true,
  },

  // The operator page: the page and its script hold no data and need no key; its data needs an
  // operator key on this port (on `metrics.port` the app serves all three without one).
  { ...route('GET', '/status', 'getStatusPage', 'none', statusPageHandler, text), auth: false },
  {
    ...route('GET', '/status/script.js', 'getStatusScript', 'none', statusScriptHandler, text),
    auth: false,
  },
  {
    ...route('GET', '/status.json', 'getStatus', 'none', statusJsonHandler, text),
    auth: false,
    operator: true,
  },

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
