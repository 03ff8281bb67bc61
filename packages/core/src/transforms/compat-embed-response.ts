import type { ImageHeader } from '../images/read-image-header.js';
import { encodeFloat32Base64 } from './encode-float32-base64.js';

export interface CompatEmbedResponseOptions {
  /** The request id: the compat API answers with it. */
  id: string;
  model: string;
  /** One vector per input, in input order. */
  vectors: readonly (readonly number[])[];
  embeddingTypes: readonly ('float' | 'base64')[];
  texts: readonly string[];
  images: readonly ImageHeader[];
  inputTokens: number;
}

/**
 * The spec's compat-style embedding response. Every field the Cohere SDK requires is present (id,
 * embeddings, api_version.version, and width/height/format/bit_depth of each image), since a body
 * missing one is handed to the caller raw and untyped (protocols.md 4.3).
 */
export function compatEmbedResponse(options: CompatEmbedResponseOptions) {
  const embeddings: { float?: (readonly number[])[]; base64?: string[] } = {};
  if (options.embeddingTypes.includes('float')) embeddings.float = [...options.vectors];
  if (options.embeddingTypes.includes('base64')) embeddings.base64 = options.vectors.map((vector) => encodeFloat32Base64(vector));
  const hasImages = options.images.length > 0;
  // The images counter appears for image input only (spec, POST /compat/v2/embed).
  const billedUnits = hasImages ? { input_tokens: options.inputTokens, images: options.images.length } : { input_tokens: options.inputTokens };
  return {
    id: options.id,
    embeddings,
    texts: [...options.texts],
    ...(hasImages ? { images: options.images.map((image) => ({ width: image.width, height: image.height, format: image.format, bit_depth: image.bitDepth })) } : {}),
    meta: { api_version: { version: '2', is_experimental: true }, billed_units: billedUnits },
    model: options.model,
    usage: { billed_units: { ...billedUnits } },
    response_type: 'embeddings_by_type' as const,
  };
}

export type CompatEmbedResponse = ReturnType<typeof compatEmbedResponse>;
