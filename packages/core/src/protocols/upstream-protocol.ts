import type { UpstreamTarget } from '../ports/ports.js';
import type { ChatTemplateSettings } from '../rules/reasoning-effort-rule.js';
import type { ChatCompletionsRequest } from '../schemas/chat-completions-request-schema.js';
import type { CompatContentBlock } from '../schemas/compat-embed-request-schema.js';
import type { CompatRerankRequest } from '../schemas/compat-rerank-request-schema.js';
import type { EmbeddingsInput } from '../schemas/embeddings-request-schema.js';
import type { TokenizeRequest } from '../schemas/tokenize-request-schema.js';
import type { UpstreamImageQuality } from '../rules/image-quality-rule.js';
import type { ImageInput } from '../images/split-data-url.js';
import type { ImageOutputFormat } from '../schemas/image-request-fields.js';
import type { UpstreamChatCompletion } from '../schemas/upstream-chat-completion-schema.js';
import type { RerankScore } from '../transforms/rerank-response.js';
import type { UpstreamEmbeddings } from '../transforms/upstream-embeddings.js';
import type { ImageResult, ImageResultDefaults } from './images/image-result-from-upstream.js';

/*
 * One adapter per wire protocol a model server speaks (config `upstreams[].protocol`). Handlers look it
 * up by `target.protocol` once (operationFor) and call it: the path and body sent, and the reading of
 * the answer, live in the protocol's folder and nowhere else. An operation an adapter leaves out is one
 * that protocol cannot serve (a 502 naming the protocol). Adding a protocol: ARCHITECTURE.md, "Where to
 * add".
 */

/** A path on the upstream origin and the JSON body to post there. */
export interface UpstreamPathAndBody {
  path: string;
  body: Record<string, unknown>;
}

export interface ChatUpstreamCall extends UpstreamPathAndBody {
  /** Whether the client asked for the usage chunk (`stream_options.include_usage`); the upstream always sends it. */
  includeUsage: boolean;
}

/** POST /v1/chat/completions and POST /v1/responses (both reach the upstream as one chat call). */
export interface ChatOperation {
  request(
    target: UpstreamTarget,
    chat: ChatCompletionsRequest,
    settings: ChatTemplateSettings,
  ): ChatUpstreamCall;
  /** A non-streaming answer; streamed chunks are read in the chat stream form by the stream transforms. */
  read(body: unknown): UpstreamChatCompletion;
}

export interface EmbeddingUpstreamOptions {
  input: EmbeddingsInput;
  dimensions: number | undefined;
  user: string | undefined;
  /** The form asked of the upstream: base64 only where the client's answer is base64 as well. */
  encodingFormat: 'float' | 'base64';
}

/** POST /v1/embeddings, and the text inputs of POST /compat/v2/embed in one batched call. */
export interface EmbeddingsOperation {
  request(target: UpstreamTarget, options: EmbeddingUpstreamOptions): UpstreamPathAndBody;
  /**
   * The vectors in input order, located in the answer's bytes (never parsed into numbers); a count
   * other than `expectedCount` or a length other than `dimensions` is the upstream's failure.
   */
  read(
    bytes: readonly Uint8Array[],
    expectedCount: number,
    dimensions: number | undefined,
    base64Allowed?: boolean,
  ): UpstreamEmbeddings;
}

/** One POST /compat/v2/embed input holding an image; its answer is read by the embeddings operation. */
export interface EmbedImageOperation {
  request(
    target: UpstreamTarget,
    content: readonly CompatContentBlock[],
    dimensions: number | undefined,
  ): UpstreamPathAndBody;
}

export interface RerankUpstreamRequest extends UpstreamPathAndBody {
  /** Request parameters this upstream has no field for (reported in x-infergate-ignored-params). */
  ignored: string[];
}

export interface UpstreamRerank {
  /** Only results the upstream returned; the gateway sorts them and applies top_n. */
  scores: RerankScore[];
  /** Prompt tokens when the upstream counts them (vLLM). */
  inputTokens: number | undefined;
}

/** POST /compat/v2/rerank. */
export interface RerankOperation {
  request(target: UpstreamTarget, request: CompatRerankRequest): RerankUpstreamRequest;
  read(body: unknown, documentCount: number): UpstreamRerank;
}

export interface UpstreamTokens {
  tokens: number[];
  /** The context window the upstream reports (vLLM only). */
  maxModelLen: number | undefined;
}

/** POST /tokenize. */
export interface TokenizeOperation {
  request(target: UpstreamTarget, request: TokenizeRequest): UpstreamPathAndBody;
  read(body: unknown): UpstreamTokens;
}

/** A chat prompt to count: the messages and tools a chat request would send. */
export interface ChatPromptToCount {
  messages: ChatCompletionsRequest['messages'];
  tools?: ChatCompletionsRequest['tools'];
}

/** POST /tokenize in vLLM's chat form: the prompt's tokens through the model's chat template. */
export interface TokenizeChatOperation {
  request(target: UpstreamTarget, prompt: ChatPromptToCount): UpstreamPathAndBody;
  read(body: unknown): UpstreamTokens;
}

export interface ImageUpstreamRequestOptions {
  /** The client's prompt, or the enhanced one for the `-pe` models. */
  prompt: string;
  size: string;
  quality: UpstreamImageQuality;
  outputFormat: ImageOutputFormat;
  /** Edits only: the already checked input images (a form's files as split data URLs, sent unjoined). */
  images?: readonly ImageInput[];
}

/** POST /v1/images/generations or /v1/images/edits. */
export interface ImageOperation {
  request(target: UpstreamTarget, options: ImageUpstreamRequestOptions): UpstreamPathAndBody;
  read(body: unknown, defaults: ImageResultDefaults): ImageResult;
}

export interface UpstreamProtocolAdapter {
  chat?: ChatOperation;
  embeddings?: EmbeddingsOperation;
  embedImage?: EmbedImageOperation;
  rerank?: RerankOperation;
  tokenize?: TokenizeOperation;
  tokenizeChat?: TokenizeChatOperation;
  imageGeneration?: ImageOperation;
  imageEdit?: ImageOperation;
}

export type ProtocolOperationName = keyof UpstreamProtocolAdapter;
