/*
 * Core's public API, decided name by name (everything else is internal): the gateway object and its
 * ports, configuration, errors, the route table and result types both apps mount, the pieces the
 * Node packages share (body budget, key store, limit policy helpers of a shared store, metrics), and
 * the wire types of every endpoint (request schemas and types, response types) the SDK uses.
 */

// The gateway: one object per configuration and ports
export { createGateway } from './gateway/create-gateway.js';
export type { CreateGatewayOptions, Gateway, GatewayPorts } from './gateway/gateway-types.js';

// Errors
export { GatewayError, isGatewayError } from './errors/gateway-error.js';
export type { GatewayErrorOptions, GatewayErrorType, UpstreamAnswerCause } from './errors/gateway-error.js';
export { UpstreamError, isUpstreamError } from './errors/upstream-error.js';
export type { UpstreamErrorOptions, UpstreamFailureKind, UpstreamPhase } from './errors/upstream-error.js';
export type { ErrorEnvelope } from './errors/error-envelopes.js';
export { failureLogFields } from './errors/failure-facts.js';
// The one log line per request both apps write
export { requestLogLine } from './logs/request-log-line.js';
export type { LogLevelName, RequestLogFacts, RequestLogLine } from './logs/request-log-line.js';
export { createJsonLog } from './logs/create-json-log.js';
export type { JsonLogOptions } from './logs/create-json-log.js';
export type { FailureFacts } from './errors/failure-facts.js';

// Catalogue
export type {
  Catalogue,
  EmbeddingDimensions,
  Endpoint,
  InputModality,
  ModelEntry,
  ModelKind,
  ReasoningEffort,
  ReasoningPolicy,
} from './catalogue/catalogue-types.js';
export { defaultCatalogue } from './catalogue/default-catalogue.js';
export type { DefaultCatalogueModelId, DefaultVirtualModelId } from './catalogue/default-catalogue.js';

// Configuration and keys
export type {
  CorsConfig,
  DocsConfig,
  GatewayConfig,
  LimitsConfig,
  MetricsConfig,
  PriceEntry,
  RedisConfig,
  RetryConfig,
  TimeoutsConfig,
  TracingConfig,
  UpstreamConfig,
} from './config/gateway-config.js';
export { ConfigError, isConfigError } from './config/config-file-schema.js';
export type { ConfigFile, KeyConfig, ModelConfig, UpstreamConfigFile } from './config/config-file-schema.js';
export { resolveGatewayConfig } from './config/resolve-gateway-config.js';
export type { KeyEntry, ResolvedGatewayConfig } from './config/resolve-gateway-config.js';
export { configReferencePath, renderConfigReference } from './config/render-config-reference.js';
export { createKeyStore } from './auth/create-key-store.js';
export type { KeyStoreEntry, KeyStoreOptions, Sha256 } from './auth/create-key-store.js';

