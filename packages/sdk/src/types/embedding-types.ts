import type { EmbeddingResponse } from '@infergate/core';
import type { EmbeddingModelId } from './model-id.js';

export interface EmbeddingCreateParams {
  model: EmbeddingModelId;
  /** Text(s), or token ids (one array or several). */
  input: string | string[] | number[] | number[][];
  /** float (default) or base64 (little-endian float32 bytes; decode with `decodeBase64Embedding`). */
  encoding_format?: 'float' | 'base64';
  /** Only for alpha3-vl-embedding-8b (128 to 4096). */
  dimensions?: number;
  user?: string;
}

type CoreEmbedding = EmbeddingResponse['data'][number];

/** One embedding; `Vector` is `string` with `encoding_format: 'base64'`. */
export type Embedding<Vector = number[]> = Omit<CoreEmbedding, 'embedding'> & { embedding: Vector };

/** The spec's OpenAI-style embedding response, as core builds it. */
export type CreateEmbeddingResponse<Vector = number[]> = Omit<EmbeddingResponse, 'data'> & { data: Array<Embedding<Vector>> };
