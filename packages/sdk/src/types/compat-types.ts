import type { CompatEmbedResponse, RerankResponse } from '@infergate/core';
import type { EmbeddingModelId, RerankModelId } from './model-id.js';

export interface CompatTextBlock {
  type: 'text';
  text: string;
}

/** `url` is a base64 data URL. */
export interface CompatImageBlock {
  type: 'image_url';
  image_url: { url: string };
}

export interface CompatEmbedInput {
  content: Array<CompatTextBlock | CompatImageBlock>;
}

/** The spec's allowed output dimensions of alpha3-vl-embedding-8b. */
export type CompatOutputDimension = 128 | 256 | 384 | 512 | 768 | 1024 | 1536 | 2048 | 2560 | 3072 | 3584 | 4096;

export interface CompatEmbedParams {
  /** Only alpha3-vl-embedding-8b; use `embeddings.create` for gamma-m3. */
  model: EmbeddingModelId;
  /** The spec's form; send `inputs` or `texts`, not both. */
  inputs?: CompatEmbedInput[];
  /** The embed API's text-only form. */
  texts?: string[];
  /** classification and clustering are not supported. */
  input_type: 'search_document' | 'search_query' | 'image';
  output_dimension?: CompatOutputDimension;
  /** Default [float]; the int8/binary forms are not supported. */
  embedding_types?: Array<'float' | 'base64'>;
  truncate?: 'NONE' | 'START' | 'END';
  max_tokens?: number;
}

/** The spec's compat-style embedding response, as core builds it. */
export type { CompatEmbedResponse };
export type CompatBilledUnits = CompatEmbedResponse['meta']['billed_units'];

export interface CompatRerankParams {
  model: RerankModelId;
  query: string;
  documents: string[];
  /** Number of top results to return (default: all). */
  top_n?: number;
  max_tokens_per_doc?: number;
}

/** Most relevant first, scores in [0, 1] (the rerank API the compat endpoints follow). */
export type CompatRerankResponse = RerankResponse;
