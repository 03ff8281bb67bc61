/**
 * The spec's catalogue text models (Resources: "Model catalogue: text models").
 * Written out once here, rather than derived from core at runtime, so the client ships no catalogue code;
 * `test/model-id.test.ts` checks this list against core's default catalogue.
 */
export type KnownTextModelId =
  | 'beta53-flash-chat'
  | 'beta53-flash-chat-low'
  | 'beta53-flash-agent'
  | 'beta53-flash-agent-low'
  | 'alpha35-122b-a10b-instruct-general'
  | 'alpha35-122b-a10b-instruct-creative'
  | 'alpha35-122b-a10b-thinking-general'
  | 'alpha35-122b-a10b-thinking-coding'
  | 'alpha36-35b-a3b-instruct'
  | 'alpha36-35b-a3b-thinking-general'
  | 'alpha36-35b-a3b-thinking-coding';

/** The spec's default virtual models that map onto text models. */
export type KnownVirtualTextModelId =
  | 'coding-max'
  | 'coding-max-thinking'
  | 'general-max'
  | 'general-max-thinking'
  | 'coding-pro-thinking'
  | 'general-pro'
  | 'general-pro-thinking'
  | 'coding-std-thinking'
  | 'general-std'
  | 'general-std-thinking';

export type KnownEmbeddingModelId = 'alpha3-vl-embedding-8b' | 'gamma-m3';
export type KnownRerankModelId = 'gamma-reranker-v2-m3';
export type KnownImageGenerationModelId = 'alpha-image' | 'alpha-image-pe' | 'image-pro';
export type KnownImageEditModelId = 'alpha-image-edit' | 'alpha-image-edit-pe' | 'image-pro-edit';

export type KnownModelId =
  KnownTextModelId | KnownVirtualTextModelId | KnownEmbeddingModelId | KnownRerankModelId | KnownImageGenerationModelId | KnownImageEditModelId;

// `string & {}` keeps the literal members in editor completion while any string still type-checks:
// a gateway's configuration may add catalogue entries and virtual models the SDK cannot know about.
type AnyModelId = string & {};

/** Any model id the gateway accepts; the catalogue's ids autocomplete. */
export type ModelId = KnownModelId | AnyModelId;
/** A text model for /v1/chat/completions, /v1/responses and /tokenize. */
export type TextModelId = KnownTextModelId | KnownVirtualTextModelId | AnyModelId;
export type EmbeddingModelId = KnownEmbeddingModelId | AnyModelId;
export type RerankModelId = KnownRerankModelId | AnyModelId;
export type ImageGenerationModelId = KnownImageGenerationModelId | AnyModelId;
export type ImageEditModelId = KnownImageEditModelId | AnyModelId;
/** /tokenize takes text and embedding models (they report a context window). */
export type TokenizeModelId = KnownTextModelId | KnownVirtualTextModelId | KnownEmbeddingModelId | AnyModelId;
