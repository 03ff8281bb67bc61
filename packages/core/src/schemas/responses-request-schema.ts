import { z } from 'zod';
import { reasoningEffortSchema } from './chat-completions-request-schema.js';
import { nullsAsAbsent } from './nulls-as-absent.js';
import { checkSamplingParameters, samplingParametersShape } from './sampling-parameters-schema.js';
import { stringOrArraySchema } from './string-or-array-schema.js';

export const inputTextPartSchema = z.strictObject({ type: z.literal('input_text'), text: z.string() });

export const inputImagePartSchema = z.strictObject({
  type: z.literal('input_image'),
  /** A base64 data URL (spec: "Images are sent only as base64 data URLs inside an input_image part"). */
  image_url: z.string(),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});

// An assistant turn replayed from an earlier answer carries output_text parts.
const outputTextPartSchema = z.strictObject({ type: z.literal('output_text'), text: z.string() });

const messageType = z.literal('message').optional();
const textOnly = stringOrArraySchema(z.array(inputTextPartSchema));

export const responsesInputMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ type: messageType, role: z.literal('user'), content: stringOrArraySchema(z.array(z.discriminatedUnion('type', [inputTextPartSchema, inputImagePartSchema]))) }),
  z.strictObject({ type: messageType, role: z.literal('system'), content: textOnly }),
  z.strictObject({ type: messageType, role: z.literal('developer'), content: textOnly }),
  z.strictObject({ type: messageType, role: z.literal('assistant'), content: stringOrArraySchema(z.array(z.discriminatedUnion('type', [inputTextPartSchema, outputTextPartSchema]))) }),
]);

const responsesObjectSchema = z
  .strictObject({
    model: z.string().min(1),
    input: stringOrArraySchema(z.array(responsesInputMessageSchema).min(1)),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    /** The spec's gateway extension; the same meaning as max_output_tokens. */
    max_tokens: z.int().min(1).optional(),
    max_output_tokens: z.int().min(1).optional(),
    instructions: z.string().optional(),
    reasoning: z.strictObject({ effort: reasoningEffortSchema.optional() }).optional(),
    user: z.string().optional(),
    // Spec rule 1: the service stores no data, so a stored response could never be read back.
    store: z.literal(false, { error: 'store: true is not supported because this gateway stores no data; send false or leave it out' }).optional(),
    ...samplingParametersShape,
  })
  .superRefine((value, context) => {
    if (value.max_tokens !== undefined && value.max_output_tokens !== undefined) {
      context.addIssue({ code: 'custom', path: ['max_output_tokens'], input: value.max_output_tokens, message: 'send max_tokens or max_output_tokens, not both' });
    }
    // The response object has no field to carry prompt log-probabilities: refusing beats dropping them.
    if (value.prompt_logprobs !== undefined) {
      context.addIssue({ code: 'custom', path: ['prompt_logprobs'], input: value.prompt_logprobs, message: 'prompt_logprobs cannot be returned by /v1/responses; use /v1/chat/completions' });
    }
    const maxTokens = value.max_tokens !== undefined ? { name: 'max_tokens', value: value.max_tokens } : { name: 'max_output_tokens', value: value.max_output_tokens };
    checkSamplingParameters(value, maxTokens, context);
  });

/** Body of POST /v1/responses. */
export const responsesRequestSchema = nullsAsAbsent(responsesObjectSchema);

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
export type ResponsesInputMessage = z.output<typeof responsesInputMessageSchema>;
