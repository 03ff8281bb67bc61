import type { AnswerBytes } from '../http/answer-bytes.js';

// The vectors of an upstream embeddings answer, located in its bytes. The protocols' readers make them
// and the embedding transforms write the client's answer from them: declared on this side because
// protocols/ imports transforms/, never the reverse.

/**
 * One vector as the upstream wrote it: the bytes of `answer` between `start` and `end`, without the
 * brackets (a list of numbers) or the quotes (`base64`: the base64 of its little-endian float32 values).
 */
export interface VectorText {
  /** The upstream's whole answer. */
  readonly answer: AnswerBytes;
  readonly start: number;
  readonly end: number;
  /** How many numbers it holds. */
  readonly length: number;
  readonly base64: boolean;
}

export interface UpstreamEmbeddings {
  /** The upstream's id when it has the spec's `embd-<hex>` form. */
  id: string | undefined;
  /** One vector per input, in input order. */
  vectors: VectorText[];
  promptTokens: number;
  totalTokens: number;
}
