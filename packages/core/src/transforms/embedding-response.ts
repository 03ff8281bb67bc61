import type { Base64Encoder } from '../ports/ports.js';
import { vectorsBase64 } from './vectors-base64.js';
import type { UpstreamEmbeddings, VectorText } from './upstream-embeddings.js';

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

/** An answer as pieces written one after another, and their total size. */
export interface BodyPieces {
  pieces: Uint8Array[];
  byteLength: number;
}

/**
 * The spec's OpenAI-style embedding response, as pieces around the upstream's vectors, neither decoded
 * nor copied (a copy cost as much as checking the numbers): `float` gives the upstream's number lists
 * as they came, `base64` its base64 of little-endian float32 bytes (encoded here for an upstream that
 * answered with numbers). Fields in JSON.stringify's order. When every vector was encoded here the
 * answer is text: as bytes it would be one more buffer outside V8's heap per answer.
 */
export function embeddingResponse(options: EmbeddingResponseOptions): string | BodyPieces {
  const { embeddings } = options;
  const vectors = embeddings.vectors;
  const base64 = options.encodingFormat === 'base64';
  const encoded = base64 ? encodeNumberVectors(vectors, options.encodeBase64) : undefined;
  const open = base64 ? '"' : '[';
  const close = base64 ? '"}' : ']}';
  // The id and the model may hold any character; the text after them is ASCII (JSON punctuation,
  // digits and base64), one byte a character, so a vector's place in it is its length so far.
  const headText = `{"id":${JSON.stringify(options.id)},"object":"list","created":${options.created},"model":${JSON.stringify(options.model)},"data":[`;
  let between = '';
  const places: number[] = [];
  for (let index = 0; index < vectors.length; index += 1) {
    between += `${index === 0 ? '' : `${close},`}{"index":${index},"object":"embedding","embedding":${open}`;
    const own = encoded?.[index];
    if (own === undefined) places.push(between.length);
    else between += own;
  }
  between += `${vectors.length === 0 ? '' : close}],"usage":{"prompt_tokens":${embeddings.promptTokens},"total_tokens":${embeddings.totalTokens},"completion_tokens":0}}`;
  if (places.length === 0) return headText + between;
  const head = encoder.encode(headText);
  const frame = new Uint8Array(between.length);
  encoder.encodeInto(between, frame);
  const pieces: Uint8Array[] = [head];
  let byteLength = head.length + frame.length;
  let from = 0;
  let place = 0;
  for (let index = 0; index < vectors.length; index += 1) {
    if (encoded?.[index] !== undefined) continue;
    const vector = vectors[index] as (typeof vectors)[number];
    const to = places[place++] as number;
    pieces.push(frame.subarray(from, to));
    vector.answer.appendRange(vector.start, vector.end, pieces);
    byteLength += vector.end - vector.start;
    from = to;
  }
  pieces.push(frame.subarray(from));
  return { pieces, byteLength };
}

/** The base64 of each vector the upstream sent as numbers (undefined for those it sent as base64). */
function encodeNumberVectors(
  vectors: readonly VectorText[],
  encodeBase64: Base64Encoder,
): (string | undefined)[] | undefined {
  const numeric = vectors.filter((vector) => !vector.base64);
  if (numeric.length === 0) return undefined;
  const encoded = vectorsBase64(numeric, encodeBase64);
  let next = 0;
  return vectors.map((vector) => (vector.base64 ? undefined : encoded[next++]));
}
