import { z } from 'zod';
import { maxContentParts, tooManyItems } from './item-bounds.js';

// The embed API this endpoint follows takes at most 96 texts or inputs per call.
const maxInputs = 96;

const supportedInputTypes = ['search_document', 'search_query', 'image'] as const;
const unsupportedInputTypes: readonly unknown[] = ['classification', 'clustering'];
const supportedEmbeddingTypes = ['float', 'base64'] as const;
const unsupportedEmbeddingTypes: readonly unknown[] = ['int8', 'uint8', 'binary', 'ubinary'];

export const compatTextBlockSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string().min(1),
});
export const compatImageBlockSchema = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({ url: z.string().min(1) }),
});
export const compatContentBlockSchema = z.discriminatedUnion('type', [
  compatTextBlockSchema,
  compatImageBlockSchema,
]);
export type CompatContentBlock = z.infer<typeof compatContentBlockSchema>;

export const compatEmbedInputSchema = z.strictObject({
  content: z.array(compatContentBlockSchema).min(1).max(maxContentParts, tooManyItems),
});
export type CompatEmbedInput = z.infer<typeof compatEmbedInputSchema>;

// The string check first, so that a missing input_type is reported as missing rather than as a bad value.
const inputTypeSchema = z.string().pipe(
  z.enum(supportedInputTypes, {
    error: (issue) =>
      unsupportedInputTypes.includes(issue.input)
        ? `'${String(issue.input)}' is not supported; use search_document, search_query or image`
        : undefined,
  }),
);

const embeddingTypeSchema = z.enum(supportedEmbeddingTypes, {
  error: (issue) =>
    unsupportedEmbeddingTypes.includes(issue.input)
      ? `'${String(issue.input)}' embeddings are not supported; use float or base64`
      : undefined,
});

/**
 * Body of POST /compat/v2/embed (spec), shaped after the Cohere v2 embed request. `texts` is accepted
 * besides `inputs` because the official Cohere SDK sends it for text-only calls; exactly one of the
 * two must be present. `output_dimension` is checked against the model's allowed list once the model
 * is resolved.
 */
export const compatEmbedRequestSchema = z
  .strictObject({
    model: z.string().min(1),
    inputs: z.array(compatEmbedInputSchema).min(1).max(maxInputs).optional(),
    texts: z.array(z.string().min(1)).min(1).max(maxInputs).optional(),
    input_type: inputTypeSchema,
    output_dimension: z.int().min(1).optional(),
    embedding_types: z.array(embeddingTypeSchema).min(1).default(['float']),
    truncate: z.enum(['NONE', 'START', 'END']).optional(),
    max_tokens: z.int().min(1).optional(),
  })
  .superRefine((request, context) => {
    if (request.inputs !== undefined && request.texts !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['texts'],
        message: 'send either inputs or texts, not both',
      });
    } else if (request.inputs === undefined && request.texts === undefined) {
      // Reported as a missing `inputs` (the spec's form), which parseRequestBody names as such.
      context.addIssue({
        code: 'invalid_type',
        expected: 'array',
        input: undefined,
        path: ['inputs'],
        message: 'inputs (or texts) is required',
      });
    }
  });

export type CompatEmbedRequest = z.infer<typeof compatEmbedRequestSchema>;
