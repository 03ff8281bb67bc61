import { GatewayError } from '../../errors/gateway-error.js';

// Upstream bodies are read loosely (vLLM and TEI add fields across versions; only these matter) and
// by hand: a schema walk over 16 x 1024 floats was ~3 % of an embeddings request in the profile.
type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

function isNumberArray(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index += 1) if (typeof value[index] !== 'number') return false;
  return true;
}

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
  // vLLM's EmbeddingResponse and TEI's OpenAI-compatible one (protocols.md 3.2, 5.3); TEI sends no id.
  // Each failure names the JSON path for the operator's log; the client sees only the first sentence.
  const unexpected = (detail: string) => GatewayError.upstreamBodyInvalid('The model server answered with an unexpected embeddings body.', detail);
  if (!isObject(body)) throw unexpected('(body): expected an object');
  if (!Array.isArray(body.data)) throw unexpected('data: expected an array');
  if (!isObject(body.usage)) throw unexpected('usage: expected an object');
  const { data, usage, id } = body;
  if (!isCount(usage.prompt_tokens)) throw unexpected('usage.prompt_tokens: expected an integer >= 0');
  if (usage.total_tokens !== undefined && !isCount(usage.total_tokens)) throw unexpected('usage.total_tokens: expected an integer >= 0');
  if (id !== undefined && typeof id !== 'string') throw unexpected('id: expected a string');
  if (data.length !== expectedCount) {
    throw GatewayError.upstreamBodyInvalid(`The model server returned ${data.length} embeddings for ${expectedCount} inputs.`, `data: expected ${expectedCount} items`);
  }
  const vectors = new Array<number[] | undefined>(expectedCount).fill(undefined);
  for (const [position, item] of (data as unknown[]).entries()) {
    if (!isObject(item)) throw unexpected(`data[${position}]: expected an object`);
    if (!isCount(item.index)) throw unexpected(`data[${position}].index: expected an integer >= 0`);
    if (!isNumberArray(item.embedding)) throw unexpected(`data[${position}].embedding: expected an array of numbers`);
    if (item.index >= expectedCount || vectors[item.index] !== undefined) {
      throw GatewayError.upstreamBodyInvalid('The model server returned embeddings with missing or repeated indexes.', `data[${position}].index: out of range or repeated`);
    }
    if (dimensions !== undefined && item.embedding.length !== dimensions) {
      throw GatewayError.upstreamBodyInvalid(`The model server returned ${item.embedding.length} dimensions where ${dimensions} were requested.`, `data[${position}].embedding: expected ${dimensions} numbers`);
    }
    vectors[item.index] = item.embedding;
  }
  return {
    id: id !== undefined && embdIdPattern.test(id) ? id : undefined,
    // Every slot is filled: the count matched and no index repeated.
    vectors: vectors as number[][],
    promptTokens: usage.prompt_tokens,
    totalTokens: (usage.total_tokens as number | undefined) ?? usage.prompt_tokens,
  };
}
