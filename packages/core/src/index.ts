/*
 * Core's public API, decided name by name (everything else is internal), in the groups README.md lists:
 * what the apps, the other packages and their benches import, plus the types a package implementing a
 * port or calling createGateway has to write. A type nobody names (an options object, a field's type)
 * stays unexported: TypeScript infers it where it is used.
 */

// The gateway: one object per configuration and ports, and the route table it serves
export { createGateway } from './gateway/create-gateway.js';
export type { CreateGatewayOptions, Gateway, GatewayPorts } from './gateway/gateway-types.js';
export { routeTable } from './gateway/route-table.js';

// The ports other packages implement, and the pieces of core they build them with
export type * from './ports/ports.js';
export { createKeyStore } from './auth/create-key-store.js';
export type { KeyStoreEntry, Sha256 } from './auth/create-key-store.js';
export { LightAbortController } from './http/light-abort-controller.js';
export { RetryBudget } from './admission/retry-budget.js';
// The portable base64 encoder the gateway uses where no faster one is injected (GatewayPorts.encodeBase64)
export { encodeBase64 } from './transforms/encode-float32-base64.js';

// What an app hands the gateway per request and what it sends back, with the helpers both apps share
export type {
  DocsAssets,
  HandlerInput,
  HandlerResult,
  JsonResult,
  ResultMeta,
  RouteDefinition,
  StreamBody,
  StreamResult,
} from './ports/handler-types.js';
export { bodyLimitBytes, matchRoute } from './http/match-route.js';
export { resolveDotSegments } from './http/resolve-dot-segments.js';
export { utf8ByteLength } from './http/utf8-byte-length.js';
export { requestIdFor } from './http/request-id.js';
export { envelopeForPath, errorResult } from './http/dispatch.js';
export { earlyAnswerLinger } from './http/early-answer-linger.js';
export { bodyText } from './http/body-text.js';
export { isMultipartForm } from './http/check-before-body.js';
export type { FormField, FormFile, FormPart } from './ports/form-part.js';
export { ImageDataUrlWriter } from './forms/image-data-url-writer.js';
export { SplitDataUrl, isSplitDataUrl } from './images/split-data-url.js';
export { bodyInput } from './forms/body-input.js';
export { joinedBody, wholeBytes } from './http/joined-body.js';

// Configuration
export { resolveGatewayConfig } from './config/resolve-gateway-config.js';
export { planKeyReload, type KeyReloadPlan } from './config/plan-key-reload.js';
export type { ResolvedGatewayConfig } from './config/resolve-gateway-config.js';
export type {
  GatewayConfig,
  KeyBudget,
  KeyLimits,
  RedisConfig,
  RetryConfig,
  TimeoutsConfig,
  UpstreamConfig,
} from './config/gateway-config.js';
export { ConfigError } from './config/config-file-schema.js';

// Catalogue and routes
export { defaultCatalogue } from './catalogue/default-catalogue.js';
export type {
  DefaultCatalogueModelId,
  DefaultVirtualModelId,
} from './catalogue/default-catalogue.js';
export type { ModelEntry, ModelKind, ReasoningEffort } from './catalogue/catalogue-types.js';
export { catalogueRoutes, endpointRoutes } from './catalogue/route-paths.js';

// Errors
export { GatewayError, isGatewayError } from './errors/gateway-error.js';
export { UpstreamError, isUpstreamError } from './errors/upstream-error.js';
export type { UpstreamFailureKind, UpstreamPhase } from './errors/upstream-error.js';
export { errorEnvelopeSchemas } from './contracts/response-schemas.js';

// The one log line per request both apps write
export { requestLogLine } from './logs/request-log-line.js';
export type { RequestLogLine } from './logs/request-log-line.js';
export { createJsonLog } from './logs/create-json-log.js';

// Overload protection: the in-flight body budget both Node servers apply
export { BodyBudget } from './admission/body-budget.js';
export type { BodyReservation } from './admission/body-budget.js';

// Key limits: the store port, the in-memory store, the policy helpers a shared store counts with
export type * from './limits/limit-store.js';
export { createMemoryLimitStore } from './limits/create-memory-limit-store.js';
export { LimitAdmission } from './limits/limit-admission.js';
export { divideKeyLimits } from './limits/key-limits.js';
export {
  fillLimitSnapshot,
  limitWindowMs,
  retryAfterMs,
  windowResetMs,
} from './limits/rate-limit-policy.js';
export type { LimitWindow } from './limits/rate-limit-policy.js';
// What dispatch pays per limited request, exported for the limiter bench

