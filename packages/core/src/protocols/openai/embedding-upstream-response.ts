import { GatewayError } from '../../errors/gateway-error.js';
import { AnswerBytes } from '../../http/answer-bytes.js';
import { JsonTextError, JsonTextScanner } from '../../transforms/json-text-scanner.js';
import { wasmTextOf } from '../../transforms/json-text-wasm-check.js';
import type { UpstreamEmbeddings, VectorText } from '../../transforms/upstream-embeddings.js';

// Upstream answers are read loosely (vLLM and TEI add fields across versions; only these matter) and
// from their bytes in one pass: the vectors are never parsed into numbers, only checked, counted and
// located, so that answers carry the upstream's own bytes: its number lists for `float`, its base64
// text for `base64` (or base64 encoded here from numbers, when the upstream answered with those).

const isCount = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0;

const embdIdPattern = /^embd-[0-9a-f]+$/;

interface ItemFields {
  index: unknown;
  vector: VectorText | undefined;
}

/**
 * The vectors of an upstream embeddings answer (its bytes), ordered by `index`. With `base64Allowed`
 * (the client asked for base64, and so did the call) a vector may be a base64 string as well as a list. Text that is not JSON,
 * a body of the wrong shape, a vector count other than `expectedCount`, missing or repeated indexes, or
 * a vector length other than the requested `dimensions` is the upstream's failure (502), never passed on.
 */
export function readEmbeddingUpstreamResponse(
  bytes: Uint8Array | readonly Uint8Array[],
  expectedCount: number,
  dimensions: number | undefined,
  base64Allowed = false,
): UpstreamEmbeddings {
  // vLLM's EmbeddingResponse and TEI's OpenAI-compatible one; TEI sends no id.
  // Each failure names the JSON path for the operator's log; the client sees only the first sentence.
  const unexpected = (detail: string) =>
    GatewayError.upstreamBodyInvalid(
      'The model server answered with an unexpected embeddings body.',
      detail,
    );
  const answer = new AnswerBytes(bytes instanceof Uint8Array ? [bytes] : bytes);
  // Read where WebAssembly checks the number lists, without a joined copy of the answer in between.
  const scanner = new JsonTextScanner(
    wasmTextOf(answer.pieces, answer.byteLength) ?? answer.whole(),
  );
  const items: ItemFields[] = [];
  let usage: Record<string, unknown> | undefined;
  let id: unknown;
  let hasData = false;
  let path = '(body)';
  try {
    if (scanner.peek() !== 123 /* { */) throw unexpected('(body): expected an object');
    scanner.object((key) => {
      if (key === 'data') {
        path = 'data';
        if (scanner.peek() !== 91 /* [ */) throw unexpected('data: expected an array');
        hasData = true;
        items.length = 0;
        scanner.array((position) => {
          path = `data[${position}]`;
          if (scanner.peek() !== 123) throw unexpected(`${path}: expected an object`);
          items.push(readItem(scanner, answer, path, unexpected, base64Allowed));
        });
      } else if (key === 'usage') {
        path = 'usage';
        const value = JSON.parse(scanner.valueText()) as unknown;
        usage =
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? (value as Record<string, unknown>)
            : undefined;
      } else if (key === 'id') {
        path = 'id';
        id = JSON.parse(scanner.valueText()) as unknown;
      } else {
        path = key;
        scanner.skipValue();
      }
      path = '(body)';
    });
    scanner.end();
  } catch (error) {
    if (error instanceof JsonTextError)
      throw GatewayError.upstreamBodyInvalid(
        'The model server answered with an embeddings body that is not valid JSON.',
        `${path}: ${error.message}`,
      );
    throw error;
  }
  if (!hasData) throw unexpected('data: expected an array');
  if (usage === undefined) throw unexpected('usage: expected an object');
  if (!isCount(usage.prompt_tokens))
    throw unexpected('usage.prompt_tokens: expected an integer >= 0');
  if (usage.total_tokens !== undefined && !isCount(usage.total_tokens))
    throw unexpected('usage.total_tokens: expected an integer >= 0');
  if (id !== undefined && typeof id !== 'string') throw unexpected('id: expected a string');
  if (items.length !== expectedCount) {
    throw GatewayError.upstreamBodyInvalid(
      `The model server returned ${items.length} embeddings for ${expectedCount} inputs.`,
      `data: expected ${expectedCount} items`,
    );
  }
  const vectors = new Array<VectorText | undefined>(expectedCount).fill(undefined);
  for (const [position, item] of items.entries()) {
    if (!isCount(item.index)) throw unexpected(`data[${position}].index: expected an integer >= 0`);
    if (item.vector === undefined)
      throw unexpected(`data[${position}].embedding: expected an array of numbers`);
    if (item.index >= expectedCount || vectors[item.index] !== undefined) {
      throw GatewayError.upstreamBodyInvalid(
        'The model server returned embeddings with missing or repeated indexes.',
        `data[${position}].index: out of range or repeated`,
      );
    }
    if (dimensions !== undefined && item.vector.length !== dimensions) {
      throw GatewayError.upstreamBodyInvalid(
        `The model server returned ${item.vector.length} dimensions where ${dimensions} were requested.`,
        `data[${position}].embedding: expected ${dimensions} numbers`,
      );
    }
    vectors[item.index] = item.vector;
  }
  return {
    id: id !== undefined && embdIdPattern.test(id) ? id : undefined,
    // Every slot is filled: the count matched and no index repeated.
    vectors: vectors as VectorText[],
    promptTokens: usage.prompt_tokens,
    totalTokens: (usage.total_tokens as number | undefined) ?? usage.prompt_tokens,
  };
}

function readItem(
  scanner: JsonTextScanner,
  answer: AnswerBytes,
  path: string,
  unexpected: (detail: string) => GatewayError,
  base64Allowed: boolean,
): ItemFields {
  const item: ItemFields = { index: undefined, vector: undefined };
  scanner.object((key) => {
    if (key === 'index') item.index = JSON.parse(scanner.valueText()) as unknown;
    else if (key === 'embedding' && base64Allowed && scanner.peek() === 34 /* " */) {
      const start = scanner.at + 1;
      const byteCount = scanner.base64String();
      // float32 values: four bytes each.
      if (byteCount < 0 || byteCount % 4 !== 0)
        throw unexpected(`${path}.embedding: expected base64 of float32 values`);
      item.vector = { answer, start, end: scanner.at - 1, length: byteCount / 4, base64: true };
    } else if (key === 'embedding') {
      if (scanner.peek() !== 91 /* [ */)
        throw unexpected(`${path}.embedding: expected an array of numbers`);
      const start = scanner.at + 1;
      let length: number;
      try {
        length = scanner.numberArray();
      } catch (error) {
        if (error instanceof JsonTextError)
          throw unexpected(`${path}.embedding: expected an array of numbers (${error.message})`);
        throw error;
      }
      item.vector = { answer, start, end: scanner.at - 1, length, base64: false };
    } else scanner.skipValue();
  });
  return item;
}
