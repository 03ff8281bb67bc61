import type { Base64Encoder } from '../handlers/ports.js';
import { vectorsBase64 } from './vectors-base64.js';
import type { UpstreamEmbeddings, VectorText } from '../protocols/openai/embedding-upstream-response.js';

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

const encoder = new TextEncoder();

/**
 * The spec's OpenAI-style embedding response, as bytes written around the upstream's vectors, copied
 * once and never decoded: with `float`, each embedding is the upstream's number list as it came; with
 * `base64`, the upstream's base64 of its little-endian float32 bytes (or that base64 encoded here, for
 * an upstream that answered with numbers), which openai-node decodes (and requests by default,
 * protocols.md 7.6). The fields are in the order JSON.stringify gave them when the response was an
 * object. The answer's size is added up first, so it is written into one buffer of that size.
 */
export function embeddingResponse(options: EmbeddingResponseOptions): Uint8Array<ArrayBuffer> {
  const { embeddings } = options;
  const vectors = embeddings.vectors;
  const base64 = options.encodingFormat === 'base64';
  const encoded = base64 ? encodeNumberVectors(vectors, options.encodeBase64) : undefined;
  // The id and the model may hold any character; everything else written here is ASCII.
  const head = encoder.encode(
    `{"id":${JSON.stringify(options.id)},"object":"list","created":${options.created},"model":${JSON.stringify(options.model)},"data":[`,
  );
  const tail = `],"usage":{"prompt_tokens":${embeddings.promptTokens},"total_tokens":${embeddings.totalTokens},"completion_tokens":0}}`;
  // Each item's members before its embedding, written once and measured from the same text.
  const itemHeads = vectors.map((_vector, index) => `{"index":${index},"object":"embedding","embedding":`);
  let size = head.length + tail.length;
  for (let index = 0; index < vectors.length; index += 1) {
    const vector = vectors[index] as (typeof vectors)[number];
    // `,` (after the first), the item's head, the embedding's `[` `]` or quotes and `}`.
    size += (index === 0 ? 0 : 1) + (itemHeads[index] as string).length + 3;
    size += encoded?.[index]?.length ?? vector.end - vector.start;
  }
  const out = new Uint8Array(size);
  out.set(head);
  let at = head.length;
  for (let index = 0; index < vectors.length; index += 1) {
    const vector = vectors[index] as (typeof vectors)[number];
    if (index > 0) out[at++] = 44; // ,
    at = writeAscii(out, at, itemHeads[index] as string);
    const own = encoded?.[index];
    out[at++] = base64 ? 34 : 91; // " or [
    if (own === undefined) {
      out.set(vector.bytes.subarray(vector.start, vector.end), at);
      at += vector.end - vector.start;
    } else {
      at += encoder.encodeInto(own, out.subarray(at)).written;
    }
    out[at++] = base64 ? 34 : 93; // " or ]
    out[at++] = 125; // }
  }
  writeAscii(out, at, tail);
  return out;
}

/** The base64 of each vector the upstream sent as numbers (undefined for those it sent as base64). */
function encodeNumberVectors(vectors: readonly VectorText[], encodeBase64: Base64Encoder): (string | undefined)[] | undefined {
  const numeric = vectors.filter((vector) => !vector.base64);
  if (numeric.length === 0) return undefined;
  const encoded = vectorsBase64(numeric, encodeBase64);
  let next = 0;
  return vectors.map((vector) => (vector.base64 ? undefined : encoded[next++]));
}

function writeAscii(out: Uint8Array, start: number, text: string): number {
  let at = start;
  for (let index = 0; index < text.length; index += 1) out[at++] = text.charCodeAt(index);
  return at;
}
