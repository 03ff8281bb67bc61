import type { DefaultCatalogueModelId, DefaultVirtualModelId } from '@infergate/core';

/*
 * The ids of core's default catalogue and its virtual models, taken from it as types (erased, and
 * written out in the .d.ts at build time), so a model added to the catalogue autocompletes with no edit here.
 */
export type KnownTextModelId = DefaultCatalogueModelId<'text'>;

/** The default virtual models that map onto text models. */
export type KnownVirtualTextModelId = DefaultVirtualModelId<'text'>;

export type KnownEmbeddingModelId =
  DefaultCatalogueModelId<'embedding'> | DefaultVirtualModelId<'embedding'>;
export type KnownRerankModelId =
  DefaultCatalogueModelId<'rerank'> | DefaultVirtualModelId<'rerank'>;
export type KnownImageGenerationModelId =
  DefaultCatalogueModelId<'image-generation'> | DefaultVirtualModelId<'image-generation'>;
export type KnownImageEditModelId =
  DefaultCatalogueModelId<'image-edit'> | DefaultVirtualModelId<'image-edit'>;

export type KnownModelId =
  | KnownTextModelId
  | KnownVirtualTextModelId
  | KnownEmbeddingModelId
  | KnownRerankModelId
  | KnownImageGenerationModelId
  | KnownImageEditModelId;

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
export type TokenizeModelId =
  KnownTextModelId | KnownVirtualTextModelId | KnownEmbeddingModelId | AnyModelId;
