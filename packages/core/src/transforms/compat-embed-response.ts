import type { Base64Encoder } from '../ports/ports.js';
import type { ImageHeader } from '../images/read-image-header.js';
import type { VectorText } from './upstream-embeddings.js';
import { bytesText } from './json-text-scanner.js';
import { vectorsBase64 } from './vectors-base64.js';

export interface CompatEmbedResponseOptions {
  /** The request id: the compat API answers with it. */
  id: string;
  model: string;
  /** One vector per input, in input order, as the upstream wrote it. */
  vectors: readonly VectorText[];
  embeddingTypes: readonly ('float' | 'base64')[];
  texts: readonly string[];
  images: readonly ImageHeader[];
  inputTokens: number;
  encodeBase64: Base64Encoder;
}

/** The spec's compat-style embedding response, as sent. */
export interface CompatEmbedResponse {
  id: string;
  embeddings: { float?: number[][]; base64?: string[] };
  texts: string[];
  images?: {
    width: number;
    height: number;
    format: 'png' | 'jpeg' | 'webp' | 'gif';
    bit_depth: number;
  }[];
  meta: {
    api_version: { version: string; is_experimental: boolean };
    billed_units: { input_tokens: number; images?: number };
  };
  model: string;
  usage: { billed_units: { input_tokens: number; images?: number } };
  response_type: 'embeddings_by_type';
}

/**
 * The spec's compat-style embedding response, written as text around the upstream's vectors (the
 * `float` ones as the upstream wrote them, the `base64` ones encoded from that text). Every field the
 * Cohere SDK requires is present (id, embeddings, api_version.version, and width/height/format/bit_depth
 * of each image), since a body missing one is handed to the caller raw and untyped.
 */
export function compatEmbedResponse(options: CompatEmbedResponseOptions): string {
  const types: string[] = [];
  if (options.embeddingTypes.includes('float')) {
    types.push(
      `"float":[${options.vectors.map((vector) => `[${bytesText(vector.answer.range(vector.start, vector.end), 0, vector.end - vector.start)}]`).join(',')}]`,
    );
  }
  if (options.embeddingTypes.includes('base64'))
    types.push(`"base64":${JSON.stringify(vectorsBase64(options.vectors, options.encodeBase64))}`);
  const hasImages = options.images.length > 0;
  // The images counter appears for image input only (spec, POST /compat/v2/embed).
  const billedUnits = hasImages
    ? { input_tokens: options.inputTokens, images: options.images.length }
    : { input_tokens: options.inputTokens };
  const rest = JSON.stringify({
    texts: options.texts,
    ...(hasImages
      ? {
          images: options.images.map((image) => ({
            width: image.width,
            height: image.height,
            format: image.format,
            bit_depth: image.bitDepth,
          })),
        }
      : {}),
    meta: { api_version: { version: '2', is_experimental: true }, billed_units: billedUnits },
    model: options.model,
    usage: { billed_units: billedUnits },
    response_type: 'embeddings_by_type',
  });
  // `rest` is an object's text: its members follow `embeddings` in the same object.
  return `{"id":${JSON.stringify(options.id)},"embeddings":{${types.join(',')}},${rest.slice(1)}`;
}
