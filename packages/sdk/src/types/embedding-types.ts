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

export interface Embedding<Vector = number[]> {
  index: number;
  object: 'embedding';
  embedding: Vector;
}

/** The spec's OpenAI-style embedding response. */
export interface CreateEmbeddingResponse<Vector = number[]> {
  id: string;
  object: 'list';
  created: number;
  model: string;
  data: Array<Embedding<Vector>>;
  usage: { prompt_tokens: number; total_tokens: number; completion_tokens: number };
}
