export { createClient } from './create-client.js';
export type { InfergateClient } from './create-client.js';
export type { ClientOptions, FetchFunction, RequestOptions } from './client-options.js';
export { decodeBase64Embedding } from './decode-base64-embedding.js';

export { InfergateError, isInfergateError } from './errors/infergate-error.js';
export type { InfergateErrorOptions } from './errors/infergate-error.js';
export {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './errors/status-errors.js';
export {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
} from './errors/connection-errors.js';

export { ChatCompletionStream } from './streaming/chat-completion-stream.js';
export type { ChatCompletionStreamSummary } from './streaming/chat-completion-stream.js';
export { ResponseStream } from './streaming/response-stream.js';
export type { ResponseStreamSummary } from './streaming/response-stream.js';
export { EventStream } from './streaming/event-stream.js';

export type { ChatCompletions } from './resources/chat-completions.js';
export type { Responses } from './resources/responses.js';
export type { Embeddings } from './resources/embeddings.js';
export type { Compat } from './resources/compat.js';
export type { Images } from './resources/images.js';

export type * from './types/model-id.js';
export type * from './types/sampling-params.js';
export type * from './types/chat-completion-types.js';
export type * from './types/response-types.js';
export type * from './types/embedding-types.js';
export type * from './types/compat-types.js';
export type * from './types/image-types.js';
export type * from './types/tokenize-types.js';
export type * from './types/model-list-types.js';
export type * from './types/pricing-types.js';
