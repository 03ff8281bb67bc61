import { encodeFloat32Base64 } from './encode-float32-base64.js';

export interface EmbeddingResponseOptions {
  id: string;
  /** Unix seconds. */
  created: number;
  /** The catalogue id used. */
  model: string;
  vectors: readonly (readonly number[])[];
  encodingFormat: 'float' | 'base64';
  promptTokens: number;
  totalTokens: number;
}

/**
 * The spec's OpenAI-style embedding response. With `base64`, each embedding is the base64 of its
 * little-endian float32 bytes, which openai-node decodes (and requests by default, protocols.md 7.6).
 */
export function embeddingResponse(options: EmbeddingResponseOptions) {
  return {
    id: options.id,
    object: 'list' as const,
    created: options.created,
    model: options.model,
    data: options.vectors.map((vector, index) => ({
      index,
      object: 'embedding' as const,
      embedding: options.encodingFormat === 'base64' ? encodeFloat32Base64(vector) : vector,
    })),
    usage: { prompt_tokens: options.promptTokens, total_tokens: options.totalTokens, completion_tokens: 0 },
  };
}

export type EmbeddingResponse = ReturnType<typeof embeddingResponse>;
