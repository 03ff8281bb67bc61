import type { EmbeddingResponse, EmbeddingsParams } from '@infergate/core';
import type { EmbeddingModelId } from './model-id.js';

/** `encoding_format: 'base64'` gives little-endian float32 bytes: decode them with `decodeBase64Embedding`. */
export interface EmbeddingCreateParams extends Omit<EmbeddingsParams, 'model'> {
  model: EmbeddingModelId;
}

type CoreEmbedding = EmbeddingResponse['data'][number];

/** One embedding; `Vector` is `string` with `encoding_format: 'base64'`. */
export type Embedding<Vector = number[]> = Omit<CoreEmbedding, 'embedding'> & { embedding: Vector };

/** The spec's OpenAI-style embedding response, as core builds it. */
export type CreateEmbeddingResponse<Vector = number[]> = Omit<EmbeddingResponse, 'data'> & {
  data: Array<Embedding<Vector>>;
};
