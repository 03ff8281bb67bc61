import type {
  CompatEmbedInputParam,
  CompatEmbedParams as CoreCompatEmbedParams,
  CompatEmbedResponse,
  CompatRerankParams as CoreCompatRerankParams,
  RerankResponse,
} from '@infergate/core';
import type { EmbeddingModelId, RerankModelId } from './model-id.js';

export type { CompatImageBlock, CompatTextBlock } from '@infergate/core';
export type CompatEmbedInput = CompatEmbedInputParam;

/** The spec's allowed output dimensions of alpha3-vl-embedding-8b. */
export type CompatOutputDimension =
  128 | 256 | 384 | 512 | 768 | 1024 | 1536 | 2048 | 2560 | 3072 | 3584 | 4096;

export interface CompatEmbedParams extends Omit<
  CoreCompatEmbedParams,
  'model' | 'output_dimension'
> {
  /** Only alpha3-vl-embedding-8b; use `embeddings.create` for gamma-m3. */
  model: EmbeddingModelId;
  output_dimension?: CompatOutputDimension;
}

/** The spec's compat-style embedding response, as core builds it. */
export type { CompatEmbedResponse };
export type CompatBilledUnits = CompatEmbedResponse['meta']['billed_units'];

export interface CompatRerankParams extends Omit<CoreCompatRerankParams, 'model'> {
  model: RerankModelId;
}

/** Most relevant first, scores in [0, 1] (the rerank API the compat endpoints follow). */
export type CompatRerankResponse = RerankResponse;