// Key budgets: the store port, the in-memory store, the policy and periods a shared store counts with
export type {
  BudgetDecision,
  BudgetLease,
  BudgetRequest,
  BudgetStore,
} from './budgets/budget-store.js';
export { isBudgetStore } from './budgets/budget-store.js';
export { createMemoryBudgetStore } from './budgets/create-memory-budget-store.js';
export { budgetPeriodAt } from './budgets/budget-period.js';
export type { BudgetPeriod } from './budgets/budget-period.js';
export { budgetRefuses } from './budgets/budget-policy.js';

// The operator's surface: Prometheus metrics and the OpenAPI document of a catalogue
export { createGatewayMetrics } from './metrics/create-gateway-metrics.js';
export { buildOpenApiDocument } from './openapi/build-openapi-document.js';

// One SSE parser for every package that reads events (upstream answers, the test kit, the SDK)
export { createSseParser } from './sse/create-sse-parser.js';
export type { SseEvent } from './sse/sse-event.js';
export type { TakeableIterator } from './sse/takeable-iterator.js';

// Request schemas and types (the SDK's request shapes)
export { chatCompletionsRequestSchema } from './schemas/chat-completions-request-schema.js';
export type { ChatCompletionsRequest } from './schemas/chat-completions-request-schema.js';
export { responsesRequestSchema } from './schemas/responses-request-schema.js';
export type { ResponsesRequest } from './schemas/responses-request-schema.js';
export { embeddingsRequestSchema } from './schemas/embeddings-request-schema.js';
export type { EmbeddingsRequest } from './schemas/embeddings-request-schema.js';
export { compatEmbedRequestSchema } from './schemas/compat-embed-request-schema.js';
export type { CompatEmbedRequest } from './schemas/compat-embed-request-schema.js';
export { compatRerankRequestSchema } from './schemas/compat-rerank-request-schema.js';
export type { CompatRerankRequest } from './schemas/compat-rerank-request-schema.js';
export { tokenizeRequestSchema } from './schemas/tokenize-request-schema.js';
export type { TokenizeRequest } from './schemas/tokenize-request-schema.js';
export { imageGenerationRequestSchema } from './schemas/image-generation-request-schema.js';
export type { ImageGenerationRequest } from './schemas/image-generation-request-schema.js';
export { imageEditRequestSchema } from './schemas/image-edit-request-schema.js';
export type { ImageEditRequest } from './schemas/image-edit-request-schema.js';
// The same bodies as zod-free interfaces (held to the schemas above), for clients and the SDK
export type {
  ChatCompletionsParams,
  ChatImagePart,
  ChatMessageParam,
  ChatResponseFormat,
  ChatStreamOptions,
  ChatTextPart,
  ChatTool,
  CompatEmbedInputParam,
  CompatEmbedParams,
  CompatImageBlock,
  CompatRerankParams,
  CompatTextBlock,
  EmbeddingsParams,
  ExtraSamplingParams,
  ImageEditParams,
  ImageGenerationParams,
  ImageOutputFormatParam,
  ImageQualityParam,
  ImageSizeParam,
  ResponsesFunctionToolParam,
  ResponsesInputImage,
  ResponsesInputItemParam,
  ResponsesInputMessage,
  ResponsesInputText,
  ResponsesParams,
  SamplingParams,
  TokenizeParams,
} from './contracts/request-types.js';

// Response types of every endpoint, shaped as the spec's Resources part
export type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionToolCall,
} from './transforms/chat-completion-response.js';
export type {
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesMessageItem,
  ResponsesReasoningItem,
  ResponsesFunctionCallItem,
  ResponsesUsage,
  ResponsesStatus,
  ResponsesToolChoiceEcho,
  ResponsesTextFormatEcho,
} from './transforms/responses-object.js';
export type { ImageFormResponse } from './transforms/responses-from-chat-completion.js';
export type { EmbeddingResponse } from './transforms/embedding-response.js';
export type { CompatEmbedResponse } from './transforms/compat-embed-response.js';
export type { RerankResponse } from './transforms/rerank-response.js';
export type { TokenizeResponse } from './transforms/tokenize-response.js';
export type { ImageResult } from './protocols/images/image-result-from-upstream.js';
export type { ModelObject } from './handlers/models-handler.js';
export type { PriceObject } from './handlers/pricing-handler.js';
// The streamed events of both text endpoints (held equal to their contract schemas)
export type {
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ResponsesContentPartEvent,
  ResponsesFunctionCallArgumentsDeltaEvent,
  ResponsesFunctionCallArgumentsDoneEvent,
  ResponsesLifecycleEvent,
  ResponsesOutputItemEvent,
  ResponsesOutputTextDeltaEvent,
  ResponsesOutputTextDoneEvent,
  ResponsesReasoningTextDeltaEvent,
  ResponsesReasoningTextDoneEvent,
  ResponsesStreamEvent,
} from './contracts/stream-event-types.js';
