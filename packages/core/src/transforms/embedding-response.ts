import type { Base64Encoder } from '../handlers/ports.js';
import { vectorsBase64 } from './vectors-base64.js';
import type { UpstreamEmbeddings } from '../protocols/openai/embedding-upstream-response.js';

export interface EmbeddingResponseOptions {
  id: string;
  /** Unix seconds. */
  created: number;
  /** The catalogue id used. */
  model: string;
  /** The upstream's vectors, as read from its answer. */
  embeddings: UpstreamEmbeddings;
  encodingFormat: 'float' | 'base64';
  encodeBase64: Base64Encoder;
}

/** The spec's OpenAI-style embedding response, as sent. */
export interface EmbeddingResponse {
  id: string;
  object: 'list';
  created: number;
  model: string;
  data: { index: number; object: 'embedding'; embedding: number[] | string }[];
  usage: { prompt_tokens: number; total_tokens: number; completion_tokens: number };
}

/**
 * The spec's OpenAI-style embedding response, written as text around the upstream's vectors: with
 * `float`, each embedding is the upstream's number text as it came; with `base64`, the base64 of its
 * little-endian float32 bytes, which openai-node decodes (and requests by default, protocols.md 7.6).
 * The fields are in the order JSON.stringify gave them when the response was an object.
 */
export function embeddingResponse(options: EmbeddingResponseOptions): string {
  const { embeddings } = options;
  const vectors = embeddings.vectors;
  const encoded = options.encodingFormat === 'base64' ? vectorsBase64(vectors, options.encodeBase64) : undefined;
  let body = `{"id":${JSON.stringify(options.id)},"object":"list","created":${options.created},"model":${JSON.stringify(options.model)},"data":[`;
  for (let index = 0; index < vectors.length; index += 1) {
    const vector = vectors[index] as (typeof vectors)[number];
    const embedding = encoded === undefined ? `[${vector.text.slice(vector.start, vector.end)}]` : `"${encoded[index] as string}"`;
    body += `${index === 0 ? '' : ','}{"index":${index},"object":"embedding","embedding":${embedding}}`;
  }
  return `${body}],"usage":{"prompt_tokens":${embeddings.promptTokens},"total_tokens":${embeddings.totalTokens},"completion_tokens":0}}`;
}
