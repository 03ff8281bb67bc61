import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';

// Upstream bodies are read loosely: vLLM and TEI add fields across versions, and only these matter.
const upstreamEmbeddingSchema = z.looseObject({
  index: z.int().min(0),
  embedding: z.array(z.number()),
});

/** vLLM's EmbeddingResponse and TEI's OpenAI-compatible one (protocols.md 3.2, 5.3); TEI sends no id. */
export const embeddingUpstreamResponseSchema = z.looseObject({
  id: z.string().optional(),
  data: z.array(upstreamEmbeddingSchema),
  usage: z.looseObject({ prompt_tokens: z.int().min(0), total_tokens: z.int().min(0).optional() }),
});

export interface UpstreamEmbeddings {
  /** The upstream's id when it has the spec's `embd-<hex>` form. */
  id: string | undefined;
  /** One vector per input, in input order. */
  vectors: number[][];
  promptTokens: number;
  totalTokens: number;
}

const embdIdPattern = /^embd-[0-9a-f]+$/;

/**
 * The vectors of an upstream embeddings answer, ordered by `index`. A body of the wrong shape, a
 * vector count other than `expectedCount`, missing or repeated indexes, or a vector length other than
 * the requested `dimensions` is the upstream's failure (502), never passed on.
 */
export function readEmbeddingUpstreamResponse(body: unknown, expectedCount: number, dimensions: number | undefined): UpstreamEmbeddings {
  const parsed = embeddingUpstreamResponseSchema.safeParse(body);
  if (!parsed.success) throw GatewayError.upstreamFailed('The model server answered with an unexpected embeddings body.');
  const { data, usage, id } = parsed.data;
  if (data.length !== expectedCount) {
    throw GatewayError.upstreamFailed(`The model server returned ${data.length} embeddings for ${expectedCount} inputs.`);
  }
  const vectors = new Array<number[] | undefined>(expectedCount).fill(undefined);
  for (const item of data) {
    if (item.index >= expectedCount || vectors[item.index] !== undefined) {
      throw GatewayError.upstreamFailed('The model server returned embeddings with missing or repeated indexes.');
    }
    if (dimensions !== undefined && item.embedding.length !== dimensions) {
      throw GatewayError.upstreamFailed(`The model server returned ${item.embedding.length} dimensions where ${dimensions} were requested.`);
    }
    vectors[item.index] = item.embedding;
  }
  return {
    id: id !== undefined && embdIdPattern.test(id) ? id : undefined,
    // Every slot is filled: the count matched and no index repeated.
    vectors: vectors as number[][],
    promptTokens: usage.prompt_tokens,
    totalTokens: usage.total_tokens ?? usage.prompt_tokens,
  };
}
