// The paths are core's route table's (bundled at build time: route-paths.ts is zod-free).
import { endpointRoutes } from '@infergate/core';
import type { RequestOptions } from '../client-options.js';
import { requestJson } from '../transport/request-json.js';
import type { TransportConfig } from '../transport/transport-config.js';
import type { CreateEmbeddingResponse, EmbeddingCreateParams } from '../types/embedding-types.js';

export interface Embeddings {
  /** POST /v1/embeddings with `encoding_format: 'base64'`: each embedding is a base64 string (see `decodeBase64Embedding`). */
  create(
    params: EmbeddingCreateParams & { encoding_format: 'base64' },
    options?: RequestOptions,
  ): Promise<CreateEmbeddingResponse<string>>;
  /** POST /v1/embeddings: float vectors. */
  create(
    params: EmbeddingCreateParams & { encoding_format?: 'float' },
    options?: RequestOptions,
  ): Promise<CreateEmbeddingResponse>;
  create(
    params: EmbeddingCreateParams,
    options?: RequestOptions,
  ): Promise<CreateEmbeddingResponse<number[] | string>>;
}

export function embeddings(config: TransportConfig): Embeddings {
  // Unlike openai-node, base64 is never asked for behind the caller's back: float is what the spec defaults to.
  const create = (params: EmbeddingCreateParams, options?: RequestOptions) =>
    requestJson<CreateEmbeddingResponse<number[] | string>>(
      config,
      { method: 'POST', path: endpointRoutes.embeddings.path, body: params },
      options,
    );
  return { create: create as Embeddings['create'] };
}