// Request schemas and types (the SDK's request shapes)
export { chatCompletionsRequestSchema } from './schemas/chat-completions-request-schema.js';
export type { ChatCompletionsRequest, ChatMessage } from './schemas/chat-completions-request-schema.js';
export { responsesRequestSchema } from './schemas/responses-request-schema.js';
export type { ResponsesRequest } from './schemas/responses-request-schema.js';
export { embeddingsRequestSchema } from './schemas/embeddings-request-schema.js';
export type { EmbeddingsInput, EmbeddingsRequest } from './schemas/embeddings-request-schema.js';
export { compatEmbedRequestSchema } from './schemas/compat-embed-request-schema.js';
export type { CompatContentBlock, CompatEmbedInput, CompatEmbedRequest } from './schemas/compat-embed-request-schema.js';
export { compatRerankRequestSchema } from './schemas/compat-rerank-request-schema.js';
export type { CompatRerankRequest } from './schemas/compat-rerank-request-schema.js';
export { tokenizeRequestSchema } from './schemas/tokenize-request-schema.js';
export type { TokenizeRequest } from './schemas/tokenize-request-schema.js';
export { imageGenerationRequestSchema } from './schemas/image-generation-request-schema.js';
export type { ImageGenerationRequest } from './schemas/image-generation-request-schema.js';
export { imageEditRequestSchema } from './schemas/image-edit-request-schema.js';
export type { ImageEditRequest } from './schemas/image-edit-request-schema.js';
export type { SamplingParameters } from './schemas/sampling-parameters-schema.js';
// The same bodies as zod-free interfaces (held to the schemas above), for clients and the SDK
export type {
  ChatCompletionsParams,
  ChatImagePart,
  ChatMessageParam,
  ChatResponseFormat,
  ChatStreamOptions,
  ChatTextPart,
  ChatTool,
  ChatToolChoice,
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
export type { ChatCompletion, ChatCompletionChoice, ChatCompletionToolCall } from './transforms/chat-completion-response.js';
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
// The streamed events of both text endpoints (held equal to their contract schemas)
export type {
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionChunkToolCall,
  ChatCompletionChunkUsage,
  ChatCompletionStreamEvent,
  ChatStreamError,
  ResponsesContentPartEvent,
  ResponsesFunctionCallArgumentsDeltaEvent,
  ResponsesFunctionCallArgumentsDoneEvent,
  ResponsesLifecycleEvent,
  ResponsesOutputItemEvent,
  ResponsesOutputTextDeltaEvent,
  ResponsesOutputTextDoneEvent,
  ResponsesReasoningTextDeltaEvent,
  ResponsesReasoningTextDoneEvent,
  ResponsesStreamedTextPart,
  ResponsesStreamEvent,
} from './contracts/stream-event-types.js';
export type { EmbeddingResponse } from './transforms/embedding-response.js';
export type { CompatEmbedResponse } from './transforms/compat-embed-response.js';
export type { RerankResponse } from './transforms/rerank-response.js';
export type { TokenizeResponse } from './transforms/tokenize-response.js';
export type { ImageResult } from './protocols/images/image-result-from-upstream.js';
export type { ModelObject } from './handlers/models-handler.js';
export type { PriceObject } from './handlers/pricing-handler.js';
export type { SseEvent } from './sse/sse-event.js';
export type { TakeableIterator } from './sse/takeable-iterator.js';

// Ports, the route table and the results both apps send
export type * from './ports/ports.js';
export type * from './ports/handler-types.js';
export { routeTable } from './gateway/route-table.js';
export { bodyLimitBytes, matchRoute } from './http/match-route.js';
export { resolveDotSegments } from './http/resolve-dot-segments.js';
export { utf8ByteLength } from './http/utf8-byte-length.js';
export type { RouteMatch } from './http/match-route.js';
export type { UnmatchedRequest } from './http/unmatched-result.js';
export { envelopeForPath, errorResult } from './http/dispatch.js';
export { requestIdFor } from './http/request-id.js';
export { earlyAnswerLinger } from './http/early-answer-linger.js';
export { bodyText } from './http/body-text.js';
export { joinPieces, joinedBody, wholeBytes } from './http/joined-body.js';
export { LightAbortController } from './http/light-abort-controller.js';
export { endpointRoutes, catalogueRoutes } from './catalogue/route-paths.js';
export { errorEnvelopeSchemas } from './contracts/response-schemas.js';
// One SSE parser for every package that reads events (upstream answers, the test kit, the SDK)
export { createSseParser } from './sse/create-sse-parser.js';
export type { SseParser, SseParserOptions } from './sse/create-sse-parser.js';

// Overload protection: the admission cap (the gateway's) and the in-flight body budget both Node servers apply
export type { AdmissionGate } from './admission/admission-gate.js';
export { BodyBudget } from './admission/body-budget.js';
export type { BodyReservation } from './admission/body-budget.js';

// Key limits: the store port, the in-memory store, the policy helpers a shared store counts with
export { divideKeyLimits } from './limits/key-limits.js';
export type { KeyLimits } from './config/gateway-config.js';
export type * from './limits/limit-store.js';
export { fillLimitSnapshot, limitSnapshot, limitWindowMs, retryAfterMs, windowResetMs } from './limits/rate-limit-policy.js';
export type { LimitWindow } from './limits/rate-limit-policy.js';
export { createMemoryLimitStore } from './limits/create-memory-limit-store.js';
export { LimitAdmission } from './limits/limit-admission.js';
// What dispatch pays per limited request, exported for the limiter bench
export { limitRequest, type LimitTicket } from './limits/limit-request.js';

// The operator's and API user's surface: OpenAPI document, Prometheus metrics
export { buildOpenApiDocument } from './openapi/build-openapi-document.js';
export type { OpenApiDocument, OpenApiDocumentOptions } from './openapi/build-openapi-document.js';
export type { JsonSchema } from './schemas/json-schema.js';
export { createGatewayMetrics } from './metrics/create-gateway-metrics.js';
export { metricsReferenceEnd, metricsReferencePath, metricsReferenceStart, renderMetricsReference } from './metrics/render-metrics-reference.js';
export type { GatewayMetrics, GatewayMetricsOptions } from './metrics/create-gateway-metrics.js';

// The portable base64 encoder the gateway uses where no faster one is injected (GatewayPorts.encodeBase64)
export { encodeBase64 } from './transforms/encode-float32-base64.js';
