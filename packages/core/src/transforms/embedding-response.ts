import type { Base64Encoder } from '../handlers/ports.js';
import { utf8ByteLength } from '../http/utf8-byte-length.js';
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

/** The answer's text and its length in UTF-8 bytes, worked out without encoding it. */
export interface EmbeddingResponseText {
  body: string;
  byteLength: number;
}

/**
 * The spec's OpenAI-style embedding response, written as text around the upstream's vectors: with
 * `float`, each embedding is the upstream's number text as it came; with `base64`, the base64 of its
 * little-endian float32 bytes, which openai-node decodes (and requests by default, protocols.md 7.6).
 * The fields are in the order JSON.stringify gave them when the response was an object.
 *
 * Everything after the id and the model is ASCII (checked number text, base64, digits), so the byte
 * length is known without a pass over 16 x 1024 numbers: the app sends it as Content-Length, and an
 * answer whose bytes equal its characters can be written as one-byte text, not encoded as UTF-8.
 */
export function embeddingResponse(options: EmbeddingResponseOptions): EmbeddingResponseText {
  const { embeddings } = options;
  const vectors = embeddings.vectors;
  const encoded = options.encodingFormat === 'base64' ? vectorsBase64(vectors, options.encodeBase64) : undefined;
  const head = `{"id":${JSON.stringify(options.id)},"object":"list","created":${options.created},"model":${JSON.stringify(options.model)},"data":[`;
  let body = head;
  for (let index = 0; index < vectors.length; index += 1) {
    const vector = vectors[index] as (typeof vectors)[number];
    const embedding = encoded === undefined ? `[${vector.text.slice(vector.start, vector.end)}]` : `"${encoded[index] as string}"`;
    body += `${index === 0 ? '' : ','}{"index":${index},"object":"embedding","embedding":${embedding}}`;
  }
  body += `],"usage":{"prompt_tokens":${embeddings.promptTokens},"total_tokens":${embeddings.totalTokens},"completion_tokens":0}}`;
  return { body, byteLength: body.length + utf8ByteLength(head) - head.length };
}
