// Errors and envelopes
export * from './errors/gateway-error.js';
export * from './errors/upstream-error.js';
export * from './errors/error-envelopes.js';
export * from './errors/to-gateway-error.js';
export * from './errors/map-upstream-status.js';
export * from './errors/failure-facts.js';

// Catalogue
export type * from './catalogue/catalogue-types.js';
export * from './catalogue/default-catalogue.js';
export * from './catalogue/resolve-model.js';
export * from './catalogue/extend-catalogue.js';

// Configuration and keys
export type * from './config/gateway-config.js';
export * from './config/config-file-schema.js';
export * from './config/substitute-env.js';
export * from './config/resolve-gateway-config.js';
export { configFileJsonSchema, configReferenceCommand, configReferencePath, renderConfigReference } from './config/render-config-reference.js';
export * from './auth/create-key-store.js';

// Request schemas (the SDK imports their types)
export * from './schemas/parse-json.js';
export * from './schemas/parse-request-body.js';
export * from './schemas/sampling-parameters-schema.js';
export * from './schemas/chat-completions-request-schema.js';
export * from './schemas/responses-request-schema.js';
export * from './schemas/embeddings-request-schema.js';
export * from './schemas/compat-embed-request-schema.js';
export * from './schemas/compat-rerank-request-schema.js';
export * from './schemas/tokenize-request-schema.js';
export * from './schemas/image-generation-request-schema.js';
export * from './schemas/image-edit-request-schema.js';

// Response types of every endpoint, shaped as the spec's Resources part
export type { ChatCompletion, ChatCompletionChoice, ChatCompletionToolCall } from './transforms/chat-completion-response.js';
export type { ResponsesObject, ResponsesOutputItem, ResponsesOutputText, ResponsesMessageItem, ResponsesReasoningItem, ResponsesFunctionCallItem, ResponsesUsage, ResponsesStatus, ResponsesToolChoiceEcho, ResponsesTextFormatEcho } from './transforms/responses-object.js';
export type { ImageFormResponse } from './transforms/responses-from-chat-completion.js';
export type { EmbeddingResponse } from './transforms/embedding-response.js';
export type { CompatEmbedResponse } from './transforms/compat-embed-response.js';
export type { RerankResponse } from './transforms/rerank-response.js';
export type { TokenizeResponse } from './transforms/tokenize-response.js';
export type { ImageResult } from './protocols/images/image-result-from-upstream.js';
export type { ModelObject } from './handlers/models-handler.js';
export type { PriceObject } from './handlers/pricing-handler.js';

// Images and SSE
export * from './images/read-image-header.js';
export * from './images/parse-data-url.js';
export * from './rules/check-image-data-url.js';
export type * from './sse/sse-event.js';
export * from './sse/create-sse-parser.js';
export * from './sse/encode-sse-event.js';
export * from './sse/sse-response-stream.js';
export * from './transforms/encode-float32-base64.js';

// Ports, the route table and the dispatcher both apps mount
export type * from './handlers/ports.js';
export type * from './http/handler-types.js';
export * from './http/route-table.js';
export { endpointRoutes, catalogueRoutes } from './http/route-paths.js';
export { errorEnvelopeSchemas } from './contracts/response-schemas.js';
export * from './http/dispatch.js';
export * from './http/match-route.js';
export * from './http/cors.js';
export * from './http/unmatched-result.js';
export * from './http/request-id.js';
export * from './http/bearer-token.js';

// Overload protection both apps apply: the admission cap (dispatch uses it) and the in-flight body budget
export * from './admission/admission-gate.js';
export * from './admission/admission-gate-for.js';
export * from './admission/body-budget.js';

// Key limits (issue 11): the pure policy, the store port, the in-memory store; dispatch applies them
export * from './limits/key-limits.js';
export type * from './limits/limit-store.js';
export * from './limits/rate-limit-policy.js';
export * from './limits/create-memory-limit-store.js';
export * from './limits/estimate-request-tokens.js';
export * from './limits/format-reset-duration.js';
export * from './limits/rate-limit-headers.js';
// What dispatch pays per limited request, exported for the limiter bench (the ticket's settle included)
export { limitRequest, type LimitTicket } from './limits/limit-request.js';

// The operator's and API user's surface: OpenAPI document, reference page, Prometheus metrics
export * from './openapi/build-openapi-document.js';
export type * from './openapi/json-schema.js';
export * from './openapi/docs-page-html.js';
export * from './metrics/create-gateway-metrics.js';
export * from './metrics/metrics-handler.js';
export * from './metrics/rejection-reason.js';
