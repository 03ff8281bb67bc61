import { z } from 'zod';
import { arrayTooLong } from './item-bounds.js';
import { nullsAsAbsent } from './nulls-as-absent.js';

// The OpenAI embeddings API documents at most 2048 inputs per request; vLLM and TEI accept the same forms.
const maxInputs = 2048;

// The OpenAI API refuses an empty string ("cannot be an empty string"); an empty input embeds nothing.
const textSchema = z.string().min(1, 'must not be an empty string');
const tokenIdSchema = z.int().min(0);
const tokenIdsSchema = z.array(tokenIdSchema).min(1, 'a token-id array must not be empty');

/** `input` of POST /v1/embeddings: a string, strings, one token-id array or several (as vLLM and OpenAI accept). */
export const embeddingsInputSchema = z.union(
  [
    textSchema,
    z.array(textSchema).min(1).max(maxInputs),
    tokenIdsSchema,
    z.array(tokenIdsSchema).min(1).max(maxInputs),
  ],
  {
    error: `must be a non-empty string, a non-empty array of at most ${maxInputs} non-empty strings, an array of token ids or an array of token-id arrays`,
  },
);

export type EmbeddingsInput = z.infer<typeof embeddingsInputSchema>;

// The OpenAI embeddings API takes at most 300,000 tokens summed over all inputs of a request.
const maxTokenIds = 300_000;

function tokenIdCount(input: readonly unknown[]): number {
  if (typeof input[0] === 'number') return input.length;
  let count = 0;
  for (const item of input) if (Array.isArray(item)) count += item.length;
  return count;
}

// The union above tries each form in turn, and its token-id forms look at every item of an array of
// strings before failing: too many inputs, or token ids, are refused on the arrays' lengths first. A
// flat array of token ids is one input.
const inputCountSchema = z.unknown().superRefine((value, context) => {
  if (!Array.isArray(value)) return;
  if (value.length > maxInputs && typeof value[0] !== 'number') {
    context.addIssue({
      code: 'too_big',
      origin: 'array',
      maximum: maxInputs,
      inclusive: true,
      input: value,
      message: arrayTooLong(maxInputs, value.length),
    });
    return;
  }
  const tokenIds = tokenIdCount(value);
  if (tokenIds > maxTokenIds) {
    context.addIssue({
      code: 'too_big',
      origin: 'array',
      maximum: maxTokenIds,
      inclusive: true,
      input: value,
      message: `too many token ids: at most ${maxTokenIds} in all, but got ${tokenIds}`,
    });
  }
});

/**
 * Body of POST /v1/embeddings (spec). `dimensions` is checked against the model's catalogue entry after
 * the model is resolved (see `embeddingDimensions`), because only the entry knows its range.
 */
const embeddingsObjectSchema = z.strictObject({
  model: z.string().min(1),
  // A union reports a missing value as a failed union; checking presence first names it as missing.
  input: z.unknown().nonoptional().pipe(inputCountSchema).pipe(embeddingsInputSchema),
  encoding_format: z.enum(['float', 'base64']).default('float'),
  dimensions: z.int().min(1).optional(),
  user: z.string().optional(),
});

/** A top-level null (`"encoding_format": null`) is "not given", as on the chat endpoints. */
export const embeddingsRequestSchema = nullsAsAbsent(embeddingsObjectSchema);

export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;

/** How many vectors an `input` asks for: one per string or token-id array. */
export function countEmbeddingInputs(input: EmbeddingsInput): number {
  if (typeof input === 'string') return 1;
  const first = input[0];
  return typeof first === 'number' ? 1 : input.length;
}
